import { describe, expect, it } from 'vitest';
import { API_METHODS } from '../../../shared/api.js';
import type { ApiMethod } from '../../../shared/api.js';
import { DeltaportError } from '../../../shared/errors.js';
import { isApiMethod, isTrustedSender, validateCall } from '../../../electron/app/ipc-validation.js';
import { failure } from '../../support/failure.js';

function rejects(method: ApiMethod, payload: unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    validateCall(method, payload);
  } catch (err) {
    thrown = err;
  }
  expect(thrown, `${method} ${JSON.stringify(payload)}`).toBeInstanceOf(DeltaportError);
  expect((thrown as DeltaportError).code).toBe('VALIDATION');
  expect((thrown as DeltaportError).message).toMatch(message);
}

const source = { tablePath: '/data/people' };
const sqlite = { kind: 'sqlite', path: '/out/people.db', table: 'people', mode: 'append' };

describe('isTrustedSender', () => {
  it('accepts the main frame of our window showing the app', () => {
    expect(isTrustedSender({ frameUrl: 'app://deltaport/index.html', isMainFrame: true, isOurWindow: true })).toBe(true);
  });

  it('refuses subframes, other windows, other origins and vanished frames', () => {
    const good = { frameUrl: 'app://deltaport/index.html', isMainFrame: true, isOurWindow: true };
    expect(isTrustedSender({ ...good, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ ...good, isOurWindow: false })).toBe(false);
    expect(isTrustedSender({ ...good, frameUrl: null })).toBe(false);
    for (const url of ['https://evil.example/', 'file:///tmp/x.html', 'app://other/index.html', 'http://127.0.0.1:5173/', 'about:blank']) {
      expect(isTrustedSender({ ...good, frameUrl: url })).toBe(false);
    }
  });
});

describe('validateCall', () => {
  it('knows exactly the API methods', () => {
    for (const m of API_METHODS) expect(isApiMethod(m)).toBe(true);
    expect(isApiMethod('constructor')).toBe(false);
    expect(isApiMethod('__proto__')).toBe(false);
    expect(isApiMethod('runShell')).toBe(false);
  });

  it('passes good payloads through, filling sink defaults', () => {
    expect(validateCall('openTable', { path: '/data/people', versionAsOf: 2 })).toEqual([{ path: '/data/people', versionAsOf: 2 }]);
    expect(validateCall('history', { path: '/data/people', limit: 10 })).toEqual([{ path: '/data/people', limit: 10 }]);
    expect(
      validateCall('preview', { source: { ...source, columnNames: ['a', 'b'], options: { parquetBatchSize: 10 } }, limit: 100 }),
    ).toEqual([{ source: { ...source, columnNames: ['a', 'b'], options: { parquetBatchSize: 10 } }, limit: 100 }]);
    const [req] = validateCall('startExport', { source, sink: sqlite });
    expect(req.sink).toEqual({ ...sqlite, execution: { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 }, exactlyOnce: false });
    expect(validateCall('planExport', { source, sink: { kind: 'csv', path: '/out/x.csv' } })).toEqual([
      { source, sink: { kind: 'csv', path: '/out/x.csv' } },
    ]);
    expect(
      validateCall('testConnection', {
        sink: { kind: 'postgres', connection: { url: 'postgres://u@h/db', port: 5432 }, table: 't' },
        profile: 'p',
      })[0].profile,
    ).toBe('p');
    expect(validateCall('startExport', { source, sink: { ...sqlite, mode: 'upsert', keyColumns: ['id'] } })[0].sink).toMatchObject({
      keyColumns: ['id'],
    });
    expect(validateCall('cancelJob', { id: 'job-1' })).toEqual([{ id: 'job-1' }]);
    expect(validateCall('retryJob', { id: 'job-1' })).toEqual([{ id: 'job-1' }]);
    expect(validateCall('retryJob', { id: 'job-1', choice: 'replace' })).toEqual([{ id: 'job-1', choice: 'replace' }]);
    expect(validateCall('saveProfile', { name: 'local', sink: sqlite })[0].name).toBe('local');
    expect(validateCall('deleteProfile', { name: 'local' })).toEqual([{ name: 'local' }]);
    for (const m of ['listJobs', 'recentTables', 'sampleTable', 'listProfiles', 'chooseTableFolder', 'chooseSqliteFile'] as const) {
      expect(validateCall(m, null)).toEqual([]);
      expect(validateCall(m, undefined)).toEqual([]);
    }
  });

  it('refuses bad table references', () => {
    rejects('openTable', null, /openTable: must be an object/);
    rejects('openTable', '/data/people', /must be an object/);
    rejects('history', { path: 'relative/table' }, /history.path: the table path must be an absolute path/);
    rejects('openTable', { path: '' }, /Type or paste the path/);
    rejects('openTable', { path: '/x\0y' }, /NUL/);
    rejects('openTable', { path: 'ftp://host/table' }, /local folders and in S3, Azure and Google Cloud Storage/);
    rejects('openTable', { path: 's3://B/table' }, /not a valid bucket name/);
    rejects('openTable', { path: '/' + 'x'.repeat(5000) }, /at most 4096/);
    rejects('openTable', { path: '/t', versionAsOf: -1 }, /openTable.versionAsOf: versionAsOf must be a non-negative integer, got -1/);
    rejects('openTable', { path: '/t', versionAsOf: 1.5 }, /versionAsOf must be a non-negative integer, got 1.5/);
    rejects('openTable', { path: '/t', versionAsOf: '3' }, /versionAsOf must be a non-negative integer, got '3'/);
    rejects(
      'openTable',
      { path: '/t', versionAsOf: 1, timestampAsOf: '2020-01-01' },
      /versionAsOf and timestampAsOf are mutually exclusive/,
    );
    rejects('openTable', { path: '/t', timestampAsOf: '2020-13-01' }, /timestampAsOf '2020-13-01' is not a valid UTC timestamp/);
    rejects('openTable', { path: '/t', timestampAsOf: 42 }, /openTable.timestampAsOf: timestampAsOf must be text/);
    rejects('openTable', { path: '/t', extra: 1 }, /unknown field "extra"/);
    rejects('resolveVersion', { path: 7 }, /resolveVersion.path: the table path must be text/);
    rejects('history', { path: '/t', limit: 0 }, /history.limit: limit must be a whole number from 1 to 1,000,000/);
  });

  it('refuses bad previews', () => {
    rejects('preview', { source, limit: 0 }, /preview.limit: limit must be a whole number from 1 to 100,000/);
    rejects('preview', { source, limit: 1e9 }, /preview.limit/);
    rejects('preview', { source }, /preview.limit: is missing/);
    rejects('preview', { source: { tablePath: 'x' }, limit: 5 }, /preview.source.tablePath: the table path must be an absolute path/);
    rejects('preview', { source: { ...source, columnNames: 'a,b' }, limit: 5 }, /columnNames: the column list must be a list of names/);
    rejects(
      'preview',
      { source: { ...source, columnNames: ['a', 3] }, limit: 5 },
      /preview.source.columnNames: column name 2 of 2 is not a string: 3/,
    );
    rejects('preview', { source: { ...source, columnNames: Array(10_001).fill('a') }, limit: 5 }, /at most 10000 entries/);
    rejects(
      'preview',
      { source: { ...source, options: { x: { nested: 1 } } }, limit: 5 },
      /options.x: an option value must be a string, a boolean or a finite number/,
    );
    rejects('preview', { source: { ...source, options: { x: Infinity } }, limit: 5 }, /options.x/);
    rejects('preview', { source: { ...source, options: [] }, limit: 5 }, /options: the options must be an object/);
  });

  it('refuses bad sinks', () => {
    const bad = (sink: unknown, message: RegExp) => rejects('startExport', { source, sink }, message);
    bad(undefined, /startExport.sink: the sink kind must be one of/);
    bad({ kind: 'oracle', path: '/x' }, /sink.kind: the sink kind must be one of sqlite, postgres, mysql, duckdb, parquet, csv, jsonl/);
    bad({ kind: 'csv', path: 'out.csv' }, /sink.path: give the full path of the output file/);
    bad({ kind: 'csv', path: '/o.csv', table: 't' }, /unknown field "table"/);
    bad({ ...sqlite, mode: 'merge' }, /sink.mode: unknown mode "merge" \(use append, overwrite, upsert, sql\)/);
    bad({ ...sqlite, keyColumns: 'id' }, /keyColumns: the key columns must be a list of names/);
    bad({ ...sqlite, sql: 'x'.repeat(100_001) }, /sink.sql: the statement must be at most 100000/);
    bad({ ...sqlite, execution: { batchSize: 0 } }, /execution.batchSize: batch size must be a whole number from 1 to 10,000,000/);
    bad({ ...sqlite, execution: { maxRetries: -1 } }, /execution.maxRetries/);
    bad({ ...sqlite, execution: { batchIntervalMs: 'soon' } }, /execution.batchIntervalMs: batch interval must be a whole number/);
    bad({ ...sqlite, exactlyOnce: 'yes' }, /exactlyOnce: exactlyOnce must be true or false/);
    bad({ kind: 'postgres', connection: 'postgres://x', table: 't' }, /sink.connection: must be an object/);
    bad(
      { kind: 'postgres', connection: { url: 'mysql://x' }, table: 't' },
      /connection.url: the connection URL must look like postgres:\/\//,
    );
    bad({ kind: 'postgres', connection: { port: 70000 }, table: 't' }, /connection.port: port must be a whole number from 1 to 65,535/);
    bad({ kind: 'postgres', connection: { ssl: 'true' }, table: 't' }, /connection.ssl: ssl must be true or false/);
    bad({ kind: 'postgres', connection: { evil: 1 }, table: 't' }, /unknown field "evil"/);
    rejects('startExport', { source, sink: sqlite, profile: '' }, /startExport.profile: the profile name must not be empty/);
    rejects('testConnection', { sink: { kind: 'postgres' } }, /testConnection.sink.connection: is missing/);
    rejects('saveProfile', { name: ' ', sink: sqlite }, /saveProfile.name: the profile name must not be empty/);
    rejects('saveProfile', { name: 'x'.repeat(201), sink: sqlite }, /at most 200/);
  });

  it("applies the specs' own rules after the shape, listing every problem", async () => {
    expect(
      await failure(
        Promise.resolve().then(() => validateCall('startExport', { source: { tablePath: 'x' }, sink: { ...sqlite, table: '' } })),
      ),
    ).toMatchObject({
      problems: [
        'startExport.source.tablePath: the table path must be an absolute path or a cloud URL (got "x")',
        'startExport.sink.table: name the target table',
      ],
    });
    rejects(
      'startExport',
      { source: { ...source, versionAsOf: 1, timestampAsOf: '2022-02-24' }, sink: sqlite },
      /startExport.source: versionAsOf and timestampAsOf are mutually exclusive/,
    );
    rejects('startExport', { source, sink: { ...sqlite, mode: 'upsert' } }, /startExport.sink: upsert needs at least one key column/);
    rejects(
      'planExport',
      { source, sink: { ...sqlite, table: '', mode: 'sql' } },
      /planExport.sink.table: name the target table; planExport.sink: mode sql needs a statement/,
    );
    rejects(
      'preview',
      { source: { ...source, timestampAsOf: 'yesterday' }, limit: 5 },
      /preview.source.timestampAsOf: timestampAsOf 'yesterday' is not a valid UTC timestamp/,
    );
    rejects('testConnection', { sink: { kind: 'postgres', connection: {}, table: 't' } }, /give a connection URL or a host/);
  });

  it('refuses bad job ids, names and arguments to no-argument methods', () => {
    rejects('cancelJob', { id: 5 }, /cancelJob.id: the job id must be text/);
    rejects('cancelJob', {}, /cancelJob.id: is missing/);
    rejects('retryJob', { id: 'job-1', choice: 'resume' }, /retryJob.choice: the choice must be append or replace/);
    rejects('deleteProfile', { name: null }, /deleteProfile.name: the profile name must be text/);
    for (const m of ['listJobs', 'recentTables', 'sampleTable', 'listProfiles', 'chooseTableFolder', 'chooseSqliteFile'] as const) {
      rejects(m, { path: '/etc' }, /: takes no argument/);
    }
  });
});
