import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  allowNavigation,
  allowPermission,
  APP_ENTRY_URL,
  CONTENT_SECURITY_POLICY,
  isAppUrl,
  secureWebPreferences,
  windowOpenAction,
} from '../../../electron/app/security.js';
import { contentTypeFor, resolveStaticFile } from '../../../electron/app/static-files.js';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('content security policy', () => {
  const csp = directives(CONTENT_SECURITY_POLICY);

  it('allows only the app itself by default and for connections', () => {
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });

  it('never allows eval or inline scripts, plugins, framing, base or form redirection', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
  });
});

describe('window options', () => {
  it('keeps every Electron security default on and names the preload', () => {
    const prefs = secureWebPreferences('/app/dist/electron/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/dist/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
  });

  it('denies navigation, new windows and every permission but the clipboard write', () => {
    for (const url of [APP_ENTRY_URL, 'https://example.com/', 'file:///etc/passwd', 'app://evil/index.html']) {
      expect(allowNavigation(url)).toBe(false);
    }
    expect(windowOpenAction()).toEqual({ action: 'deny' });
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) {
      expect(allowPermission(permission, APP_ENTRY_URL)).toBe(false);
      expect(allowPermission(permission, 'app://deltaport')).toBe(false);
    }
    expect(allowPermission('notifications', APP_ENTRY_URL)).toBe(true);
    expect(allowPermission('notifications', 'https://elsewhere.example')).toBe(false);
  });

  it("allows clipboard-sanitized-write to the app's own origin only", () => {
    // A request handler is given the frame's URL, a check handler its origin.
    expect(allowPermission('clipboard-sanitized-write', APP_ENTRY_URL)).toBe(true);
    expect(allowPermission('clipboard-sanitized-write', 'app://deltaport')).toBe(true);
    for (const other of [
      'app://evil',
      'app://deltaport.evil.com',
      'https://deltaport',
      'http://127.0.0.1:5173',
      'file:///index.html',
      '',
      'null',
    ]) {
      expect(allowPermission('clipboard-sanitized-write', other)).toBe(false);
    }
    expect(allowPermission('clipboard-write', APP_ENTRY_URL)).toBe(false);
  });

  it('recognises only the app scheme and host as the app', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('app://deltaport/assets/x.js')).toBe(true);
    expect(isAppUrl('app://deltaport.evil.com/')).toBe(false);
    expect(isAppUrl('app://user:pw@deltaport/')).toBe(false);
    expect(isAppUrl('http://deltaport/')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('static files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-static-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('maps paths inside the root, with / as index.html', () => {
    expect(resolveStaticFile(root, '/')).toBe(path.join(root, 'index.html'));
    expect(resolveStaticFile(root, '/assets/app-1.js')).toBe(path.join(root, 'assets', 'app-1.js'));
    expect(resolveStaticFile(root, '/a%20b.css')).toBe(path.join(root, 'a b.css'));
  });

  it('refuses every way out of the root', () => {
    for (const p of ['/../secret', '/assets/../../x', '/%2e%2e/x', '/..%2fx', '/a%5c..%5cx', '/a%00.js', '/%E0%A4%A', 'relative']) {
      expect(resolveStaticFile(root, p)).toBeNull();
    }
  });

  it('names content types', () => {
    expect(contentTypeFor('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('/x/a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/a.unknown')).toBe('application/octet-stream');
  });
});
