// Generated Spark jobs run in Spark local mode on shared tables (deletion vectors, column mapping, every type) into
// this file's PostgreSQL database, a SQLite file, Parquet, CSV and JSON Lines, with and without a filter, and what
// they land is compared row for row with what Deltaport's own export of the same snapshot lands (text files: the
// same header and the same lines, byte for byte). Spark is slow on two cores: every job runs in one Python
// process (one JVM launch); one more launch runs a job as plain `python job.py`, one with the header's spark-submit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SinkSpec, SqlSinkSpec, WriteMode } from '../../../shared/sink-spec.js';
import { DEFAULT_EXECUTION } from '../../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { exportRequest } from '../../support/export-request.js';
import { sparkJobFor } from '../../../electron/handoff/emit-spark-job.js';
import { quoteName } from '../../../shared/sql-quote.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { tablePath } from '../../support/tables.js';
import { useTestDatabase } from '../../support/test-database.js';
import { openLocal } from '../../support/task-tables.js';
import { quoteArg, runProcess, runSparkJobs, sparkMissing, SPARK_TIMEOUT_MS, SUBMIT_SETTINGS } from './spark-run.js';

const missing = sparkMissing();

const ALL_TYPES = 'delta-1.2.1-only-struct-stats';
const WITH_DV = 'table-with-dv-small';
const COLUMN_MAPPING = 'table_with_column_mapping';
/** Longs, doubles, shorts and dates. */
const NUMBERS = 'cdf-table-non-partitioned';
/** Variants, top-level and inside arrays, structs and maps. */
const VARIANTS = 'spark-variant-checkpoint';

type SinkKind = 'postgres' | 'sqlite' | 'parquet' | 'csv' | 'jsonl';

interface Case {
  name: string;
  table: string;
  sink: SinkKind;
  mode?: Exclude<WriteMode, 'sql'>;
  keys?: string[];
  /** For upsert: a non-key text column that the test makes stale in the seeded target, for the upsert to restore. */
  staleColumn?: string;
  versionAsOf?: number;
  /** --where */
  where?: string;
}

// Every sink and mode once, over all three tables; Spark time is what bounds this list.
const CASES: Case[] = [
  { name: 'every type -> postgres upsert', table: ALL_TYPES, sink: 'postgres', mode: 'upsert', keys: ['integer'], staleColumn: 'string' },
  { name: 'every type -> sqlite overwrite', table: ALL_TYPES, sink: 'sqlite', mode: 'overwrite' },
  { name: 'deletion vectors -> postgres append', table: WITH_DV, sink: 'postgres', mode: 'append' },
  { name: 'deletion vectors, version 0 -> sqlite upsert', table: WITH_DV, sink: 'sqlite', mode: 'upsert', keys: ['value'], versionAsOf: 0 },
  { name: 'column mapping -> postgres overwrite', table: COLUMN_MAPPING, sink: 'postgres', mode: 'overwrite' },
  { name: 'column mapping -> parquet', table: COLUMN_MAPPING, sink: 'parquet' },
  { name: 'every type -> csv', table: ALL_TYPES, sink: 'csv' },
  {
    name: 'every type, filtered -> jsonl',
    table: ALL_TYPES,
    sink: 'jsonl',
    where:
      "timestamp >= '2022-10-24 22:59:36' AND decimal < 0.5 AND string LIKE 'str%' AND date = DATE '2022-10-24' AND integer NOT IN (7, 9)" +
      " AND nested_struct.struct_element.nested_struct_element = 'nested_struct_value' AND NOT (binary IS NULL)",
  },
  { name: 'deletion vectors -> jsonl', table: WITH_DV, sink: 'jsonl' },
  { name: 'variants -> jsonl', table: VARIANTS, sink: 'jsonl' },
  {
    name: 'longs, doubles, shorts, filtered -> jsonl',
    table: NUMBERS,
    sink: 'jsonl',
    // Keeps the long beyond 2^53, which JSON Lines writes as a string.
    where:
      "(double_field BETWEEN 1 AND 4e0 AND birthday < TIMESTAMP '2024-04-16 00:00:00' AND smallint_field IN (1, 2) AND long_field <> 3)" +
      ' OR long_field > 9007199254740991',
  },
  {
    name: 'column mapping, filtered -> csv',
    table: COLUMN_MAPPING,
    sink: 'csv',
    where: `"Company Very Short" = 'BMS' AND "Super Name" LIKE '%n%' ESCAPE '!' OR "Super Name" IS NULL`,
  },
];

/** Run as `python job.py` in a fresh process, its packages from its own spark.jars.packages. */
const PLAIN: Case = { name: 'column mapping -> sqlite append', table: COLUMN_MAPPING, sink: 'sqlite', mode: 'append' };

/** Run by spark-submit with the command the script's header shows, in its own launch. */
const SUBMITTED: Case = { name: 'every type -> parquet', table: ALL_TYPES, sink: 'parquet' };

describe.skipIf(missing !== null)(missing ? `Spark jobs (skipped: ${missing})` : 'Spark jobs', () => {
  const db = useTestDatabase('spark_jobs');
  let dir = '';
  let sqliteFile = '';
  const results = new Map<string, { ok: boolean; error?: string }>();
  let sparkLog = '';
  const scripts = new Map<string, string>();
  let exactlyOnceJob = '';

  function sinkFor(c: Case, side: 'dp' | 'sp', mode = c.mode): SinkSpec {
    const table = `${side}_${c === SUBMITTED ? 'submitted' : c === PLAIN ? 'plain' : CASES.indexOf(c)}`;
    const options = {
      table,
      mode: mode ?? 'append',
      keyColumns: c.keys,
      execution: { ...DEFAULT_EXECUTION, batchSize: 4 },
      exactlyOnce: false,
    };
    if (c.sink === 'postgres') return { kind: 'postgres', connection: { url: db.url }, ...options };
    if (c.sink === 'sqlite') return { kind: 'sqlite', path: sqliteFile, ...options };
    return { kind: c.sink, path: path.join(dir, `${table}.${c.sink}`) };
  }

  function sourceFor(c: Case): DeltaSourceSpec {
    return {
      tablePath: tablePath(c.table),
      ...(c.versionAsOf === undefined ? {} : { versionAsOf: c.versionAsOf }),
      ...(c.where === undefined ? {} : { filter: c.where }),
    };
  }

  /** The same SQL in both databases: quoted names, no parameters. */
  async function runSql(c: Case, sql: string): Promise<void> {
    if (c.sink === 'postgres') await db.client.query(sql);
    else {
      const sqlite = new Database(sqliteFile);
      sqlite.exec(sql);
      sqlite.close();
    }
  }

  /** Both targets start equal and non-empty, so append must add to them, overwrite replace them, and upsert update
   * the rows the test made stale and put back the one it deleted. */
  async function seed(c: Case): Promise<void> {
    if (c.sink !== 'postgres' && c.sink !== 'sqlite') return;
    for (const side of ['dp', 'sp'] as const) {
      const sink = sinkFor(c, side, c.mode === 'upsert' ? 'upsert' : 'append');
      await exportRequest({ source: sourceFor(c), sink });
      if (!c.keys) continue;
      const t = quoteName((sink as SqlSinkSpec).table);
      const k = quoteName(c.keys[0]);
      if (c.staleColumn) {
        await runSql(
          c,
          `UPDATE ${t} SET ${quoteName(c.staleColumn)} = 'stale' WHERE ${k} IN (SELECT ${k} FROM ${t} ORDER BY ${k} LIMIT 2)`,
        );
      }
      await runSql(c, `DELETE FROM ${t} WHERE ${k} = (SELECT max(${k}) FROM ${t})`);
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deltaport-spark-'));
    sqliteFile = path.join(dir, 'target.sqlite');
    const jobs: string[] = [];
    await exportRequest({ source: sourceFor(SUBMITTED), sink: sinkFor(SUBMITTED, 'dp') });
    await seed(PLAIN);
    await exportRequest({ source: sourceFor(PLAIN), sink: sinkFor(PLAIN, 'dp') });
    for (const [i, c] of CASES.entries()) {
      await seed(c);
      await exportRequest({ source: sourceFor(c), sink: sinkFor(c, 'dp') });
      const script = await sparkJobFor(sourceFor(c), sinkFor(c, 'sp'), openLocal);
      const file = path.join(dir, `job-${i}.py`);
      writeFileSync(file, script);
      scripts.set(c.name, script);
      jobs.push(file);
    }
    // Exactly-once, run twice: the second run finds the job in the ledger and writes nothing.
    const once: SinkSpec = {
      kind: 'postgres',
      connection: { url: db.url },
      table: 'sp_once',
      mode: 'append',
      execution: DEFAULT_EXECUTION,
      exactlyOnce: true,
    };
    exactlyOnceJob = path.join(dir, 'job-once.py');
    writeFileSync(exactlyOnceJob, await sparkJobFor({ tablePath: tablePath(WITH_DV) }, once, openLocal));
    jobs.push(exactlyOnceJob, exactlyOnceJob);
    // A target that cannot take the rows: the final transaction fails and rolls back.
    await db.client.query('CREATE TABLE sp_bad ("value" boolean); INSERT INTO sp_bad VALUES (true)');
    const bad: SinkSpec = { ...once, table: 'sp_bad', exactlyOnce: false };
    const badJob = path.join(dir, 'job-bad.py');
    writeFileSync(badJob, await sparkJobFor({ tablePath: tablePath(WITH_DV) }, bad, openLocal));
    jobs.push(badJob);

    const url = new URL(db.url);
    const run = await runSparkJobs(jobs, {
      PGUSER: decodeURIComponent(url.username),
      PGPASSWORD: decodeURIComponent(url.password),
    });
    sparkLog = run.log;
    for (const [i, result] of run.results.entries()) results.set(`${i}`, result);
  }, SPARK_TIMEOUT_MS);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function expectJobOk(i: number): void {
    const result = results.get(`${i}`);
    expect(result, 'job result').toBeDefined();
    if (!result!.ok) throw new Error(`Spark job failed: ${result!.error}\n${sparkLog.slice(-2000)}`);
  }

  for (const [i, c] of CASES.entries()) {
    it(`${c.name}: lands what Deltaport lands`, async () => {
      expectJobOk(i);
      const [dp, sp] = [sinkFor(c, 'dp'), sinkFor(c, 'sp')];
      const landed = await contents(c.sink, dp, sp);
      expect(landed.deltaport.rows.length).toBeGreaterThan(0);
      expect(landed.spark.columns).toEqual(landed.deltaport.columns);
      expect(landed.spark.rows).toEqual(landed.deltaport.rows);
      if (c.sink === 'postgres' || c.sink === 'sqlite') expect(await stagingTables(c.sink)).toEqual([]);
      if (c.sink === 'csv' || c.sink === 'jsonl') {
        // One file, nothing left beside it (staging folder, partial file, checksum file).
        const name = path.basename((sp as { path: string }).path);
        expect(readdirSync(dir).filter((n) => n.includes(name))).toEqual([name]);
      }
    });
  }

  it('writes no credentials into the script', () => {
    const password = decodeURIComponent(new URL(db.url).password);
    expect(password.length).toBeGreaterThan(0);
    for (const script of scripts.values()) expect(script).not.toContain(password);
    expect(scripts.get(CASES[0].name)).toContain('"password": "PGPASSWORD"');
  });

  it('exactly-once: a rerun writes nothing, and Deltaport then finds the job done', async () => {
    const first = CASES.length;
    expectJobOk(first);
    expectJobOk(first + 1);
    const count = async () => Number((await db.client.query('SELECT count(*) AS n FROM sp_once')).rows[0].n);
    expect(await count()).toBe(8);
    const once: SinkSpec = {
      kind: 'postgres',
      connection: { url: db.url },
      table: 'sp_once',
      mode: 'append',
      execution: DEFAULT_EXECUTION,
      exactlyOnce: true,
    };
    await exportRequest({ source: { tablePath: tablePath(WITH_DV) }, sink: once });
    expect(await count()).toBe(8);
  });

  it('a failed final transaction leaves the target as it was and no staging table', async () => {
    const result = results.get(`${CASES.length + 2}`)!;
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/column "value" is of type boolean but expression is of type integer/);
    expect((await db.client.query('SELECT "value" FROM sp_bad')).rows).toEqual([{ value: true }]);
    expect(await stagingTables('postgres')).toEqual([]);
  });

  it(
    `${PLAIN.name}: runs unchanged with plain python`,
    async () => {
      const file = path.join(dir, 'plain', 'job.py');
      mkdirSync(path.dirname(file));
      writeFileSync(file, await sparkJobFor(sourceFor(PLAIN), sinkFor(PLAIN, 'sp'), openLocal));
      // Only the speed settings come from outside; the driver's jar is the script's own request.
      const run = await runProcess(
        'python3',
        [file],
        { PYSPARK_SUBMIT_ARGS: [...SUBMIT_SETTINGS.map(quoteArg), 'pyspark-shell'].join(' ') },
        path.dirname(file),
      );
      expect(run.code, run.stderr.slice(-3000)).toBe(0);
      // Five rows appended to the five the target was seeded with.
      expect(run.stdout).toContain('deltaport job: landed 5 rows');
      const landed = sqliteContents(sqliteFile, sinkFor(PLAIN, 'dp'), sinkFor(PLAIN, 'sp'));
      expect(landed.deltaport.rows.length).toBe(10);
      expect(landed.spark).toEqual(landed.deltaport);
    },
    SPARK_TIMEOUT_MS,
  );

  it(
    'every type -> parquet: runs unchanged with the spark-submit command its header shows',
    async () => {
      const sink = sinkFor(SUBMITTED, 'sp');
      const script = await sparkJobFor(sourceFor(SUBMITTED), sink, openLocal);
      const command = /#\s+spark-submit (--packages \S+) job\.py/.exec(script);
      expect(command).not.toBeNull();
      const file = path.join(dir, 'job.py');
      writeFileSync(file, script);
      const submit = path.join(pysparkHome(), 'bin', 'spark-submit');
      const run = await runProcess(submit, [...command![1].split(' '), ...SUBMIT_SETTINGS, file], {}, dir);
      expect(run.code, run.stderr.slice(-3000)).toBe(0);
      expect(run.stdout).toContain('deltaport job: wrote');
      const landed = await parquetContents(sinkFor(SUBMITTED, 'dp'), sink);
      expect(landed.deltaport.rows.length).toBeGreaterThan(0);
      expect(landed.spark).toEqual(landed.deltaport);
      expect(readdirSync(dir).filter((n) => n.endsWith('.spark-staging'))).toEqual([]);
    },
    SPARK_TIMEOUT_MS,
  );

  async function contents(sink: SinkKind, dp: SinkSpec, sp: SinkSpec): Promise<{ deltaport: Contents; spark: Contents }> {
    if (sink === 'postgres') return pgContents(db.client, dp, sp);
    if (sink === 'sqlite') return sqliteContents(sqliteFile, dp, sp);
    if (sink === 'parquet') return parquetContents(dp, sp);
    return { deltaport: textContents(dp), spark: textContents(sp) };
  }

  async function stagingTables(sink: 'postgres' | 'sqlite'): Promise<string[]> {
    if (sink === 'postgres') {
      return (await db.client.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE '\\_deltaport\\_spark\\_%'`)).rows.map(
        (r) => r.tablename as string,
      );
    }
    const sqlite = new Database(sqliteFile, { readonly: true });
    try {
      return sqlite
        .prepare(`SELECT name FROM sqlite_master WHERE name LIKE '\\_deltaport\\_spark\\_%' ESCAPE '\\'`)
        .pluck()
        .all() as string[];
    } finally {
      sqlite.close();
    }
  }
});

interface Contents {
  columns: unknown[];
  rows: string[];
}

async function pgContents(client: pg.Client, dp: SinkSpec, sp: SinkSpec): Promise<{ deltaport: Contents; spark: Contents }> {
  const read = async (table: string): Promise<Contents> => {
    const columns = await client.query(
      `SELECT attname, format_type(atttypid, atttypmod) AS type, attnotnull FROM pg_attribute
        WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [quoteName(table)],
    );
    const keys = await client.query(`SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = to_regclass($1)`, [
      quoteName(table),
    ]);
    const rows = await client.query(`SELECT t::text AS r FROM ${quoteName(table)} t ORDER BY 1`);
    const index = keys.rows.map((k) => (k.def as string).replaceAll(table, 'T'));
    return { columns: [...columns.rows, ...index], rows: rows.rows.map((r) => r.r as string) };
  };
  return { deltaport: await read((dp as SqlSinkSpec).table), spark: await read((sp as SqlSinkSpec).table) };
}

/** A CSV or JSON Lines file: its header (none for JSON Lines) and its lines in sorted order (Spark's row order is
 * its own); every byte of each line counts. */
function textContents(sink: SinkSpec): Contents {
  const text = readFileSync((sink as { path: string }).path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const header = sink.kind === 'csv' ? lines.splice(0, 1) : [];
  return { columns: header, rows: lines.sort() };
}

function sqliteContents(file: string, dp: SinkSpec, sp: SinkSpec): { deltaport: Contents; spark: Contents } {
  const sqlite = new Database(file, { readonly: true });
  try {
    const read = (table: string): Contents => {
      const columns = sqlite.prepare('SELECT name, type, "notnull", pk FROM pragma_table_info(?)').all(table) as { name: string }[];
      // Each value with its storage class; reals with every digit.
      const cell = (name: string) => {
        const q = quoteName(name);
        return `typeof(${q}) || ':' || CASE typeof(${q}) WHEN 'real' THEN printf('%!.17g', ${q}) ELSE quote(${q}) END`;
      };
      const rows = sqlite
        .prepare(`SELECT ${columns.map((c) => cell(c.name)).join(` || '|' || `)} AS r FROM ${quoteName(table)} ORDER BY r`)
        .pluck()
        .all() as string[];
      return { columns, rows };
    };
    return { deltaport: read((dp as SqlSinkSpec).table), spark: read((sp as SqlSinkSpec).table) };
  } finally {
    sqlite.close();
  }
}

async function parquetContents(dp: SinkSpec, sp: SinkSpec): Promise<{ deltaport: Contents; spark: Contents }> {
  const read = async (glob: string): Promise<Contents> => {
    const from = `read_parquet(${sqlText(glob)})`;
    const columns = (await duck(`DESCRIBE SELECT * FROM ${from}`)).map((r) => [r.column_name, r.column_type]);
    return { columns, rows: await parquetRows(glob) };
  };
  const spFolder = (sp as { path: string }).path;
  expect(existsSync(path.join(spFolder, '_SUCCESS'))).toBe(true);
  return { deltaport: await read((dp as { path: string }).path), spark: await read(path.join(spFolder, '*.parquet')) };
}

async function parquetRows(glob: string): Promise<string[]> {
  const rows = await duck(`SELECT CAST(t AS VARCHAR) AS r FROM read_parquet(${sqlText(glob)}) t ORDER BY r`);
  return rows.map((r) => r.r as string);
}

function pysparkHome(): string {
  const found = spawnSync('python3', ['-c', 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'], { encoding: 'utf8' });
  return found.stdout.trim();
}
