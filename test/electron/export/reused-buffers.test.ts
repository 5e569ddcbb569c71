// An export into a sink that is done with each batch when its write resolves (PostgreSQL's COPY modes, SQLite whose
// writes resolve after their commits) lets the scan decode every piece into the buffers of the piece before
// (ScanOptions.reuseBuffers): every row must still land as the table holds it, the rows the sink holds back across a
// write included (also where the batch interval flushes them between writes, and where a rerun skips the rows an
// earlier run committed), and a sink that keeps batches until its commit (PostgreSQL's mode 'sql') must get batches of
// their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { liveColumnValues } from '../../support/delta-oracle-rows.js';
import { PIECES_COLUMNS, writePiecesTable } from '../../support/delta-writer/pieces-table.js';
import { exportRequest } from '../../support/export-request.js';
import { useTestDatabase } from '../../support/test-database.js';

const db = useTestDatabase('reused_buffers');

let out: string;
let root: string;
let expected: unknown[][];
let deleted: number;
beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'deltaport-reuse-'));
  root = path.join(out, 'table');
  // Row groups of 150 rows, files of uneven sizes (each ends in a shorter group): every group is a piece decoded into
  // the buffers of the one before, so the sink's 1,000-row batches hold rows across pieces.
  deleted = await writePiecesTable(root, [1010, 1333, 777]);
  expected = await liveRows(root);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A table's rows in id order as DuckDB reads them, the id as text (as pg gives a bigint). */
async function liveRows(table: string): Promise<unknown[][]> {
  const values = await Promise.all(PIECES_COLUMNS.map((c) => liveColumnValues(table, c)));
  return values[0].map((id, r) => [String(id), ...values.slice(1).map((v) => v[r])]).sort(byId);
}

function byId(a: unknown[], b: unknown[]): number {
  return Number(a[0]) - Number(b[0]);
}

/** The target's rows in id order (pg gives a bigint as its text). */
async function landed(table: string): Promise<unknown[][]> {
  const { rows } = await db.client.query<Record<string, unknown>>(`SELECT id, name, amount, flag FROM "${table}" ORDER BY id`);
  return rows.map((r) => PIECES_COLUMNS.map((c) => r[c]));
}

/** A SQLite file's rows in id order, as pg gives them (the id as text, the flag as a boolean). */
function landedInSqlite(file: string, table: string): unknown[][] {
  const sqlite = new Database(file, { readonly: true });
  try {
    const rows = sqlite.prepare(`SELECT id, name, amount, flag FROM "${table}" ORDER BY id`).all() as Record<string, unknown>[];
    return rows.map((r) => [String(r.id), r.name, r.amount, r.flag === null ? null : r.flag === 1]);
  } finally {
    sqlite.close();
  }
}

const EXECUTION = { batchSize: 1000, batchIntervalMs: 0, maxRetries: 0 };

function pg(table: string, mode: 'overwrite' | 'sql', sql?: string): SinkSpec {
  return { kind: 'postgres', connection: { url: db.url }, table, mode, ...(sql ? { sql } : {}), execution: EXECUTION, exactlyOnce: false };
}

/** An exactly-once append into `kind`, with `execution` over EXECUTION. */
function appendInto(kind: 'postgres' | 'sqlite', table: string, execution: Partial<typeof EXECUTION> = {}): SinkSpec {
  const common = { table, mode: 'append' as const, execution: { ...EXECUTION, ...execution }, exactlyOnce: true };
  return kind === 'postgres'
    ? { kind, connection: { url: db.url }, ...common }
    : { kind, path: path.join(out, `${table}.sqlite`), ...common };
}

async function landedIn(kind: 'postgres' | 'sqlite', table: string): Promise<unknown[][]> {
  return kind === 'postgres' ? landed(table) : landedInSqlite(path.join(out, `${table}.sqlite`), table);
}

/** The scan's batches of 64 rows: pieces of three batches, the sink's batches spanning pieces. */
const SMALL_SCAN_BATCHES = { parquetBatchSize: 64 };

describe('an export whose scan reuses its buffers', () => {
  // A piece a batch (the default 2048 rows a batch), and pieces of three batches, whose rows the sink holds as views
  // across writes until the piece's last.
  it.each([2048, 64])('lands every row of a PostgreSQL COPY export, those held across pieces included (%i-row batches)', async (rows) => {
    expect(expected).toHaveLength(3120 - deleted);
    const table = `copied_${rows}`;
    const result = await exportRequest({
      source: { tablePath: root, options: { parquetBatchSize: rows } },
      sink: pg(table, 'overwrite'),
    });
    expect(result.rows).toBe(expected.length);
    expect(await landed(table)).toEqual(expected);
  });

  it.each([2048, 64])('lands every row of a SQLite export, those held across pieces included (%i-row batches)', async (rows) => {
    const file = path.join(out, `copied-${rows}.sqlite`);
    const result = await exportRequest({
      source: { tablePath: root, options: { parquetBatchSize: rows } },
      sink: { kind: 'sqlite', path: file, table: 'copied', mode: 'append', execution: EXECUTION, exactlyOnce: false },
    });
    expect(result.rows).toBe(expected.length);
    expect(landedInSqlite(file, 'copied')).toEqual(expected);
  });

  it('gives a sink that keeps its batches until the commit batches of their own', async () => {
    await db.client.query('CREATE TABLE kept (id bigint, name text, amount double precision, flag boolean)');
    const sql = 'INSERT INTO kept (id, name, amount, flag) VALUES (:id, :name, :amount, :flag)';
    const result = await exportRequest({ source: { tablePath: root }, sink: pg('kept', 'sql', sql) });
    expect(result.rows).toBe(expected.length);
    expect(await landed('kept')).toEqual(expected);
  });
});

describe('an export whose scan reuses its buffers, flushed or resumed part way', () => {
  let manyRoot: string;
  let manyExpected: unknown[][];
  beforeAll(async () => {
    manyRoot = path.join(out, 'many-pieces');
    await writePiecesTable(manyRoot, [40_000, 33_333, 27_777]);
    manyExpected = await liveRows(manyRoot);
  });

  // A flush by the batch interval takes the rows the batcher holds between writes, while the scan reads on.
  it.each(['postgres', 'sqlite'] as const)('%s: a batch interval of 1 ms lands every row once', async (kind) => {
    const table = `flushed_${kind}`;
    const result = await exportRequest({
      source: { tablePath: root, options: SMALL_SCAN_BATCHES },
      sink: appendInto(kind, table, { batchIntervalMs: 1 }),
    });
    expect(result.rows).toBe(expected.length);
    expect(await landedIn(kind, table)).toEqual(expected);
  });

  // The rerun starts inside a piece and skips the rows committed before it: the batcher slices the piece's batches
  // (over PostgreSQL's two connections, also any range one of them committed ahead of the other). A table
  // of 674 pieces, so that PostgreSQL commits a transaction (a megabyte of COPY data at first) well before its end.
  it.each(['postgres', 'sqlite'] as const)('%s: cancelled after a commit and run again, every row lands once', async (kind) => {
    const table = `resumed_${kind}`;
    const stop = new AbortController();
    const first = await exportRequest({
      source: { tablePath: manyRoot, options: SMALL_SCAN_BATCHES },
      sink: appendInto(kind, table, { batchSize: 100 }),
      signal: stop.signal,
      onProgress: (p) => (p.committedRows ?? 0) > 0 && stop.abort(),
    }).then(
      () => 'finished',
      (err: unknown) => (err as Error).message,
    );
    const committed = Number(/^export cancelled after (\d+) rows were committed; run it again to resume$/.exec(first)?.[1]);
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(manyExpected.length);

    const rerun = await exportRequest({
      source: { tablePath: manyRoot, options: SMALL_SCAN_BATCHES },
      sink: appendInto(kind, table, { batchSize: 100 }),
    });
    expect(rerun.rows).toBe(manyExpected.length - committed);
    expect(await landedIn(kind, table)).toEqual(manyExpected);
  });
});
