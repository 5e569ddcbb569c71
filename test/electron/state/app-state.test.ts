import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/api.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { AppState, SCHEMA_VERSION, STATE_FILE_NAME } from '../../../electron/state/app-state.js';
import { xorEncryptor } from '../../support/app-state-helpers.js';

// A reversible stand-in for safeStorage: XOR with a key, so the plain text never appears in the output bytes.
const SECRET = 'hunter2-Very-Secret-Pass';

function pgSink(connection: Extract<SinkSpec, { kind: 'postgres' }>['connection']): SinkSpec {
  return {
    kind: 'postgres',
    connection,
    table: 'people',
    mode: 'append',
    execution: { batchSize: 100, batchIntervalMs: 0, maxRetries: 3 },
    exactlyOnce: false,
  };
}

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-state-'));
  file = path.join(dir, STATE_FILE_NAME);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('AppState', () => {
  it('keeps recent tables across reopen, newest first, without duplicates', () => {
    const state = AppState.open(file, { encryptor: null });
    state.addRecentTable('/t/a', 1000);
    state.addRecentTable('/t/b', 2000);
    state.addRecentTable('/t/a', 3000);
    state.close();
    const again = AppState.open(file, { encryptor: null });
    expect(again.recentTables()).toEqual([
      { path: '/t/a', openedAt: 3000 },
      { path: '/t/b', openedAt: 2000 },
    ]);
    again.close();
  });

  it('keeps only the 20 most recent tables', () => {
    const state = AppState.open(file, { encryptor: null });
    for (let i = 0; i < 25; i++) state.addRecentTable(`/t/${i}`, i);
    const recent = state.recentTables();
    expect(recent).toHaveLength(20);
    expect(recent[0]!.path).toBe('/t/24');
    expect(recent[19]!.path).toBe('/t/5');
    state.close();
  });

  it('stores a profile password only encrypted, and gives it back through the encryptor', () => {
    const state = AppState.open(file, { encryptor: xorEncryptor });
    const saved = state.saveProfile('prod', pgSink({ host: 'db', user: 'me', password: SECRET }));
    expect(saved).toMatchObject({ name: 'prod', hasPassword: true, passwordNotSaved: false });
    expect(saved.sink.kind === 'postgres' && saved.sink.connection.password).toBeFalsy();
    state.close();

    expect(fs.readFileSync(file).includes(Buffer.from(SECRET))).toBe(false);

    const again = AppState.open(file, { encryptor: xorEncryptor });
    expect(again.listProfiles().map((p) => [p.name, p.hasPassword])).toEqual([['prod', true]]);
    expect(again.profilePassword('prod')).toBe(SECRET);
    // Saving the loaded profile again (its password field empty) keeps the stored password.
    again.saveProfile('prod', pgSink({ host: 'db2', user: 'me' }));
    expect(again.profilePassword('prod')).toBe(SECRET);
    expect(again.deleteProfile('prod')).toBe(true);
    expect(again.listProfiles()).toEqual([]);
    again.close();
  });

  it('takes a password out of a connection URL too', () => {
    const state = AppState.open(file, { encryptor: xorEncryptor });
    const saved = state.saveProfile('url', pgSink({ url: `postgres://me:${SECRET}@db:5432/app` }));
    expect(saved.sink.kind === 'postgres' && saved.sink.connection.url).toBe('postgres://me@db:5432/app');
    expect(state.profilePassword('url')).toBe(SECRET);
    state.close();
    expect(fs.readFileSync(file).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('does not save a password without an encryptor, and says so', () => {
    const state = AppState.open(file, { encryptor: null });
    const saved = state.saveProfile('serve', pgSink({ host: 'db', password: SECRET }));
    expect(saved).toMatchObject({ hasPassword: false, passwordNotSaved: true });
    expect(state.profilePassword('serve')).toBe('');
    state.close();
    expect(fs.readFileSync(file).includes(Buffer.from(SECRET))).toBe(false);
  });

  it('records jobs without their passwords, newest first, across reopen', () => {
    const state = AppState.open(file, { encryptor: null });
    const job = (id: string, createdAt: number): JobInfo => ({
      id,
      kind: 'export',
      title: id,
      request: { source: { tablePath: '/t/a' }, sink: pgSink({ url: `postgres://me:${SECRET}@db/app`, password: SECRET }) },
      state: 'succeeded',
      progress: { rows: 5, files: 1, filesTotal: 1, bytes: 10, bytesTotal: 10, rowsPerSec: 5, etaSeconds: 0, percent: 100 },
      createdAt,
      startedAt: createdAt,
      finishedAt: createdAt + 1,
      error: null,
      result: { rows: 5, seconds: 1, rowsPerSec: 5 },
    });
    state.recordJob(job('j1', 1));
    state.recordJob(job('j2', 2));
    state.recordJob({ ...job('j1', 1), state: 'failed' });
    state.close();
    expect(fs.readFileSync(file).includes(Buffer.from(SECRET))).toBe(false);
    const again = AppState.open(file, { encryptor: null });
    const jobs = again.jobHistory();
    expect(jobs.map((j) => [j.id, j.state])).toEqual([
      ['j2', 'succeeded'],
      ['j1', 'failed'],
    ]);
    expect(jobs[0]!.result).toEqual({ rows: 5, seconds: 1, rowsPerSec: 5 });
    again.close();
  });

  it('sets a corrupt state file aside and starts fresh', () => {
    fs.writeFileSync(file, 'this is not an SQLite database, just some bytes '.repeat(100));
    const state = AppState.open(file, { encryptor: null });
    expect(state.setAsidePath).toMatch(/state\.db\.corrupt-\d{4}-/);
    expect(fs.readFileSync(state.setAsidePath!, 'utf8')).toContain('not an SQLite database');
    expect(state.recentTables()).toEqual([]);
    state.addRecentTable('/t/x', 1);
    state.close();
    const again = AppState.open(file, { encryptor: null });
    expect(again.setAsidePath).toBeNull();
    expect(again.recentTables()).toEqual([{ path: '/t/x', openedAt: 1 }]);
    again.close();
  });

  it('sets aside a database whose pages are damaged', () => {
    const state = AppState.open(file, { encryptor: null });
    for (let i = 0; i < 200; i++) state.addRecentTable(`/some/long/table/path/number/${i}`.padEnd(300, 'x'), i);
    state.close();
    const bytes = fs.readFileSync(file);
    // Keep the header (page 1) intact and overwrite the rest with garbage.
    bytes.fill(0xa7, 4096);
    fs.writeFileSync(file, bytes);
    const fresh = AppState.open(file, { encryptor: null });
    expect(fresh.setAsidePath).not.toBeNull();
    expect(fresh.recentTables()).toEqual([]);
    fresh.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    db.close();
  });
});

// Version 1 of state.db exactly as Deltaport 0.1.0 created it (electron/state/app-state.ts at commit 9e3d629),
// written here with better-sqlite3 directly so that the file does not depend on the code under test.
const VERSION_1_SCHEMA = `
  CREATE TABLE recent_tables (path TEXT PRIMARY KEY, opened_at INTEGER NOT NULL);
  CREATE TABLE profiles (
    name TEXT PRIMARY KEY,
    sink_json TEXT NOT NULL,
    password_cipher BLOB,
    password_not_saved INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL
  );
  CREATE TABLE jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, info_json TEXT NOT NULL);
  CREATE INDEX jobs_by_time ON jobs (created_at);
`;

function writeVersion1File(): void {
  const db = new Database(file);
  db.exec(VERSION_1_SCHEMA);
  db.pragma('user_version = 1');
  const sink = pgSink({ host: 'db.example', port: 5432, database: 'sales', user: 'ana' });
  db.prepare('INSERT INTO profiles VALUES (?, ?, ?, 0, ?)').run('warehouse', JSON.stringify(sink), xorEncryptor.encrypt(SECRET), 10);
  db.prepare('INSERT INTO profiles VALUES (?, ?, NULL, 1, ?)').run('laptop', JSON.stringify({ ...sink, table: 'other' }), 11);
  db.prepare('INSERT INTO recent_tables VALUES (?, ?)').run('/t/old', 5);
  for (const [id, state, at] of [
    ['done', 'succeeded', 1],
    ['cut', 'running', 2],
  ] as const) {
    const info = { id, kind: 'export', title: id, request: { source: { tablePath: '/t/old' }, sink }, state, createdAt: at };
    db.prepare('INSERT INTO jobs VALUES (?, ?, ?)').run(id, at, JSON.stringify(info));
  }
  db.close();
}

describe('AppState upgrades', () => {
  it('migrates a version-1 file in place, keeping its profiles, passwords, recent tables and jobs', () => {
    writeVersion1File();
    const state = AppState.open(file, { encryptor: xorEncryptor });
    expect(state.setAsidePath).toBeNull();
    expect(state.listProfiles().map((p) => [p.name, p.hasPassword, p.passwordNotSaved])).toEqual([
      ['laptop', false, true],
      ['warehouse', true, false],
    ]);
    expect(state.profilePassword('warehouse')).toBe(SECRET);
    expect(state.recentTables()).toEqual([{ path: '/t/old', openedAt: 5 }]);
    expect(state.jobHistory().map((j) => j.id)).toEqual(['cut', 'done']);
    // The step to version 2 filled the new state column from each record.
    expect(state.unfinishedJobs().map((j) => j.id)).toEqual(['cut']);
    state.close();
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE_NAME]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a file from a newer Deltaport with a one-line message and leaves it untouched', () => {
    const db = new Database(file);
    db.exec('CREATE TABLE future_things (x)');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = fs.readFileSync(file);
    let message = '';
    try {
      AppState.open(file, { encryptor: null }).close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      `${file} was written by a newer Deltaport (state version ${SCHEMA_VERSION + 1}, this one knows up to ${SCHEMA_VERSION}); ` +
        'update Deltaport, or set DELTAPORT_DATA_DIR to another folder',
    );
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE_NAME]);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });
});
