// The app's own memory in one SQLite file: recent tables, saved sink profiles (passwords only ever encrypted), saved
// storage and catalog connections (secrets only ever encrypted) and job history. Its schema moves forward through ordered migrations, so an upgrade keeps everything saved. A file
// that is not a readable state database is set aside under a timestamped name and replaced, so a damaged file never
// stops the app from starting; a file from a newer Deltaport is refused and left as it is.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { CatalogConnection, JobInfo, RecentTable, SinkProfile, StorageConnection } from '../../shared/api.js';
import type { CatalogKind } from '../../shared/catalog-name.js';
import { DeltaportError } from '../../shared/errors.js';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { openDatabase as openSqlite, SqliteError } from '../native/sqlite-binding.js';
import { ConnectionTable, type ConnectionRecord } from './connection-table.js';
import type { Encryptor } from './secrets.js';
import { redactSink, splitPassword } from './secrets.js';

export const STATE_FILE_NAME = 'state.db';
const MAX_RECENT = 20;
const MAX_JOBS = 500;

/**
 * MIGRATIONS[i] takes a file from schema version i to i + 1 (user_version; 0 is a new, empty file). Append only:
 * a released step is never edited, since files out there are at every version it produced.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE recent_tables (path TEXT PRIMARY KEY, opened_at INTEGER NOT NULL);
   CREATE TABLE profiles (
     name TEXT PRIMARY KEY,
     sink_json TEXT NOT NULL,
     password_cipher BLOB,
     password_not_saved INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE jobs (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, info_json TEXT NOT NULL);
   CREATE INDEX jobs_by_time ON jobs (created_at);`,
  // The job's state as a column: at start the runner asks for the unfinished ones instead of parsing every record.
  `ALTER TABLE jobs ADD COLUMN state TEXT NOT NULL DEFAULT 'failed';
   UPDATE jobs SET state = json_extract(info_json, '$.state');
   CREATE INDEX jobs_by_state ON jobs (state);`,
  // Storage connections: the secret options as one encrypted JSON object; their names in the clear, so the list
  // can say which are set without decrypting anything.
  `CREATE TABLE storage_connections (
     name TEXT PRIMARY KEY,
     prefix TEXT NOT NULL,
     options_json TEXT NOT NULL,
     secret_names_json TEXT NOT NULL DEFAULT '[]',
     secrets_cipher BLOB,
     secrets_not_saved INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   );`,
  // Catalog connections (Unity Catalog, AWS Glue), their secrets (a token) kept as storage connections keep theirs.
  `CREATE TABLE catalog_connections (
     name TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     options_json TEXT NOT NULL,
     secret_names_json TEXT NOT NULL DEFAULT '[]',
     secrets_cipher BLOB,
     secrets_not_saved INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER NOT NULL
   );`,
];
export const SCHEMA_VERSION = MIGRATIONS.length;

export interface AppStateOptions {
  /** Encrypts saved passwords; null when the platform offers no encryption (passwords are then not saved). */
  encryptor: Encryptor | null;
}

/** A storage connection as saved. */
export interface StorageConnectionRecord extends ConnectionRecord {
  prefix: string;
}

/** A catalog connection as saved. */
export interface CatalogConnectionRecord extends ConnectionRecord {
  kind: CatalogKind;
}

interface ProfileRow {
  name: string;
  sink_json: string;
  password_cipher: Buffer | null;
  password_not_saved: number;
}

export class AppState {
  /** Saved storage connections: a prefix's options and secrets. */
  readonly storageConnections: ConnectionTable<StorageConnectionRecord, StorageConnection, string>;
  /** Saved catalog connections (Unity Catalog, AWS Glue), their secrets (a token) kept as storage connections keep
   * theirs. */
  readonly catalogConnections: ConnectionTable<CatalogConnectionRecord, CatalogConnection, CatalogKind>;

  private constructor(
    private readonly db: Database.Database,
    private readonly encryptor: Encryptor | null,
    /** Where an unreadable state file was moved, when that happened on open. */
    readonly setAsidePath: string | null,
  ) {
    this.storageConnections = new ConnectionTable(db, encryptor, {
      table: 'storage_connections',
      column: 'prefix',
      own: (record) => record.prefix,
      shown: (name, prefix, saved) => ({ name, prefix, ...saved }),
    });
    this.catalogConnections = new ConnectionTable(db, encryptor, {
      table: 'catalog_connections',
      column: 'kind',
      own: (record) => record.kind,
      shown: (name, kind, saved) => ({ name, kind, ...saved }),
    });
  }

  static open(file: string, options: AppStateOptions): AppState {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      return new AppState(openStateDatabase(file), options.encryptor, null);
    } catch (err) {
      if (!(err instanceof SqliteError)) throw err;
      const aside = setAside(file);
      return new AppState(openStateDatabase(file), options.encryptor, aside);
    }
  }

  close(): void {
    this.db.close();
  }

  addRecentTable(tablePath: string, openedAt = Date.now()): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO recent_tables (path, opened_at) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET opened_at = excluded.opened_at',
        )
        .run(tablePath, openedAt);
      this.db
        .prepare('DELETE FROM recent_tables WHERE path NOT IN (SELECT path FROM recent_tables ORDER BY opened_at DESC, rowid DESC LIMIT ?)')
        .run(MAX_RECENT);
    })();
  }

  recentTables(): RecentTable[] {
    const rows = this.db.prepare('SELECT path, opened_at FROM recent_tables ORDER BY opened_at DESC, rowid DESC').all() as {
      path: string;
      opened_at: number;
    }[];
    return rows.map((r) => ({ path: r.path, openedAt: r.opened_at }));
  }

  /**
   * Saves a profile. Its password is encrypted when an encryptor exists and dropped otherwise (the profile then says
   * passwordNotSaved). Saving again without a password keeps the one stored before.
   */
  saveProfile(name: string, spec: SinkSpec, now = Date.now()): SinkProfile {
    const { sink, password } = splitPassword(spec);
    const previous = this.profileRow(name);
    let cipher: Buffer | null = previous?.password_cipher ?? null;
    let notSaved = false;
    if (password) {
      if (this.encryptor) cipher = this.encryptor.encrypt(password);
      else {
        cipher = null;
        notSaved = true;
      }
    }
    this.db
      .prepare(
        `INSERT INTO profiles (name, sink_json, password_cipher, password_not_saved, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET sink_json = excluded.sink_json, password_cipher = excluded.password_cipher,
           password_not_saved = excluded.password_not_saved, updated_at = excluded.updated_at`,
      )
      .run(name, JSON.stringify(sink), cipher, notSaved ? 1 : 0, now);
    return toProfile(this.profileRow(name)!);
  }

  listProfiles(): SinkProfile[] {
    const rows = this.db.prepare('SELECT * FROM profiles ORDER BY name').all() as ProfileRow[];
    return rows.map(toProfile);
  }

  /** The decrypted password of a saved profile, '' when it has none or it cannot be decrypted any more. */
  profilePassword(name: string): string {
    const row = this.profileRow(name);
    if (!row?.password_cipher || !this.encryptor) return '';
    try {
      return this.encryptor.decrypt(row.password_cipher);
    } catch {
      return '';
    }
  }

  deleteProfile(name: string): boolean {
    return this.db.prepare('DELETE FROM profiles WHERE name = ?').run(name).changes > 0;
  }

  /** Whether secrets (connection secrets, passwords) are kept on disk, encrypted; otherwise not at all. */
  get savesSecrets(): boolean {
    return this.encryptor !== null;
  }

  /** Stores (or updates) a job's record; its sink is kept without any password. */
  recordJob(job: JobInfo): void {
    const stored: JobInfo = { ...job, request: { ...job.request, sink: redactSink(job.request.sink) } };
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO jobs (id, created_at, info_json, state) VALUES (?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET info_json = excluded.info_json, state = excluded.state`,
        )
        .run(job.id, job.createdAt, JSON.stringify(stored), job.state);
      this.db.prepare('DELETE FROM jobs WHERE id NOT IN (SELECT id FROM jobs ORDER BY created_at DESC LIMIT ?)').run(MAX_JOBS);
    })();
  }

  /** Recorded jobs, newest first. */
  jobHistory(): JobInfo[] {
    const rows = this.db.prepare('SELECT info_json FROM jobs ORDER BY created_at DESC, rowid DESC').all() as { info_json: string }[];
    return rows.map((r) => JSON.parse(r.info_json) as JobInfo);
  }

  /** Recorded jobs still queued or running: the app quit before they finished. */
  unfinishedJobs(): JobInfo[] {
    const rows = this.db.prepare("SELECT info_json FROM jobs WHERE state IN ('queued', 'running') ORDER BY created_at DESC").all() as {
      info_json: string;
    }[];
    return rows.map((r) => JSON.parse(r.info_json) as JobInfo);
  }

  private profileRow(name: string): ProfileRow | undefined {
    return this.db.prepare('SELECT * FROM profiles WHERE name = ?').get(name) as ProfileRow | undefined;
  }
}

function toProfile(row: ProfileRow): SinkProfile {
  return {
    name: row.name,
    sink: JSON.parse(row.sink_json) as SinkSpec,
    hasPassword: row.password_cipher !== null,
    passwordNotSaved: row.password_not_saved === 1,
  };
}

function openStateDatabase(file: string): Database.Database {
  const db = openSqlite(file);
  try {
    // Reading the header and schema is what reveals a file that is not a database or is damaged.
    const version = db.pragma('user_version', { simple: true }) as number;
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new SqliteError(`state file failed its check: ${String(check)}`, 'SQLITE_CORRUPT');
    if (version > SCHEMA_VERSION) {
      throw new DeltaportError(
        'STATE_TOO_NEW',
        `${file} was written by a newer Deltaport (state version ${version}, this one knows up to ${SCHEMA_VERSION}); ` +
          'update Deltaport, or set DELTAPORT_DATA_DIR to another folder',
      );
    }
    migrate(db, version);
    // The state is written on the main thread (a table opened, a job's state changed): in the default rollback
    // journal each such commit waited for fsyncs, 10-100 ms on a busy disk. A WAL with synchronous=NORMAL syncs
    // only at checkpoints; a power cut may lose the last change, never the file.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Runs the steps from `from` to the current version, each in its own transaction with its version number. */
function migrate(db: Database.Database, from: number): void {
  for (let version = from; version < SCHEMA_VERSION; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

/** Moves an unreadable state file (and its journal) aside as FILE.corrupt-<time>; returns the new name. */
function setAside(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(file, aside);
  for (const suffix of ['-journal', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}
