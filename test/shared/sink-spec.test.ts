import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXECUTION,
  scrubUrl,
  sinkColumnProblems,
  validateSinkSpec,
  type SinkSpec,
  type SqlSinkSpec,
} from '../../shared/sink-spec.js';

const sqlite = (over: Partial<SqlSinkSpec> = {}): SinkSpec =>
  ({
    kind: 'sqlite',
    path: '/tmp/x.sqlite',
    table: 't',
    mode: 'append',
    execution: { ...DEFAULT_EXECUTION },
    exactlyOnce: false,
    ...over,
  }) as SinkSpec;
const postgres = (connection: object, over: Partial<SqlSinkSpec> = {}): SinkSpec =>
  ({
    kind: 'postgres',
    connection,
    table: 't',
    mode: 'append',
    execution: { ...DEFAULT_EXECUTION },
    exactlyOnce: false,
    ...over,
  }) as SinkSpec;

describe('validateSinkSpec', () => {
  it('accepts complete specs', () => {
    expect(validateSinkSpec(sqlite())).toEqual([]);
    expect(validateSinkSpec(postgres({ url: 'postgres://u:p@h:5432/db?sslmode=require' }))).toEqual([]);
    expect(validateSinkSpec(postgres({ host: 'h', port: 5433, database: 'd' }, { mode: 'upsert', keyColumns: ['a', 'b'] }))).toEqual([]);
    expect(validateSinkSpec({ kind: 'csv', path: 'out.csv' })).toEqual([]);
  });

  it('lists every problem at once', () => {
    expect(
      validateSinkSpec(
        sqlite({
          path: ' ',
          table: '',
          mode: 'upsert',
          keyColumns: ['a', 'a', ''],
          execution: { batchSize: 0, batchIntervalMs: -1, maxRetries: 1.5 },
        }),
      ),
    ).toEqual([
      'choose the SQLite file to write into',
      'name the target table',
      'batch size must be a whole number from 1 to 10,000,000',
      'batch interval must be a whole number from 0 to 86,400,000',
      'max retries must be a whole number from 0 to 100',
      'a key column name is empty',
      'a key column is named twice',
    ]);
    expect(validateSinkSpec(sqlite({ mode: 'upsert' }))).toEqual(['upsert needs at least one key column']);
    expect(validateSinkSpec(sqlite({ mode: 'sql' }))).toEqual(['mode sql needs a statement']);
    expect(validateSinkSpec(sqlite({ mode: 'sql', sql: "UPDATE t SET a = 'x WHERE id = :id" }))).toEqual([
      'the statement has an unterminated string',
    ]);
    expect(validateSinkSpec(sqlite({ mode: 'merge' as never }))).toEqual(['unknown mode "merge" (use append, overwrite, upsert, sql)']);
  });

  it('checks PostgreSQL connections and identifier length', () => {
    expect(validateSinkSpec(postgres({}))).toEqual(['give a connection URL or a host for PostgreSQL']);
    expect(validateSinkSpec(postgres({ url: 'mysql://h/db' }))).toEqual([
      'the connection URL must look like postgres://user:password@host:port/database',
    ]);
    expect(validateSinkSpec(postgres({ url: 'postgres://h/db?sslmode=maybe' }))).toEqual([
      'unknown sslmode "maybe" (use disable, allow, prefer, require, verify-ca, verify-full)',
    ]);
    expect(validateSinkSpec(postgres({ host: 'h', port: 70000, connectTimeoutMs: -5 }))).toEqual([
      'port must be a whole number from 1 to 65,535',
      'the connect timeout (ms) must be a whole number from 0 to 600,000',
    ]);
    expect(validateSinkSpec(postgres({ host: 'h' }, { table: 'é'.repeat(32) }))).toEqual([
      "the target table name is longer than PostgreSQL's 63 bytes",
    ]);
    expect(validateSinkSpec(sqlite({ table: 'é'.repeat(32) }))).toEqual([]);
  });

  it('takes 1 to 16 connections for PostgreSQL, and refuses them for any other sink in one line', () => {
    expect(validateSinkSpec(postgres({ host: 'h' }, { connections: 16 }))).toEqual([]);
    for (const connections of [0, -1, 17, 2.5, '2'])
      expect(validateSinkSpec(postgres({ host: 'h' }, { connections } as object))).toEqual([
        'the number of connections must be a whole number from 1 to 16',
      ]);
    expect(validateSinkSpec(sqlite({ connections: 2 } as object))).toEqual([
      'the number of connections is for PostgreSQL only (sqlite writes over one)',
    ]);
    expect(validateSinkSpec({ kind: 'csv', path: 'out.csv', connections: 2 })).toEqual(['has an unknown field "connections"']);
  });

  it('takes only full paths where the spec crosses to the host, and no field it does not know', () => {
    expect(validateSinkSpec({ kind: 'csv', path: 'out.csv' }, 'absolute')).toEqual([
      'give the full path of the output file, starting with /, or its s3://, gs:// or Azure URL',
    ]);
    expect(validateSinkSpec({ kind: 'csv', path: 's3://bucket/out.csv' }, 'absolute')).toEqual([]);
    expect(validateSinkSpec({ kind: 'sqlite', path: 's3://bucket/out.db', table: 't', mode: 'append' }, 'absolute')).toEqual([
      'give the full path of the SQLite file, starting with /',
    ]);
    expect(validateSinkSpec({ kind: 'csv', path: '/o.csv', table: 't' })).toEqual(['has an unknown field "table"']);
    expect(validateSinkSpec({ kind: 'xlsx', path: '/o.xlsx' })).toEqual([
      'the sink kind must be one of sqlite, postgres, mysql, duckdb, parquet, csv, jsonl (got "xlsx")',
    ]);
  });
});

describe('the CSV style', () => {
  const csv = (style: object) => validateSinkSpec({ kind: 'csv', path: '/o.csv', ...style });

  it('takes any one-character delimiter and quote that differ, and null text a reader can tell from data', () => {
    expect(csv({ delimiter: '\t', quote: "'", header: false, nullText: '\\N', lineEnding: 'crlf' })).toEqual([]);
    expect(csv({ delimiter: '👋', nullText: 'NULL' })).toEqual([]);
  });

  it('refuses what a reader could not take back, in one line each', () => {
    expect(csv({ delimiter: '', quote: '""' })).toEqual([
      'the CSV delimiter must be exactly one character',
      'the CSV quote must be exactly one character',
    ]);
    expect(csv({ delimiter: '\n', quote: '\r' })).toEqual([
      'the CSV delimiter cannot be a line break',
      'the CSV quote cannot be a line break',
    ]);
    expect(csv({ delimiter: ';', quote: ';' })).toEqual(['the CSV quote must differ from the delimiter']);
    expect(csv({ nullText: 'a,"b"\n' })).toEqual([
      'the CSV null text cannot contain the delimiter',
      'the CSV null text cannot contain the quote',
      'the CSV null text cannot contain a line break',
    ]);
    expect(csv({ delimiter: ';', nullText: 'x,y' })).toEqual([]);
    expect(csv({ header: 'yes', lineEnding: 'cr' })).toEqual([
      'the CSV header must be true or false',
      'unknown CSV line ending "cr" (use lf or crlf)',
    ]);
    expect(validateSinkSpec({ kind: 'jsonl', path: '/o.jsonl', delimiter: ';' })).toEqual(['has an unknown field "delimiter"']);
  });
});

describe('sinkColumnProblems', () => {
  it('names key columns and :parameters that are not exported', () => {
    expect(sinkColumnProblems(sqlite({ mode: 'upsert', keyColumns: ['id', 'ID'] }) as SqlSinkSpec, ['id', 'name'])).toEqual([
      'key column "ID" is not among the exported columns',
    ]);
    const sql = 'UPDATE t SET name = :name, x = :"odd name" WHERE id = :id';
    expect(sinkColumnProblems(sqlite({ mode: 'sql', sql }) as SqlSinkSpec, ['id', 'name'])).toEqual([
      'parameter :odd name is not an exported column',
    ]);
  });
});

describe('scrubUrl', () => {
  it('hides the password of any connection URL in a text', () => {
    expect(scrubUrl('failed: postgres://alice:s3cr%40t@db:5432/x and postgresql://bob:pw@h/y')).toBe(
      'failed: postgres://alice:***@db:5432/x and postgresql://bob:***@h/y',
    );
    expect(scrubUrl('postgres://alice@db/x')).toBe('postgres://alice@db/x');
    expect(scrubUrl('mysql://carol:pw@db:3306/x, mariadb://dan:pw2@h/y')).toBe('mysql://carol:***@db:3306/x, mariadb://dan:***@h/y');
  });

  it('takes mysql:// and mariadb:// URLs for MySQL, and refuses names longer than 64 characters', () => {
    const spec = (url: string, table = 't') => ({ kind: 'mysql', connection: { url }, table });
    expect(validateSinkSpec(spec('mysql://u:p@h:3306/db'))).toEqual([]);
    expect(validateSinkSpec(spec('mariadb://u:p@h/db'))).toEqual([]);
    expect(validateSinkSpec(spec('postgres://u:p@h/db'))).toEqual([
      'the connection URL must look like mysql://user:password@host:port/database',
    ]);
    expect(validateSinkSpec({ kind: 'mysql', connection: {}, table: 't' })).toEqual(['give a connection URL or a host for MySQL']);
    expect(validateSinkSpec(spec('mysql://h/db', 'é'.repeat(64)))).toEqual([]);
    expect(validateSinkSpec(spec('mysql://h/db', 'é'.repeat(65)))).toEqual(["the target table name is longer than MySQL's 64 characters"]);
  });
});
