// Every Delta type through each database, read back by the database's own client (for DuckDB, Python's duckdb) and
// compared with the values the test wrote (all-types.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDuckdbSink } from '../../../electron/sinks/duckdb/duckdb-sink.js';
import { createPostgresSink } from '../../../electron/sinks/postgres-sink.js';
import { createSqliteSink } from '../../../electron/sinks/sqlite-sink.js';
import { createDatabase, dropDatabase } from '../../support/postgres.js';
import { ALL_TYPES_FIELDS, allTypesTable, EXPECTED } from './all-types.js';
import { drive, duckdbSpec, pgSpec, sqliteSpec, streamOf } from './sink-harness.js';

const column = <K extends keyof typeof EXPECTED>(rows: Record<string, unknown>[], name: K): unknown[] => rows.map((r) => r[name]);

describe('every Delta type through SQLite', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-types-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every value exactly', async () => {
    const file = path.join(dir, 'types.sqlite');
    await drive(createSqliteSink(sqliteSpec(file, { table: 'all types' })), streamOf(allTypesTable(), ALL_TYPES_FIELDS, 3));
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT * FROM "all types" ORDER BY rowid').safeIntegers().all() as Record<string, unknown>[];
    const types = db.prepare('SELECT typeof(f) AS f, typeof(dec38) AS dec38, typeof(l) AS l FROM "all types" ORDER BY rowid').all();
    db.close();
    const asText = (values: unknown[]) => values.map((v) => (v === null ? null : String(v)));
    for (const name of ['b', 'sh', 'i', 'l'] as const) expect(asText(column(rows, name))).toEqual(EXPECTED[name]);
    expect(types[0]).toEqual({ f: 'text', dec38: 'text', l: 'integer' });
    expect(rows.map((r) => r.f)).toEqual(['NaN', Infinity, -1.5, Math.fround(0.1)]);
    expect(rows.map((r) => r.d)).toEqual(['NaN', -Infinity, 1e308, 5e-324]);
    for (const name of ['dec38', 'dec10', 's', 'dt'] as const) expect(column(rows, name)).toEqual(EXPECTED[name]);
    expect(column(rows, 'bin').map((b) => (b === null ? null : (b as Buffer).toString('hex')))).toEqual(EXPECTED.bin);
    expect(column(rows, 'ts')).toEqual(EXPECTED.ts.map((t) => (t === null ? null : `${t}Z`)));
    expect(column(rows, 'ntz')).toEqual(EXPECTED.ntz);
    expect(column(rows, 'bool')).toEqual([1n, 0n, 1n, null]);
    for (const name of ['st', 'arr', 'm'] as const) {
      expect(column(rows, name).map((v) => (v === null ? null : JSON.parse(v as string)))).toEqual(EXPECTED[name]);
    }
  });
});

describe('every Delta type through PostgreSQL', () => {
  let url: string;
  beforeAll(async () => {
    url = await createDatabase(inject('pgUrl'), 'types');
  });
  afterAll(() => dropDatabase(url));

  it('creates the mapped column types and keeps every value exactly', async () => {
    await drive(createPostgresSink(pgSpec({ url }, { table: 'All "Types"' })), streamOf(allTypesTable(), ALL_TYPES_FIELDS, 3));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("SET TimeZone = 'UTC'");
      const types = await client.query(
        `SELECT attname, format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = '"All ""Types"""'::regclass AND attnum > 0 ORDER BY attnum`,
      );
      expect(Object.fromEntries(types.rows.map((r) => [r.attname, r.t]))).toEqual({
        b: 'smallint',
        sh: 'smallint',
        i: 'integer',
        l: 'bigint',
        f: 'real',
        d: 'double precision',
        dec38: 'numeric(38,18)',
        dec10: 'numeric(10,2)',
        s: 'text',
        bin: 'bytea',
        dt: 'date',
        ts: 'timestamp with time zone',
        ntz: 'timestamp without time zone',
        bool: 'boolean',
        st: 'jsonb',
        arr: 'jsonb',
        m: 'jsonb',
      });
      const text = await client.query(
        `SELECT b::text, sh::text, i::text, l::text, f::text, d::text, dec38::text, dec10::text, s, encode(bin, 'hex') AS bin,
                to_char(dt, 'YYYY-MM-DD') AS dt, to_char(ts, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS ts,
                to_char(ntz, 'YYYY-MM-DD"T"HH24:MI:SS.US') AS ntz, bool, st, arr, m
           FROM "All ""Types""" ORDER BY ctid`,
      );
      const rows = text.rows as Record<string, unknown>[];
      for (const name of Object.keys(EXPECTED) as (keyof typeof EXPECTED)[]) expect(column(rows, name)).toEqual(EXPECTED[name]);
      expect(column(rows, 'f' as never)).toEqual(['NaN', 'Infinity', '-1.5', '0.1']);
      expect(column(rows, 'd' as never)).toEqual(['NaN', '-Infinity', '1e+308', '5e-324']);
    } finally {
      await client.end();
    }
  });
});

describe('every Delta type through DuckDB', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-types-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A query's rows as JSON, run by Python's duckdb on the file. */
  function pyDuck(file: string, sql: string): Record<string, unknown>[] {
    const script = [
      'import duckdb, json, sys',
      'c = duckdb.connect(sys.argv[1], read_only=True)',
      'c.execute("SET TimeZone = \'UTC\'")',
      'r = c.execute(sys.argv[2])',
      'names = [d[0] for d in r.description]',
      'print(json.dumps([dict(zip(names, row)) for row in r.fetchall()]))',
    ].join('\n');
    return JSON.parse(execFileSync('python3', ['-c', script, file, sql], { encoding: 'utf8' })) as Record<string, unknown>[];
  }

  it('creates native column types (decimals, both timestamps, STRUCT, LIST, MAP) and keeps every value exactly', async () => {
    const file = path.join(dir, 'types.duckdb');
    await drive(createDuckdbSink(duckdbSpec(file, { table: 'All "Types"' })), streamOf(allTypesTable(), ALL_TYPES_FIELDS, 3));
    const types = pyDuck(file, `SELECT column_name AS c, data_type AS t FROM duckdb_columns() WHERE table_name = 'All "Types"'`);
    expect(Object.fromEntries(types.map((r) => [r.c, r.t]))).toEqual({
      b: 'TINYINT',
      sh: 'SMALLINT',
      i: 'INTEGER',
      l: 'BIGINT',
      f: 'FLOAT',
      d: 'DOUBLE',
      dec38: 'DECIMAL(38,18)',
      dec10: 'DECIMAL(10,2)',
      s: 'VARCHAR',
      bin: 'BLOB',
      dt: 'DATE',
      ts: 'TIMESTAMP WITH TIME ZONE',
      ntz: 'TIMESTAMP',
      bool: 'BOOLEAN',
      st: 'STRUCT(a INTEGER, b VARCHAR)',
      arr: 'BIGINT[]',
      m: 'MAP(VARCHAR, INTEGER)',
    });
    const rows = pyDuck(
      file,
      `SELECT b::VARCHAR AS b, sh::VARCHAR AS sh, i::VARCHAR AS i, l::VARCHAR AS l, f::VARCHAR AS f, d::VARCHAR AS d,
              dec38::VARCHAR AS dec38, dec10::VARCHAR AS dec10, s, hex(bin) AS bin, strftime(dt, '%Y-%m-%d') AS dt,
              strftime(ts, '%Y-%m-%dT%H:%M:%S.%f') AS ts, strftime(ntz, '%Y-%m-%dT%H:%M:%S.%f') AS ntz, bool,
              to_json(st) AS st, to_json(list_transform(arr, x -> CASE WHEN abs(x) < 2**53 THEN x::JSON ELSE to_json(x::VARCHAR) END)) AS arr,
              to_json(m) AS m
         FROM "All ""Types""" ORDER BY rowid`,
    );
    for (const name of ['b', 'sh', 'i', 'l', 'dec38', 'dec10', 's', 'dt', 'ts', 'ntz', 'bool'] as const)
      expect(column(rows, name), name).toEqual(EXPECTED[name]);
    expect(column(rows, 'bin').map((b) => (b === null ? null : (b as string).toLowerCase()))).toEqual(EXPECTED.bin);
    expect(column(rows, 'f' as never)).toEqual(['nan', 'inf', '-1.5', '0.1']);
    expect(column(rows, 'd' as never)).toEqual(['nan', '-inf', '1e+308', '5e-324']);
    for (const name of ['st', 'arr', 'm'] as const)
      expect(
        column(rows, name).map((v) => (v === null ? null : JSON.parse(v as string))),
        name,
      ).toEqual(EXPECTED[name]);
  });
});
