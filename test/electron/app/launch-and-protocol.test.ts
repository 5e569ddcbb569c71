import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answerAppRequest } from '../../../electron/app/app-protocol.js';
import { entryUrl, tableFromArgv } from '../../../electron/app/launch-args.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/app/security.js';

describe('command line table', () => {
  it('finds the table after the app folder in development and after the executable when packaged', () => {
    expect(tableFromArgv(['/usr/bin/electron', '.', 'tables/people'], false, '/home/me')).toBe('/home/me/tables/people');
    expect(tableFromArgv(['/opt/Deltaport/deltaport', '/data/people'], true, '/')).toBe('/data/people');
    expect(tableFromArgv(['/opt/Deltaport/deltaport', '--no-sandbox', '/data/people'], true, '/')).toBe('/data/people');
    expect(tableFromArgv(['/usr/bin/electron', '.'], false, '/home/me')).toBeNull();
  });

  it('passes it to the page as ?table=', () => {
    expect(entryUrl(null)).toBe('app://deltaport/index.html');
    const url = new URL(entryUrl('/data/my table&x=1'));
    expect(url.searchParams.get('table')).toBe('/data/my table&x=1');
  });
});

describe('app:// protocol', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-protocol-'));
  fs.mkdirSync(path.join(root, 'renderer', 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(root, 'renderer', 'assets', 'a.css'), 'body{}');
  fs.writeFileSync(path.join(root, 'secret'), 'secret');
  const renderer = path.join(root, 'renderer');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('serves the renderer files with the CSP', async () => {
    const index = await answerAppRequest(renderer, 'app://deltaport/index.html?table=%2Fx');
    expect(index.status).toBe(200);
    expect(index.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(String(index.body)).toBe('<!doctype html>');
    const css = await answerAppRequest(renderer, 'app://deltaport/assets/a.css');
    expect(css.headers['Content-Type']).toBe('text/css; charset=utf-8');
  });

  it('answers 404, with the CSP, for other hosts, traversal and missing files', async () => {
    for (const url of ['app://other/index.html', 'app://deltaport/../secret', 'app://deltaport/%2e%2e/secret', 'app://deltaport/nope.js']) {
      const answer = await answerAppRequest(renderer, url);
      expect(answer.status, url).toBe(404);
      expect(answer.headers['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(String(answer.body)).not.toContain('secret');
    }
  });
});
