import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testConnection } from '../../../electron/sinks/connection-test.js';
import { createSqliteSink } from '../../../electron/sinks/sqlite-sink.js';
import { planSqlExport } from '../../../electron/sinks/sql-plan.js';
import { drive, driveChecked, NUMBERED_FIELDS, numberedTable, snapshotOf, sqliteSpec, streamOf } from './sink-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = (): string => path.join(dir, `db${n++}.sqlite`);

function readAll(file: string, sql: string): Record<string, unknown>[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).safeIntegers().all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('sqlite sink: modes', () => {
  it('append creates the table and lands every row once, in batches of batchSize', async () => {
    const file = freshFile();
    const stream = streamOf(numberedTable(12_345), NUMBERED_FIELDS, 2048, 5000);
    await drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), stream);
    const [count] = readAll(file, 'SELECT count(*) AS n, count(DISTINCT id) AS d, min(id) AS lo, max(id) AS hi FROM target');
    expect(count).toEqual({ n: 12_345n, d: 12_345n, lo: 0n, hi: 12_344n });
    expect(readAll(file, 'SELECT label FROM target WHERE id = 777')).toEqual([{ label: 'row 777' }]);
  });

  it('writes a transaction from batches of a few rows each, in order', async () => {
    const file = freshFile();
    await drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), streamOf(numberedTable(2_345), NUMBERED_FIELDS, 7));
    const rows = readAll(file, 'SELECT rowid, id, label FROM target ORDER BY rowid');
    expect(rows).toHaveLength(2_345);
    expect(rows.every((r, i) => r.id === BigInt(i) && r.rowid === BigInt(i + 1) && r.label === `row ${i}`)).toBe(true);
  });

  it('creates a file of 16 KiB pages; an existing file keeps its own', async () => {
    const file = freshFile();
    await drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10));
    const existing = freshFile();
    const db = new Database(existing);
    db.exec('CREATE TABLE other (x)');
    db.close();
    await drive(createSqliteSink(sqliteSpec(existing)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10));
    expect(readAll(file, 'PRAGMA page_size')).toEqual([{ page_size: 16_384n }]);
    expect(readAll(existing, 'PRAGMA page_size')).toEqual([{ page_size: 4096n }]);
    expect(readAll(existing, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 10n }]);
  });

  it('leaves every committed row in the database file itself, with no WAL left over', async () => {
    const file = freshFile();
    await drive(createSqliteSink(sqliteSpec(file, { batchSize: 100 })), streamOf(numberedTable(20_000), NUMBERED_FIELDS, 2048));
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 20_000n }]);
  });

  it('prepares each statement once per export, not again for every transaction', async () => {
    // better-sqlite3 frees a statement only when V8 collects its object: one per transaction held the memory of
    // thousands until a full collection.
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const preparedFor = async (rows: number, mode: 'append' | 'upsert', exactlyOnce: boolean) => {
      prepare.mockClear();
      const spec = sqliteSpec(freshFile(), { batchSize: 100, mode, keyColumns: mode === 'upsert' ? ['id'] : undefined, exactlyOnce });
      await drive(createSqliteSink(spec), streamOf(numberedTable(rows), NUMBERED_FIELDS, 2048));
      return prepare.mock.calls.length;
    };
    try {
      for (const [mode, exactlyOnce] of [
        ['append', false],
        ['upsert', true],
      ] as const) {
        // 3 transactions against 40.
        expect(await preparedFor(4_000, mode, exactlyOnce)).toBe(await preparedFor(300, mode, exactlyOnce));
      }
    } finally {
      prepare.mockRestore();
    }
  });

  it('copies rows into a table with no index but its rowid through a small page cache, into an indexed one through SQLite’s default', async () => {
    // What SQLite's page cache holds while each transaction's rows are copied in, read on the writing connection.
    const probe = new Database(':memory:');
    const builtDefault = probe.pragma('cache_size', { simple: true });
    const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Database.Statement;
    probe.close();
    const cacheAtCopy = async (file: string, options: Parameters<typeof sqliteSpec>[1]) => {
      const caches = new Set<unknown>();
      const run = statementProto.run;
      const spy = vi.spyOn(statementProto, 'run').mockImplementation(function (this: Database.Statement, ...params: unknown[]) {
        if (this.source.startsWith('INSERT INTO main."target"')) caches.add(this.database.pragma('cache_size', { simple: true }));
        return run.apply(this, params);
      });
      try {
        await drive(
          createSqliteSink(sqliteSpec(file, { batchSize: 500, ...options })),
          streamOf(numberedTable(2_000), NUMBERED_FIELDS, 2048),
        );
      } finally {
        spy.mockRestore();
      }
      return [...caches];
    };
    const indexed = freshFile();
    const db = new Database(indexed);
    db.exec('CREATE TABLE target (id INTEGER, label TEXT); CREATE INDEX target_label ON target (label)');
    db.close();
    expect(builtDefault).toBe(-16_000);
    expect(await cacheAtCopy(freshFile(), {})).toEqual([-2048]);
    // An INTEGER primary key is the rowid.
    expect(await cacheAtCopy(freshFile(), { mode: 'upsert', keyColumns: ['id'] })).toEqual([-2048]);
    expect(await cacheAtCopy(freshFile(), { mode: 'upsert', keyColumns: ['label'] })).toEqual([builtDefault]);
    expect(await cacheAtCopy(indexed, {})).toEqual([builtDefault]);
    expect(readAll(indexed, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 2_000n }]);
  });
});

describe('sqlite sink: overwrite, upsert, sql', () => {
  it('overwrite swaps in the new contents; a reader sees the old ones until then', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec(`CREATE TABLE target (id INTEGER, label TEXT); INSERT INTO target VALUES (-1, 'old'), (-2, 'old')`);
    db.close();
    let during: unknown;
    await drive(
      createSqliteSink(sqliteSpec(file, { mode: 'overwrite', batchSize: 300 })),
      streamOf(numberedTable(1000), NUMBERED_FIELDS, 250),
      {
        afterBatch: (i) => {
          if (i === 2) during = readAll(file, 'SELECT count(*) AS n FROM target');
        },
      },
    );
    expect(during).toEqual([{ n: 2n }]);
    expect(readAll(file, 'SELECT count(*) AS n, min(id) AS lo, max(id) AS hi FROM target')).toEqual([{ n: 1000n, lo: 0n, hi: 999n }]);
    expect(readAll(file, `SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '\\_deltaport\\_stage%' ESCAPE '\\'`)).toEqual([
      { n: 0n },
    ]);
  });

  it('upsert creates a primary key, updates by key with ON CONFLICT, and is idempotent', async () => {
    const file = freshFile();
    const spec = sqliteSpec(file, { mode: 'upsert', keyColumns: ['id'], batchSize: 400 });
    const stream = streamOf(numberedTable(1000), NUMBERED_FIELDS, 256);
    await drive(createSqliteSink(spec), stream);
    await drive(createSqliteSink(spec), stream);
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 1000n }]);
    expect(readAll(file, `SELECT sql FROM sqlite_master WHERE name = 'target'`)[0].sql).toContain('PRIMARY KEY ("id")');
    await drive(createSqliteSink(spec), streamOf(numberedTable(500, 800), NUMBERED_FIELDS, 128));
    expect(readAll(file, 'SELECT count(*) AS n, max(id) AS hi FROM target')).toEqual([{ n: 1300n, hi: 1299n }]);
  });

  it('sql mode runs the user statement per row with :column parameters', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec(
      `CREATE TABLE accounts (id INTEGER PRIMARY KEY, note TEXT); INSERT INTO accounts WITH RECURSIVE s(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM s WHERE v < 9) SELECT v, 'none' FROM s`,
    );
    db.close();
    const sql = `UPDATE accounts SET note = :label || '/' || :label WHERE id = :"id" AND note != ':skip'`;
    await drive(
      createSqliteSink(sqliteSpec(file, { table: 'accounts', mode: 'sql', sql })),
      streamOf(numberedTable(3, 4), NUMBERED_FIELDS, 2),
    );
    expect(readAll(file, "SELECT id, note FROM accounts WHERE note != 'none' ORDER BY id")).toEqual([
      { id: 4n, note: 'row 4/row 4' },
      { id: 5n, note: 'row 5/row 5' },
      { id: 6n, note: 'row 6/row 6' },
    ]);
  });
});

describe('sqlite sink: refusals and failures', () => {
  it('bad input writes nothing: no file is created for an invalid spec', async () => {
    const file = freshFile();
    await expect(
      driveChecked(
        sqliteSpec(file, { mode: 'upsert', keyColumns: ['nope'] }),
        createSqliteSink,
        streamOf(numberedTable(3), NUMBERED_FIELDS, 3),
      ),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'key column "nope" is not among the exported columns',
    });
    expect(existsSync(file)).toBe(false);
  });

  it('an incompatible existing table is refused before anything is written', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec('CREATE TABLE target (id INTEGER, label NUMERIC)');
    db.close();
    await expect(drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(3), NUMBERED_FIELDS, 3))).rejects.toMatchObject({
      code: 'SINK_INCOMPATIBLE',
      message: expect.stringContaining('column "label" is NUMERIC'),
    });
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 0n }]);
  });

  it('a constraint violation fails at once naming the rows; earlier batches stay, the failed one is rolled back', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec('CREATE TABLE target (id INTEGER CHECK (id <> 2500), label TEXT)');
    db.close();
    await expect(
      drive(createSqliteSink(sqliteSpec(file, { batchSize: 1000 })), streamOf(numberedTable(5000), NUMBERED_FIELDS, 1000)),
    ).rejects.toMatchObject({
      code: 'SINK_WRITE',
      message: 'rows 2001-3000 failed: CHECK constraint failed: id <> 2500',
    });
    expect(readAll(file, 'SELECT count(*) AS n, max(id) AS hi FROM target')).toEqual([{ n: 2000n, hi: 1999n }]);
  });

  it('of two runs of one job that both found no file, the one refused leaves the file to the other', async () => {
    const file = freshFile();
    const stream = streamOf(numberedTable(3000), NUMBERED_FIELDS, 1000);
    const ctx = { fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal };
    const sinks = [createSqliteSink(sqliteSpec(file)), createSqliteSink(sqliteSpec(file))];
    // Both look for the file before either creates it; one takes the job, the other is refused.
    const opened = await Promise.allSettled(sinks.map((sink) => sink.open(ctx)));
    const refused = opened.findIndex((o) => o.status === 'rejected');
    expect(opened[refused]).toMatchObject({ status: 'rejected', reason: { code: 'SINK_BUSY' } });
    // Given up before the other has committed a row: the file it found missing is the other's now.
    await sinks[refused].abort();
    const winner = sinks[1 - refused];
    for (const batch of stream.batches) await winner.write(batch);
    await winner.close();
    expect(readAll(file, 'SELECT count(*) AS n, count(DISTINCT id) AS d FROM target')).toEqual([{ n: 3000n, d: 3000n }]);
  });

  it('an export that created the file and stops before a commit leaves it to another export writing into it', async () => {
    const file = freshFile();
    const stream = streamOf(numberedTable(3000), NUMBERED_FIELDS, 1000);
    const ctx = { fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal };
    // Two jobs (two target tables) into one new file: both find it missing, both write into it.
    const [first, second] = ['first', 'second'].map((table) => createSqliteSink(sqliteSpec(file, { table })));
    await Promise.all([first.open(ctx), second.open(ctx)]);
    await first.abort();
    for (const batch of stream.batches) await second.write(batch);
    await second.close();
    expect(readAll(file, 'SELECT count(*) AS n FROM second')).toEqual([{ n: 3000n }]);
  });

  it('a locked database (SQLITE_BUSY) is retried until the lock is released', async () => {
    const file = freshFile();
    await drive(createSqliteSink(sqliteSpec(file)), streamOf(numberedTable(10), NUMBERED_FIELDS, 10));
    const blocker = new Database(file, { timeout: 0 });
    blocker.exec('BEGIN IMMEDIATE');
    const sink = createSqliteSink(sqliteSpec(file, { maxRetries: 5 }));
    const stream = streamOf(numberedTable(10, 10), NUMBERED_FIELDS, 10);
    // The writer (taking the job's lease as it opens) waits out its busy timeout, then retries; the lock goes away
    // meanwhile.
    setTimeout(() => {
      blocker.exec('COMMIT');
      blocker.close();
    }, 5_500);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal });
    await sink.write(stream.batches[0]);
    await sink.close();
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 20n }]);
  });
});

describe('sqlite sink: exactly-once and batching', () => {
  it('resumes after the last committed transaction, including one that ended inside a scan batch', async () => {
    const file = freshFile();
    // Transactions of 700 rows over scan batches of 512: most commits end inside a scan batch.
    const spec = sqliteSpec(file, { batchSize: 700, exactlyOnce: true });
    const stream = streamOf(numberedTable(10_000), NUMBERED_FIELDS, 512, 2000);
    const stop = new AbortController();
    await expect(
      drive(createSqliteSink(spec), stream, { signal: stop.signal, afterBatch: (i) => (i === 6 ? stop.abort() : undefined) }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    const [partial] = readAll(file, 'SELECT count(*) AS n FROM target');
    expect(partial.n).toBe(3500n); // 7 scan batches = 3584 rows, of which 5 whole transactions committed
    await drive(createSqliteSink(spec), stream);
    expect(readAll(file, 'SELECT count(*) AS n, count(DISTINCT id) AS d, max(id) AS hi FROM target')).toEqual([
      { n: 10_000n, d: 10_000n, hi: 9999n },
    ]);
    expect(await drive(createSqliteSink(spec), stream)).toBe(0);
    expect(readAll(file, 'SELECT done, rows_written FROM _deltaport_progress')).toEqual([{ done: 1n, rows_written: 10_000n }]);
  });

  it('with batchIntervalMs a partial batch is committed after the interval', async () => {
    const file = freshFile();
    const sink = createSqliteSink(sqliteSpec(file, { batchSize: 1000, batchIntervalMs: 50 }));
    const stream = streamOf(numberedTable(30), NUMBERED_FIELDS, 30);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal });
    await sink.write(stream.batches[0]);
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 0n }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 30n }]);
    await sink.close();
  });
});

describe('sqlite plan and connection test', () => {
  it('plans without creating the file, and reports version and target existence', async () => {
    const file = freshFile();
    const plan = await planSqlExport(NUMBERED_FIELDS, sqliteSpec(file, { table: 'my table', mode: 'upsert', keyColumns: ['id'] }));
    expect(plan).toEqual({
      sink: 'sqlite',
      target: 'my table',
      ddl: ['CREATE TABLE "my table" ("id" INTEGER NOT NULL, "label" TEXT, PRIMARY KEY ("id"))'],
      statement:
        'INSERT INTO main."my table" ("id", "label") SELECT "c0", "c1" FROM "deltaport_batch"."rows" WHERE true ON CONFLICT ("id") DO UPDATE SET "label" = excluded."label"',
      targetExists: false,
      incompatibility: null,
    });
    expect(await testConnection(sqliteSpec(file, { table: 'my table' }))).toEqual({
      serverVersion: expect.stringMatching(/^SQLite 3\./),
      targetExists: false,
    });
    expect(existsSync(file)).toBe(false);
    await drive(createSqliteSink(sqliteSpec(file, { table: 'my table' })), streamOf(numberedTable(3), NUMBERED_FIELDS, 3));
    expect((await testConnection(sqliteSpec(file, { table: 'my table' }))).targetExists).toBe(true);
    const again = await planSqlExport(NUMBERED_FIELDS, sqliteSpec(file, { table: 'my table' }));
    expect(again).toMatchObject({ ddl: [], targetExists: true, incompatibility: null });
  });
});

describe('sqlite sink: exactly-once overwrite', () => {
  it('keeps the old contents when interrupted, finishes on the rerun, and a finished job changes nothing', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec(`CREATE TABLE target (id INTEGER, label TEXT); INSERT INTO target VALUES (-1, 'old')`);
    db.close();
    const spec = sqliteSpec(file, { mode: 'overwrite', batchSize: 1000, exactlyOnce: true });
    const stream = streamOf(numberedTable(5000), NUMBERED_FIELDS, 1000);
    const stop = new AbortController();
    await expect(
      drive(createSqliteSink(spec), stream, { signal: stop.signal, afterBatch: (i) => (i === 1 ? stop.abort() : undefined) }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(readAll(file, 'SELECT count(*) AS n, min(id) AS lo FROM target')).toEqual([{ n: 1n, lo: -1n }]);
    expect(await drive(createSqliteSink(spec), stream)).toBe(3);
    expect(readAll(file, 'SELECT count(*) AS n, count(DISTINCT id) AS d FROM target')).toEqual([{ n: 5000n, d: 5000n }]);
    expect(await drive(createSqliteSink(spec), stream)).toBe(0);
    expect(readAll(file, 'SELECT count(*) AS n FROM target')).toEqual([{ n: 5000n }]);
  });
});
