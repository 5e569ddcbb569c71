import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeltaportApi } from '../../../shared/api.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { createApiService } from '../../../electron/app/api-service.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import { openSource } from '../../../electron/delta/source.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { commitFile } from '../../support/delta-oracle.js';
import { createDatabase, dropDatabase } from '../../support/postgres.js';
import { tablePath } from '../../support/tables.js';
import { resultValue, xorEncryptor } from '../../support/app-state-helpers.js';
import { appService } from '../../support/app-service.js';
import { StorageConnections } from '../../../electron/app/storage-connections.js';
import { openLocal } from '../../support/task-tables.js';

let dir: string;
let state: AppState;
let jobs: JobRunner;
let api: DeltaportApi;
let dbUrl: string;
let password: string;
let urlWithoutPassword: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-api-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: xorEncryptor });
  ({ api, jobs } = appService(state, { sampleTable: async () => path.join(dir, 'sample'), sqlTempDirectory: path.join(dir, 'sql-temp') }));
  dbUrl = await createDatabase(inject('pgUrl'), 'api_service');
  const parsed = new URL(dbUrl);
  password = decodeURIComponent(parsed.password);
  parsed.password = '';
  urlWithoutPassword = parsed.toString();
});

afterAll(async () => {
  await jobs.cancelAll();
  state.close();
  await dropDatabase(dbUrl);
  fs.rmSync(dir, { recursive: true, force: true });
});

function pgSink(url: string): SinkSpec {
  return {
    kind: 'postgres',
    connection: { url },
    table: 'people',
    mode: 'append',
    execution: { batchSize: 3, batchIntervalMs: 0, maxRetries: 1 },
    exactlyOnce: false,
  };
}

describe('API service', () => {
  it('opens tables at a version, remembers them, and explains a bad timestamp', async () => {
    const table = tablePath('simple_table');
    const latest = resultValue(await api.openTable({ path: table }));
    const first = resultValue(await api.openTable({ path: table, versionAsOf: 0 }));
    expect(first.version).toBe(0);
    expect(latest.version).toBe(latest.versionRange.latest);
    expect(resultValue(await api.recentTables()).map((r) => r.path)).toEqual([table]);
    const bad = await api.resolveVersion({ path: table, timestampAsOf: 'last tuesday' });
    expect(!bad.ok && bad.error).toEqual({
      code: 'VALIDATION',
      message: expect.stringMatching(/"last tuesday" is not a timestamp; use one of: 2022-02-24, /),
    });
    const notDelta = await api.openTable({ path: dir });
    expect(!notDelta.ok && notDelta.error.code).toMatch(/NOT_A_DELTA_TABLE|TABLE_NOT_FOUND/);
  });

  it("uses a saved profile's password for testConnection and exports, without ever storing it in clear", async () => {
    const saved = resultValue(await api.saveProfile({ name: 'local pg', sink: pgSink(dbUrl) }));
    expect(saved.hasPassword).toBe(true);

    const without = await api.testConnection({ sink: pgSink(urlWithoutPassword) });
    expect(!without.ok && without.error.code).toBe('SINK_AUTH');
    const report = resultValue(await api.testConnection({ sink: pgSink(urlWithoutPassword), profile: 'local pg' }));
    expect(report.serverVersion).toMatch(/PostgreSQL \d+/);

    const job = resultValue(
      await api.startExport({
        source: { tablePath: tablePath('delta-0.8.0-partitioned') },
        sink: pgSink(urlWithoutPassword),
        profile: 'local pg',
      }),
    );
    expect(JSON.stringify(job)).not.toContain(password);
    const done = await jobs.wait(job.id);
    expect(done.error).toBeNull();
    expect(done.state).toBe('succeeded');

    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM people');
    await client.end();
    // The table's only commit wrote 7 rows (commitInfo.operationMetrics.numOutputRows).
    expect(Number(rows[0]!.n)).toBe(7);

    expect(JSON.stringify(resultValue(await api.listJobs()))).not.toContain(password);
    state.close();
    expect(fs.readFileSync(path.join(dir, 'state.db')).includes(Buffer.from(password))).toBe(false);
    state = AppState.open(path.join(dir, 'state.db'), { encryptor: xorEncryptor });
    ({ api, jobs } = appService(state, {
      sampleTable: async () => path.join(dir, 'sample'),
      sqlTempDirectory: path.join(dir, 'sql-temp'),
    }));
    expect(resultValue(await api.listProfiles()).map((p) => p.name)).toEqual(['local pg']);
  });

  it('opens a table typed as a relative path, with ~, in quotes or as a file:// URI, and answers its resolved path', async () => {
    const table = tablePath('simple_table');
    const typed = [path.relative(process.cwd(), table), `"${table}"`, pathToFileURL(table).href];
    if (table.startsWith(os.homedir() + path.sep)) typed.push(`~${table.slice(os.homedir().length)}`);
    for (const location of typed) {
      const [ref] = validateCall('openTable', { path: location });
      expect(resultValue(await api.openTable(ref)).path).toBe(table);
    }
  });

  it('answers the latest version from the log listing, new commits included', async () => {
    const copy = path.join(dir, 'growing');
    fs.cpSync(tablePath('simple_table'), copy, { recursive: true });
    const before = resultValue(await api.latestVersion({ path: copy })).latest;
    fs.copyFileSync(commitFile(copy, before), commitFile(copy, before + 1));
    expect(resultValue(await api.latestVersion({ path: copy })).latest).toBe(before + 1);
  });

  it("says where a job's target is, never with a password", async () => {
    const target = path.join(dir, 'reveal.csv');
    const job = resultValue(
      await api.startExport({ source: { tablePath: tablePath('simple_table') }, sink: { kind: 'csv', path: target } }),
    );
    await jobs.wait(job.id);
    expect(resultValue(await api.revealTarget({ id: job.id }))).toEqual({ shown: false, location: target });
    const pgJob = resultValue(await api.listJobs()).find((j) => j.request.sink.kind === 'postgres')!;
    const where = resultValue(await api.revealTarget({ id: pgJob.id }));
    expect(where.location).toMatch(/^postgres:\/\/.*, table people$/);
    expect(where.location).not.toContain(password);
    const unknown = await api.revealTarget({ id: 'nope' });
    expect(!unknown.ok && unknown.error.code).toBe('NOT_FOUND');
  });

  it('answers plain values for the rest', async () => {
    expect(resultValue(await api.chooseTableFolder())).toBeNull();
    expect(resultValue(await api.chooseSqliteFile())).toBeNull();
    expect(resultValue(await api.sampleTable())).toEqual({ path: path.join(dir, 'sample') });
    const missing = await api.deleteProfile({ name: 'nope' });
    expect(!missing.ok && missing.error.code).toBe('NOT_FOUND');
    const notSql = await api.testConnection({ sink: { kind: 'csv', path: '/tmp/x.csv' } });
    expect(!notSql.ok && notSql.error.code).toBe('VALIDATION');
    const unknownJob = await api.cancelJob({ id: 'nope' });
    expect(!unknownJob.ok && unknownJob.error.code).toBe('NOT_FOUND');
  });

  it('plans an export in a worker: SQL DDL for SQLite, the file for file sinks', async () => {
    const source = { tablePath: tablePath('delta-0.8.0-partitioned') };
    const sqlitePlan = resultValue(
      await api.planExport({
        source,
        sink: {
          kind: 'sqlite',
          path: path.join(dir, 'plan.db'),
          table: 'p',
          mode: 'append',
          execution: { batchSize: 10, batchIntervalMs: 0, maxRetries: 0 },
          exactlyOnce: false,
        },
      }),
    );
    expect(sqlitePlan.sink).toBe('sqlite');
    expect(sqlitePlan.ddl.join('\n')).toMatch(/CREATE TABLE/i);
    expect(sqlitePlan.targetExists).toBe(false);
    const filePlan = resultValue(await api.planExport({ source, sink: { kind: 'parquet', path: path.join(dir, 'out.parquet') } }));
    expect(filePlan).toMatchObject({
      sink: 'parquet',
      target: path.join(dir, 'out.parquet'),
      ddl: [],
      targetExists: false,
      incompatibility: null,
    });
  });

  it('reads tables in the worker and keeps their parsed log there: after an open, nothing reads the log again', async () => {
    const copy = path.join(dir, 'cached_table');
    fs.cpSync(tablePath('simple_table'), copy, { recursive: true });
    const opened: string[] = [];
    const connections = new StorageConnections(state);
    const service = createApiService({
      state,
      jobs,
      connections,
      sampleTable: async () => copy,
      onTableOpened: (p) => opened.push(p),
      sqlTempDirectory: path.join(dir, 'sql-temp'),
    });
    const info = resultValue(await service.openTable({ path: copy }));
    expect(opened).toEqual([info.path]);

    // Every commit file's bytes become garbage, with its size and times kept: the folder lists as before, and
    // only a reader that parses the log again can notice.
    const log = path.join(copy, '_delta_log');
    for (const name of fs.readdirSync(log).filter((n) => n.endsWith('.json'))) {
      const file = path.join(log, name);
      const { size, atime, mtime } = fs.statSync(file);
      fs.writeFileSync(file, Buffer.alloc(size, '#'));
      fs.utimesSync(file, atime, mtime);
    }
    await expect(openSource({ tablePath: copy }, openLocal)).rejects.toThrow();

    const preview = resultValue(await service.preview({ source: { tablePath: copy }, limit: 100 }));
    const fromIntact = resultValue(await service.preview({ source: { tablePath: tablePath('simple_table') }, limit: 100 }));
    expect(preview.version).toBe(info.version);
    expect(preview.rows).toEqual(fromIntact.rows);
    expect(
      resultValue(await service.planExport({ source: { tablePath: copy }, sink: { kind: 'csv', path: path.join(dir, 'c.csv') } })).target,
    ).toBe(path.join(dir, 'c.csv'));
    const history = resultValue(await service.history({ path: copy }));
    expect(history.map((c) => c.version)).toEqual([...Array(info.version + 1).keys()].reverse());
    const first = history.at(-1)!;
    expect(resultValue(await service.resolveVersion({ path: copy, versionAsOf: 0 }))).toEqual({ version: 0, timestamp: first.timestamp });
    const at = new Date(first.timestamp).toISOString();
    expect(resultValue(await service.resolveVersion({ path: copy, timestampAsOf: at })).version).toBe(0);
    expect(opened).toEqual([info.path]);
  });
  it("retries a failed PostgreSQL export in a later session with the saved profile's password", async () => {
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      // The target refuses a fifth row, and with it the export's one transaction (its rows are few).
      await client.query('CREATE TABLE people_retry (value text, year text, month text, day text)');
      await client.query(
        `CREATE FUNCTION refuse_fifth() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF (SELECT count(*) FROM people_retry) >= 4 THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`,
      );
      await client.query('CREATE TRIGGER refuse BEFORE INSERT ON people_retry FOR EACH ROW EXECUTE FUNCTION refuse_fifth()');
      const table = tablePath('delta-0.8.0-partitioned');
      const sink = { ...pgSink(urlWithoutPassword), table: 'people_retry', execution: { batchSize: 3, batchIntervalMs: 0, maxRetries: 0 } };
      const job = resultValue(await api.startExport({ source: { tablePath: table }, sink, profile: 'local pg' }));
      // The snapshot is pinned where the job starts, so that its Retry resumes inside the same one.
      expect(job.request.source).toEqual({ tablePath: table, versionAsOf: 0 });
      const failed = await jobs.wait(job.id);
      expect(failed.state).toBe('failed');
      expect(failed.progress.committedRows).toBe(0);
      await client.query('DROP TRIGGER refuse ON people_retry');

      const { api: laterApi, jobs: later } = appService(state, {
        sampleTable: async () => path.join(dir, 'sample'),
        sqlTempDirectory: path.join(dir, 'sql-temp'),
      });
      const answer = resultValue(await laterApi.retryJob({ id: job.id }));
      if (!('started' in answer)) throw new Error(`Retry asked: ${answer.ask.reason}`);
      const done = await later.wait(answer.started.id);
      expect(done.error).toBeNull();
      expect(done.result?.rows).toBe(7);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM people_retry');
      expect(Number(rows[0]!.n)).toBe(7);
    } finally {
      await client.end();
    }
  });
});
