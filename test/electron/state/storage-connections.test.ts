// Saved storage connections in the state file: secrets only ever encrypted at rest (or, without an encryptor, held
// for the run and never written), and an older state file upgraded in place with everything it held.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppState, SCHEMA_VERSION, STATE_FILE_NAME } from '../../../electron/state/app-state.js';
import { xorEncryptor } from '../../support/app-state-helpers.js';

const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const lake = {
  name: 'lake',
  prefix: 's3://lake',
  options: { endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', access_key_id: 'AKIDLAKE' },
  secrets: { secret_access_key: SECRET },
};

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-connections-'));
  file = path.join(dir, STATE_FILE_NAME);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every byte the state folder holds (the database and any journal beside it). */
function bytesOnDisk(): Buffer {
  return Buffer.concat(fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name))));
}

describe('storage connections in the app state', () => {
  it('keeps the secrets only encrypted, and gives them back through the encryptor after a reopen', () => {
    const state = AppState.open(file, { encryptor: xorEncryptor });
    expect(state.storageConnections.save(lake)).toEqual({
      name: 'lake',
      prefix: 's3://lake',
      options: lake.options,
      secretsSet: ['secret_access_key'],
      secretsNotSaved: false,
    });
    // Written to the file and the journal, before and after the close.
    expect(bytesOnDisk().includes(SECRET)).toBe(false);
    expect(bytesOnDisk().includes('AKIDLAKE')).toBe(true);
    state.close();
    expect(bytesOnDisk().includes(SECRET)).toBe(false);

    const again = AppState.open(file, { encryptor: xorEncryptor });
    expect(again.storageConnections.list().map((c) => [c.name, c.secretsSet])).toEqual([['lake', ['secret_access_key']]]);
    expect(again.storageConnections.secrets('lake')).toEqual(lake.secrets);
    again.close();
  });

  it('without an encryptor writes no secret, holds it for the run only, and says so', () => {
    const state = AppState.open(file, { encryptor: null });
    const saved = state.storageConnections.save(lake);
    expect([saved.secretsSet, saved.secretsNotSaved]).toEqual([['secret_access_key'], true]);
    expect(state.storageConnections.secrets('lake')).toEqual(lake.secrets);
    state.close();
    expect(bytesOnDisk().includes(SECRET)).toBe(false);

    const next = AppState.open(file, { encryptor: null });
    const [kept] = next.storageConnections.list();
    expect([kept!.options, kept!.secretsSet, kept!.secretsNotSaved]).toEqual([lake.options, [], true]);
    expect(next.storageConnections.secrets('lake')).toEqual({});
    next.close();
  });

  it('replaces a connection saved under the same name, and deletes one with its secrets', () => {
    const state = AppState.open(file, { encryptor: null });
    state.storageConnections.save(lake);
    state.storageConnections.save({ ...lake, prefix: 's3://', secrets: {} });
    expect(state.storageConnections.list().map((c) => [c.prefix, c.secretsSet, c.secretsNotSaved])).toEqual([['s3://', [], false]]);
    expect(state.storageConnections.secrets('lake')).toEqual({});
    state.storageConnections.save(lake);
    expect(state.storageConnections.delete('lake')).toBe(true);
    expect(state.storageConnections.delete('lake')).toBe(false);
    expect(state.storageConnections.secrets('lake')).toEqual({});
    expect(state.storageConnections.list()).toEqual([]);
    state.close();
  });

  it('upgrades a state file of the version before storage connections in place, keeping what it held', () => {
    const db = new Database(file);
    // Version 2 as released: the first two migration steps.
    db.exec(`CREATE TABLE recent_tables (path TEXT PRIMARY KEY, opened_at INTEGER NOT NULL);
      CREATE TABLE profiles (name TEXT PRIMARY KEY, sink_json TEXT NOT NULL, password_cipher BLOB,
        password_not_saved INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL);
      CREATE TABLE jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, info_json TEXT NOT NULL);
      CREATE INDEX jobs_by_time ON jobs (created_at);
      ALTER TABLE jobs ADD COLUMN state TEXT NOT NULL DEFAULT 'failed';
      CREATE INDEX jobs_by_state ON jobs (state);`);
    db.pragma('user_version = 2');
    const sink = { kind: 'parquet', path: '/out/people.parquet' };
    db.prepare('INSERT INTO profiles VALUES (?, ?, NULL, 0, ?)').run('files', JSON.stringify(sink), 10);
    db.prepare('INSERT INTO recent_tables VALUES (?, ?)').run('s3://lake/people', 5);
    db.close();

    const state = AppState.open(file, { encryptor: xorEncryptor });
    expect(state.setAsidePath).toBeNull();
    expect(state.listProfiles().map((p) => [p.name, p.sink])).toEqual([['files', sink]]);
    expect(state.recentTables()).toEqual([{ path: 's3://lake/people', openedAt: 5 }]);
    expect(state.storageConnections.list()).toEqual([]);
    state.storageConnections.save(lake);
    state.close();
    expect(fs.readdirSync(dir)).toEqual([STATE_FILE_NAME]);
    const upgraded = new Database(file, { readonly: true });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(upgraded.prepare('SELECT name, prefix FROM storage_connections').all()).toEqual([{ name: 'lake', prefix: 's3://lake' }]);
    upgraded.close();
  });
});
