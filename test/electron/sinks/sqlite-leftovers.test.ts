// A SQLite target is one file again after any failure, and after the first run that follows a kill: no -wal, -shm
// or -journal file is left beside it (the WAL holds committed rows until it is checkpointed into the file), and
// the killed run's transaction image is gone from the temporary folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { exportRequest } from '../../support/export-request.js';
import { testConnection } from '../../../electron/sinks/connection-test.js';
import { planSqlExport } from '../../../electron/sinks/sql-plan.js';
import { createSqliteSink } from '../../../electron/sinks/sqlite-sink.js';
import { tablePath } from '../../support/tables.js';
import { drive, NUMBERED_FIELDS, numberedTable, snapshotOf, sqliteSpec, streamOf } from './sink-harness.js';
import { failure } from '../../support/failure.js';
import { RUN_SOURCES } from '../../support/source-workers.js';

const root = mkdtempSync(path.join(tmpdir(), 'deltaport-sqlite-leftovers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The path of a database file in a folder of its own. */
function fileInFolder(): string {
  return path.join(mkdtempSync(path.join(root, 'case-')), 'target.db');
}

const folderOf = (file: string) => readdirSync(path.dirname(file)).sort();

/** The folder once the checkpoint thread of the failed export has ended (it removes the WAL as it closes). */
async function settledFolderOf(file: string): Promise<string[]> {
  for (let i = 0; i < 100 && folderOf(file).length > 1; i++) await new Promise((r) => setTimeout(r, 50));
  return folderOf(file);
}

describe('no -wal or -shm beside a SQLite target', () => {
  it('after a constraint violation mid-export', async () => {
    const file = fileInFolder();
    const db = new Database(file);
    db.exec('CREATE TABLE target (id INTEGER CHECK (id <> 25000), label TEXT)');
    db.close();
    const err = await failure(
      drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), streamOf(numberedTable(50_000), NUMBERED_FIELDS, 1000)),
    );
    expect(err.code).toBe('SINK_WRITE');
    expect(await settledFolderOf(file)).toEqual(['target.db']);
  });

  it('after an incompatible target is refused', async () => {
    const file = fileInFolder();
    const db = new Database(file);
    db.exec('CREATE TABLE target (id INTEGER, label NUMERIC)');
    db.close();
    expect((await failure(drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10)))).code).toBe(
      'SINK_INCOMPATIBLE',
    );
    expect(await settledFolderOf(file)).toEqual(['target.db']);
  });

  it('after a cancel mid-export (exactly-once and not)', async () => {
    for (const exactlyOnce of [false, true]) {
      const file = fileInFolder();
      const stop = new AbortController();
      const err = await failure(
        drive(
          createSqliteSink(sqliteSpec(file, { batchSize: 1000, exactlyOnce })),
          streamOf(numberedTable(50_000), NUMBERED_FIELDS, 1000),
          {
            signal: stop.signal,
            afterBatch: (i) => (i === 20 ? stop.abort() : undefined),
          },
        ),
      );
      expect(err.code).toBe('CANCELLED');
      expect(await settledFolderOf(file)).toEqual(['target.db']);
    }
  });

  it('after a locked database outlasts the retries', { timeout: 30_000 }, async () => {
    const file = fileInFolder();
    await drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10));
    const blocker = new Database(file, { timeout: 0 });
    blocker.exec('BEGIN IMMEDIATE');
    const sink = createSqliteSink(sqliteSpec(file, { maxRetries: 0 }));
    const stream = streamOf(numberedTable(10, 10), NUMBERED_FIELDS, 10);
    const err = await failure(
      sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal }),
    );
    await sink.abort();
    blocker.exec('ROLLBACK');
    blocker.close();
    expect(err.message).toMatch(/database is locked/);
    expect(await settledFolderOf(file)).toEqual(['target.db']);
  });

  it('after a plan or a connection test of an existing target (they only read it)', async () => {
    const file = fileInFolder();
    await drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10));
    expect(folderOf(file)).toEqual(['target.db']);
    expect((await planSqlExport(NUMBERED_FIELDS, sqliteSpec(file))).targetExists).toBe(true);
    expect(folderOf(file)).toEqual(['target.db']);
    expect((await testConnection(sqliteSpec(file))).targetExists).toBe(true);
    expect(folderOf(file)).toEqual(['target.db']);
  });

  it('after the run that follows a SIGKILL, whether it finishes or fails', { timeout: 120_000 }, async () => {
    for (const rerunFails of [false, true]) {
      const file = fileInFolder();
      const sink = sqliteSpec(file, { table: 'covid', batchSize: 5000, exactlyOnce: true });
      const request = { source: { tablePath: tablePath('COVID-19_NYT'), columnNames: ['date', 'cases'] }, sink };
      const killed = await killMidway(request, 100_000);
      // The kill left the WAL (and its index) behind, and its rows' image: that is the case to clean up.
      expect(folderOf(file)).toEqual(['target.db', 'target.db-shm', 'target.db-wal']);
      expect(imagesOf(killed)).toHaveLength(1);
      if (rerunFails) {
        // Another job into the same table, refused at open: the table has no unique index for the key.
        const upsert = { ...request, sink: { ...sink, mode: 'upsert' as const, keyColumns: ['date'] } };
        expect((await failure(exportRequest(upsert))).code).toBe('SINK_INCOMPATIBLE');
      } else {
        await exportRequest(request);
      }
      expect(await settledFolderOf(file)).toEqual(['target.db']);
      expect(imagesOf(killed)).toEqual([]);
    }
  });
});

/** The transaction images a process left in the temporary folder. */
const imagesOf = (pid: number) => readdirSync(tmpdir()).filter((name) => name.startsWith(`deltaport-rows-${pid}-`));

describe('a failed export into a new SQLite file', () => {
  it('leaves no file when nothing committed: a cancel before the first commit (exactly-once and not)', async () => {
    for (const exactlyOnce of [false, true]) {
      const file = fileInFolder();
      const stop = new AbortController();
      // One transaction of 100,000 rows: the cancel comes while its rows are still being queued.
      const spec = sqliteSpec(file, { batchSize: 100_000, exactlyOnce });
      const err = await failure(
        drive(createSqliteSink(spec), streamOf(numberedTable(50_000), NUMBERED_FIELDS, 1000), {
          signal: stop.signal,
          afterBatch: (i) => (i === 20 ? stop.abort() : undefined),
        }),
      );
      expect(err.code).toBe('CANCELLED');
      expect(folderOf(file)).toEqual([]);
    }
  });

  it('leaves no file when the statement fails before anything committed', async () => {
    const file = fileInFolder();
    const spec = { ...sqliteSpec(file), mode: 'sql' as const, sql: 'INSERT INTO nowhere (id) VALUES (:id)' };
    const err = await failure(drive(createSqliteSink(spec), streamOf(numberedTable(10), NUMBERED_FIELDS, 10)));
    expect(err.message).toMatch(/no such table: nowhere/);
    expect(folderOf(file)).toEqual([]);
  });

  it('keeps the batches that committed before a failure', async () => {
    const file = fileInFolder();
    const stop = new AbortController();
    await failure(
      drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), streamOf(numberedTable(50_000), NUMBERED_FIELDS, 1000), {
        signal: stop.signal,
        afterBatch: (i) => (i === 20 ? stop.abort() : undefined),
      }),
    );
    expect(await settledFolderOf(file)).toEqual(['target.db']);
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT count(*) AS n FROM target').get() as { n: number };
    db.close();
    expect(rows.n).toBeGreaterThan(0);
  });

  it('calls a folder that does not exist the output folder, in one line, and creates nothing', async () => {
    const folder = path.join(mkdtempSync(path.join(root, 'case-')), 'missing');
    const err = await failure(
      drive(createSqliteSink(sqliteSpec(path.join(folder, 'target.db'))), streamOf(numberedTable(10), NUMBERED_FIELDS, 10)),
    );
    expect(err.message).toBe(`the output folder does not exist: ${folder}`);
    expect(readdirSync(path.dirname(folder))).toEqual([]);
  });
});

/** Runs the export in a child process and kills it once it has read `rows` rows; resolves to its process id. */
function killMidway(request: object, rows: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...RUN_SOURCES, path.join(import.meta.dirname, 'export-child.ts')], {
      env: { ...process.env, DELTAPORT_CHILD_EXPORT: JSON.stringify(request) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      for (const m of d.toString().matchAll(/rows (\d+)/g)) seen = Math.max(seen, Number(m[1]));
      if (seen >= rows && child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(child.pid!) : reject(new Error(`the export child ended on its own (code ${code})`)),
    );
  });
}
