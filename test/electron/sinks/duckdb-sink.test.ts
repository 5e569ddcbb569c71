// The DuckDB sink over every table of the shared corpus: each table the reader reads lands in a DuckDB file equal to
// DuckDB's own delta extension reading it (test/support/delta_census.py: count and SHA-256 of the sorted canonical
// rows, both sides read by Python's duckdb), appended, overwritten, exactly-once and upserted (twice: the same
// table); each table the reader refuses, the extension refuses too. Types stay native. Bad input stops with one
// line and writes nothing.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { scratchFolders } from '../delta/log-files.js';
import { planTask } from '../../../electron/jobs/tasks.js';
import { deltaCensus, duckdbFileCensus } from '../../support/delta-census.js';
import { exportRequest } from '../../support/export-request.js';
import { killMidway } from '../../support/kill-export.js';
import { taskTables } from '../../support/task-tables.js';
import { TABLE_KEYS } from '../../support/table-keys.js';
import { TABLES_ROOT, tablePath } from '../../support/tables.js';
import { duckdbSpec } from './sink-harness.js';

const run = promisify(execFile);
const scratch = scratchFolders('duckdb-sink');
afterAll(() => scratch.removeAll());

const TABLES = readdirSync(TABLES_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('every table of the corpus into DuckDB', () => {
  it.each(TABLES)('%s', { timeout: 600_000 }, async (name) => {
    const source = tablePath(name);
    const file = path.join(scratch.make(), 'out.duckdb');
    const expected = await deltaCensus(source);
    const first = await exportRequest({ source: { tablePath: source }, sink: duckdbSpec(file, { table: 'appended' }) }).catch(
      (err: unknown) => err as DeltaportError,
    );
    if (first instanceof DeltaportError) {
      // A table the reader refuses (a vacuumed version, an unknown feature, no log) is one the extension refuses too.
      expect(typeof expected, `Deltaport refused ${name} (${first.message}), DuckDB's delta extension read it`).toBe('string');
      expect(existsSync(file)).toBe(false);
      return;
    }
    if (typeof expected === 'string') throw new Error(`DuckDB's delta extension cannot read ${name}: ${expected}`);
    expect(first.rows).toBe(expected.rows);
    await exportRequest({ source: { tablePath: source }, sink: duckdbSpec(file, { table: 'overwritten' }) });
    await exportRequest({ source: { tablePath: source }, sink: duckdbSpec(file, { table: 'overwritten', mode: 'overwrite' }) });
    // About 20 transactions, each committed with its ledger row.
    const once = duckdbSpec(file, { table: 'once', exactlyOnce: true, batchSize: Math.max(100, Math.ceil(expected.rows / 20)) });
    await exportRequest({ source: { tablePath: source }, sink: once });
    // The finished job run again writes nothing.
    expect((await exportRequest({ source: { tablePath: source }, sink: once })).rows).toBe(0);
    const tables = ['appended', 'overwritten', 'once'];
    if (TABLE_KEYS[name]) {
      const upsert = duckdbSpec(file, { table: 'upserted', mode: 'upsert', keyColumns: [TABLE_KEYS[name]] });
      await exportRequest({ source: { tablePath: source }, sink: upsert });
      await exportRequest({ source: { tablePath: source }, sink: upsert });
      tables.push('upserted');
    }
    expect(await duckdbFileCensus(file, ...tables)).toEqual(tables.map(() => expected));
    // The transactions' temporary Parquet files are gone with the export.
    expect(existsSync(`${file}.deltaport-parts`)).toBe(false);
  });
});

describe('a DuckDB export killed mid-way', () => {
  it('leaves its temporary Parquet files behind, which the next export into the file removes', { timeout: 300_000 }, async () => {
    const source = tablePath('COVID-19_NYT');
    const file = path.join(scratch.make(), 'killed.duckdb');
    // A filter that keeps every row: the reader filters, so the sink takes its batches (through Parquet parts)
    // rather than the table's own files, which it would read without any.
    const every = { tablePath: source, filter: 'cases IS NULL OR cases >= 0' };
    const request = { source: every, sink: duckdbSpec(file, { table: 'covid', exactlyOnce: true }) };
    expect(await killMidway(request, 100_000)).toBeGreaterThanOrEqual(100_000);
    // The folder lives from the export's start to its end: the killed run never removed it.
    expect(existsSync(`${file}.deltaport-parts`)).toBe(true);
    await exportRequest(request);
    expect(existsSync(`${file}.deltaport-parts`)).toBe(false);
    expect(await duckdbFileCensus(file, 'covid')).toEqual([await deltaCensus(source)]);
  });
});

/** Runs Python's duckdb on a file: the statements, then the query's rows. */
async function pyDuck(file: string, statements: string[], query = 'SELECT 1'): Promise<unknown[][]> {
  const script =
    'import duckdb, json, sys\nc = duckdb.connect(sys.argv[1])\nfor s in sys.argv[3:]: c.execute(s)\nprint(json.dumps(c.execute(sys.argv[2]).fetchall(), default=str))';
  const { stdout } = await run('python3', ['-c', script, file, query, ...statements]);
  return JSON.parse(stdout) as unknown[][];
}

describe('bad input into DuckDB: one line, nothing written', () => {
  const simple = tablePath('simple_table');
  const refusal = (file: string, options: Parameters<typeof duckdbSpec>[1] = {}) =>
    exportRequest({ source: { tablePath: simple }, sink: duckdbSpec(file, { table: 'simple', ...options }) }).then(
      () => {
        throw new Error('the export was not refused');
      },
      (err: DeltaportError) => err,
    );

  it('a path in a missing folder', async () => {
    const file = path.join(scratch.make(), 'missing', 'out.duckdb');
    const err = await refusal(file);
    expect(err.message).toBe(`the output folder does not exist: ${path.dirname(file)}`);
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('a file that is not a DuckDB database', async () => {
    const file = path.join(scratch.make(), 'notes.duckdb');
    writeFileSync(file, 'not a database, just some notes\n'.repeat(200));
    const before = readFileSync(file);
    const err = await refusal(file);
    expect(err.message).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')} cannot be opened as a DuckDB database: [^\\n]+$`));
    expect(readFileSync(file)).toEqual(before);
    expect(existsSync(`${file}.wal`)).toBe(false);
  });

  it('a target whose columns cannot take the export', async () => {
    const file = path.join(scratch.make(), 'target.duckdb');
    await pyDuck(file, ['CREATE TABLE simple (id DATE)', "INSERT INTO simple VALUES ('2020-01-01')"]);
    const err = await refusal(file);
    expect(err.message).toBe('existing table "simple" column "id" is DATE, which cannot hold long (needs BIGINT)');
    expect(await pyDuck(file, [], 'SELECT id FROM simple')).toEqual([['2020-01-01']]);
    // Upsert needs a key DuckDB can match ON CONFLICT with.
    await pyDuck(file, ['CREATE TABLE nokey (id BIGINT)']);
    const upsert = await refusal(file, { table: 'nokey', mode: 'upsert', keyColumns: ['id'] });
    expect(upsert.message).toBe('existing table "nokey" has no primary key or unique index on ("id"), which upsert needs');
    expect(await pyDuck(file, [], "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '\\_deltaport%' ESCAPE '\\'")).toEqual([[0]]);
  });

  it('mode sql, which DuckDB does not offer', async () => {
    const file = path.join(scratch.make(), 'sql.duckdb');
    const err = await refusal(file, { mode: 'sql', sql: 'INSERT INTO x VALUES (:id)' });
    expect(err.message).toContain('mode sql is not offered for DuckDB (use append, overwrite or upsert)');
    expect(existsSync(file)).toBe(false);
  });
});

describe('Show plan for DuckDB', () => {
  const simple = tablePath('simple_table');
  const tables = taskTables();

  it('says what an export will run, reading the target without creating or changing anything', async () => {
    const dir = scratch.make();
    const file = path.join(dir, 'plan.duckdb');
    const fresh = await planTask(tables, { source: { tablePath: simple }, sink: duckdbSpec(file, { table: 'simple' }) });
    expect(fresh).toEqual({
      sink: 'duckdb',
      target: 'simple',
      ddl: ['CREATE TABLE "simple" ("id" BIGINT)'],
      // Each transaction's range of the table's own files, read by DuckDB itself.
      statement: `INSERT INTO "simple" ("id") SELECT "id" FROM read_parquet([-- the table's own data files, a range of them per transaction --])`,
      targetExists: false,
      incompatibility: null,
    });
    // With a filter the reader's rows go in: each transaction's, written to temporary Parquet files, read by DuckDB.
    const filtered = await planTask(tables, {
      source: { tablePath: simple, filter: 'id > 5' },
      sink: duckdbSpec(file, { table: 'simple' }),
    });
    expect(filtered.statement).toBe(`INSERT INTO "simple" ("id") SELECT "id" FROM read_parquet([-- the transaction's files --])`);
    expect(existsSync(file)).toBe(false);
    await pyDuck(file, ['CREATE TABLE simple (id INTEGER PRIMARY KEY)']);
    const upsert = await planTask(tables, {
      source: { tablePath: simple },
      sink: duckdbSpec(file, { table: 'simple', mode: 'upsert', keyColumns: ['id'] }),
    });
    expect(upsert).toMatchObject({ ddl: [], targetExists: true });
    // INTEGER cannot hold every long.
    expect(upsert.incompatibility).toBe('existing table "simple" column "id" is INTEGER, which cannot hold long (needs BIGINT)');
    await pyDuck(file, ['DROP TABLE simple', 'CREATE TABLE simple (id HUGEINT PRIMARY KEY, note VARCHAR)']);
    const merge = await planTask(tables, {
      source: { tablePath: simple },
      sink: duckdbSpec(file, { table: 'simple', mode: 'upsert', keyColumns: ['id'] }),
    });
    expect(merge).toMatchObject({ ddl: [], targetExists: true, incompatibility: null });
    expect(merge.statement).toBe(
      'INSERT INTO temp.main."_deltaport_rows" ("id") SELECT "id" FROM read_parquet([-- the table\'s own data files, a range of them per transaction --]); ' +
        'INSERT INTO "simple" ("id") SELECT "id" FROM (SELECT *, row_number() OVER (PARTITION BY "id" ORDER BY rowid DESC) AS _deltaport_pick FROM temp.main."_deltaport_rows") WHERE _deltaport_pick = 1 ON CONFLICT ("id") DO NOTHING',
    );
    // The plan runs as said: the export lands there.
    await exportRequest({ source: { tablePath: simple }, sink: duckdbSpec(file, { table: 'simple', mode: 'upsert', keyColumns: ['id'] }) });
    expect(await pyDuck(file, [], 'SELECT id::BIGINT, note FROM simple ORDER BY id')).toEqual([
      [5, null],
      [7, null],
      [9, null],
    ]);
  });
});
