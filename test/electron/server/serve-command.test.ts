import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/api.js';
import { main } from '../../../electron/cli/main.js';
import { parseServeArgs, runServe } from '../../../electron/server/serve-command.js';
import { SCHEMA_VERSION, STATE_FILE_NAME } from '../../../electron/state/app-state.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-serve-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function collector() {
  let text = '';
  return {
    write: (chunk: string) => (text += chunk),
    get text() {
      return text;
    },
  };
}

describe('deltaport serve', () => {
  it('parses its arguments', () => {
    expect(parseServeArgs([])).toEqual({ port: 0 });
    expect(parseServeArgs(['--port', '8123'])).toEqual({ port: 8123 });
    expect(parseServeArgs(['--port=0'])).toEqual({ port: 0 });
    expect(parseServeArgs(['--port'])).toEqual({ error: '--port needs a number' });
    expect(parseServeArgs(['--port', '70000'])).toMatchObject({ error: expect.stringMatching(/0 to 65535/) });
    expect(parseServeArgs(['--host', '0.0.0.0'])).toEqual({ error: 'unknown argument "--host"' });
  });

  it('refuses bad arguments with one line and a non-zero code', async () => {
    const stderr = collector();
    expect(await runServe(['--port', 'abc'], { stdout: collector(), stderr })).toBe(2);
    expect(stderr.text.split('\n')[0]).toBe('deltaport serve: --port must be a number from 0 to 65535, not "abc"');
  });

  it('refuses a state file from a newer Deltaport in one line and leaves it as it was', async () => {
    const newer = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-serve-newer-'));
    const file = path.join(newer, STATE_FILE_NAME);
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(file);
    const previous = process.env.DELTAPORT_DATA_DIR;
    process.env.DELTAPORT_DATA_DIR = newer;
    try {
      const stdout = collector();
      const stderr = collector();
      expect(await main(['serve'], { stdout, stderr, isTTY: false })).toBe(1);
      expect(stdout.text).toBe('');
      expect(stderr.text).toBe(
        `deltaport: ${file} was written by a newer Deltaport (state version ${SCHEMA_VERSION + 1}, this one knows up to ${SCHEMA_VERSION}); update Deltaport, or set DELTAPORT_DATA_DIR to another folder\n`,
      );
      expect(fs.readdirSync(newer)).toEqual([STATE_FILE_NAME]);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.DELTAPORT_DATA_DIR;
      else process.env.DELTAPORT_DATA_DIR = previous;
      fs.rmSync(newer, { recursive: true, force: true });
    }
  });

  it('prints the URL first, serves the API from the data folder, writes the sample and stops cleanly', async () => {
    process.env.DELTAPORT_DATA_DIR = dataDir;
    const stdout = collector();
    const stop = new AbortController();
    const exit = runServe([], { stdout, stderr: collector(), signal: stop.signal });
    while (!stdout.text.includes('\n')) await new Promise((r) => setTimeout(r, 20));
    const first = stdout.text.split('\n')[0]!;
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const url = new URL(first);

    const res = await fetch(`${url.origin}/api/sampleTable`, {
      method: 'POST',
      headers: { 'X-Deltaport-Token': url.searchParams.get('token')! },
      body: 'null',
    });
    const sample = (await res.json()) as Result<{ path: string }>;
    expect(sample.ok).toBe(true);
    const samplePath = sample.ok ? sample.value.path : '';
    expect(samplePath.startsWith(dataDir + path.sep)).toBe(true);
    expect(fs.existsSync(path.join(samplePath, '_delta_log'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'state.db'))).toBe(true);

    stop.abort();
    expect(await exit).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
