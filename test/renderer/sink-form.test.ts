// The sink form's translation into a SinkSpec: what it sends, and what it refuses to send.
import { describe, expect, it } from 'vitest';
import { emptyForm, fromSinkSpec, toSinkSpec } from '../../renderer/src/sink-form.js';
import type { SinkForm } from '../../renderer/src/sink-form.js';

function form(changes: Partial<SinkForm>): SinkForm {
  return { ...emptyForm('people'), ...changes };
}

describe('toSinkSpec', () => {
  it('builds a SQLite spec with the defaults of the execution options', () => {
    const { spec, problems } = toSinkSpec(form({ sqlitePath: '/tmp/out.db' }));
    expect(problems).toEqual([]);
    expect(spec).toEqual({
      kind: 'sqlite',
      path: '/tmp/out.db',
      table: 'people',
      mode: 'append',
      execution: { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 },
      exactlyOnce: false,
    });
  });

  it('sends key columns only for upsert and SQL only for the sql mode', () => {
    const upsert = toSinkSpec(form({ sqlitePath: '/tmp/out.db', mode: 'upsert', keyColumns: ' id , region ,', sql: 'x' }));
    expect(upsert.spec).toMatchObject({ mode: 'upsert', keyColumns: ['id', 'region'] });
    expect(upsert.spec).not.toHaveProperty('sql');
    const sql = toSinkSpec(form({ sqlitePath: '/tmp/out.db', mode: 'sql', sql: 'INSERT INTO t VALUES (:id)', keyColumns: 'id' }));
    expect(sql.spec).toMatchObject({ mode: 'sql', sql: 'INSERT INTO t VALUES (:id)' });
    expect(sql.spec).not.toHaveProperty('keyColumns');
  });

  it('names every problem and sends nothing while there is one', () => {
    const { spec, problems } = toSinkSpec(form({ batchSize: '0', batchIntervalMs: '-1', maxRetries: '2.5', table: ' ', mode: 'upsert' }));
    expect(spec).toBeNull();
    expect(problems).toEqual([
      'Choose the SQLite file to write into.',
      'Name the target table.',
      'Batch size must be a whole number from 1 to 10,000,000.',
      'Batch interval must be a whole number from 0 to 86,400,000.',
      'Max retries must be a whole number from 0 to 100.',
      'Upsert needs at least one key column.',
    ]);
  });

  it("refuses values past what the host takes, in the field's own words", () => {
    const { spec, problems } = toSinkSpec(form({ sqlitePath: '/tmp/out.db', batchSize: '20000000', maxRetries: '101' }));
    expect(spec).toBeNull();
    expect(problems).toEqual([
      'Batch size must be a whole number from 1 to 10,000,000.',
      'Max retries must be a whole number from 0 to 100.',
    ]);
    expect(toSinkSpec(form({ kind: 'postgres', host: 'h', port: '70000' })).problems).toEqual([
      'Port must be a whole number from 1 to 65,535.',
    ]);
  });

  it('gives PostgreSQL the URL and only the parts that were filled in', () => {
    const { spec } = toSinkSpec(form({ kind: 'postgres', url: 'postgres://u@h/db', port: '5433', password: 'pw' }));
    expect(spec).toMatchObject({ kind: 'postgres', connection: { url: 'postgres://u@h/db', port: 5433, password: 'pw' } });
    expect(toSinkSpec(form({ kind: 'postgres' })).problems).toEqual(['Give a connection URL or a host for PostgreSQL.']);
  });

  it('gives PostgreSQL the number of connections where it is not the default, and refuses one out of range', () => {
    expect(toSinkSpec(form({ kind: 'postgres', host: 'h' })).spec).not.toHaveProperty('connections');
    const three = toSinkSpec(form({ kind: 'postgres', host: 'h', connections: '3' })).spec!;
    expect(three).toMatchObject({ kind: 'postgres', connections: 3 });
    expect(fromSinkSpec(three, form({})).connections).toBe('3');
    for (const connections of ['0', '17', '1.5', ''])
      expect(toSinkSpec(form({ kind: 'postgres', host: 'h', connections })).problems).toEqual([
        'The number of connections must be a whole number from 1 to 16.',
      ]);
    // Only PostgreSQL's form sends it.
    expect(toSinkSpec(form({ kind: 'mysql', host: 'h', connections: '3' })).spec).not.toHaveProperty('connections');
  });

  it('gives MySQL the URL and parts the same way, and loads its spec back into the same form', () => {
    const original = form({ kind: 'mysql', url: 'mysql://u@h:3306/db', user: 'me', password: 'pw', table: 'facts', mode: 'overwrite' });
    const { spec } = toSinkSpec(original);
    expect(spec).toMatchObject({
      kind: 'mysql',
      connection: { url: 'mysql://u@h:3306/db', user: 'me', password: 'pw' },
      mode: 'overwrite',
    });
    expect(fromSinkSpec(spec!, emptyForm('other'))).toEqual(original);
    expect(toSinkSpec(form({ kind: 'mysql' })).problems).toEqual(['Give a connection URL or a host for MySQL.']);
    expect(toSinkSpec(form({ kind: 'mysql', url: 'postgres://h/db' })).problems).toEqual([
      'The connection URL must look like mysql://user:password@host:port/database.',
    ]);
  });

  it('builds file sinks from the output path alone', () => {
    expect(toSinkSpec(form({ kind: 'csv', filePath: ' /tmp/out.csv ', batchSize: 'nonsense' })).spec).toEqual({
      kind: 'csv',
      path: '/tmp/out.csv',
    });
    expect(toSinkSpec(form({ kind: 'parquet' })).problems).toEqual(['Choose the output file to write.']);
  });
});

describe('fromSinkSpec', () => {
  it('loads a saved spec back into the same form', () => {
    const original = form({
      kind: 'postgres',
      url: 'postgres://u@h/db',
      host: 'db.internal',
      ssl: true,
      table: 'facts',
      mode: 'upsert',
      keyColumns: 'id, day',
      batchSize: '100',
      batchIntervalMs: '250',
      maxRetries: '5',
      exactlyOnce: true,
    });
    const { spec } = toSinkSpec(original);
    expect(fromSinkSpec(spec!, emptyForm('other'))).toEqual(original);
  });

  it('builds a DuckDB spec from its file, refuses Custom SQL for it, and loads a saved one back', () => {
    const original = form({ kind: 'duckdb', duckdbPath: '/tmp/local.duckdb', mode: 'upsert', keyColumns: 'id', exactlyOnce: true });
    const { spec, problems } = toSinkSpec(original);
    expect(problems).toEqual([]);
    expect(spec).toMatchObject({ kind: 'duckdb', path: '/tmp/local.duckdb', table: 'people', mode: 'upsert', keyColumns: ['id'] });
    expect(fromSinkSpec(spec!, emptyForm('other'))).toEqual(original);
    expect(toSinkSpec(form({ kind: 'duckdb', duckdbPath: 'local.duckdb' })).problems[0]).toMatch(/^Give the full path of the DuckDB file/);
    expect(toSinkSpec(form({ kind: 'duckdb', duckdbPath: '/tmp/x.duckdb', mode: 'sql', sql: 'SELECT :id' })).problems).toEqual([
      'Mode sql is not offered for DuckDB (use append, overwrite or upsert).',
    ]);
  });

  it('loads a CSV style back, a tab as \\t, and leaves options at their defaults out of the spec', () => {
    const original = form({ kind: 'csv', filePath: '/tmp/x.csv', csvDelimiter: '\\t', csvHeader: false, csvLineEnding: 'crlf' });
    const { spec } = toSinkSpec(original);
    expect(spec).toEqual({ kind: 'csv', path: '/tmp/x.csv', delimiter: '\t', header: false, lineEnding: 'crlf' });
    expect(fromSinkSpec(spec!, emptyForm('other'))).toEqual({ ...original, table: 'other' });
  });

  it('keeps the current target table when the profile has none', () => {
    expect(fromSinkSpec({ kind: 'jsonl', path: '/tmp/x.jsonl' }, emptyForm('events'))).toMatchObject({
      kind: 'jsonl',
      filePath: '/tmp/x.jsonl',
      table: 'events',
    });
  });
});
