// An export of a table's changes (a diff's rows, a change feed's) as the hosts take it: the boundary's schema refuses
// a bad range, pairBy where it does not apply and exactly-once, each in one line; the check before a job is queued
// refuses what needs the table (an unknown key column, a range the feed does not cover) without queueing anything;
// a good request becomes a job titled by its range.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeltaportApi } from '../../../shared/api.js';
import { DeltaportError } from '../../../shared/errors.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { expectedFeed, expectedNetDiff, feedFileCount } from '../delta/change-oracle.js';
import { duckCells } from '../../support/delta-oracle-rows.js';
import { readCommit } from '../../support/delta-oracle.js';
import { createDatabase, dropDatabase } from '../../support/postgres.js';
import { tablePath } from '../../support/tables.js';
import { appService } from '../../support/app-service.js';

const CDF = tablePath('cdf-table');
const sqlite = (file: string, extra: Record<string, unknown> = {}) => ({ kind: 'sqlite', path: file, table: 'cdf_table_diff', ...extra });

function refusal(payload: unknown): string {
  try {
    validateCall('startExport', payload);
  } catch (err) {
    expect(err).toBeInstanceOf(DeltaportError);
    expect((err as DeltaportError).code).toBe('VALIDATION');
    return (err as DeltaportError).message;
  }
  throw new Error(`accepted ${JSON.stringify(payload)}`);
}

let dir: string;
let state: AppState;
let jobs: JobRunner;
let api: DeltaportApi;
let dbUrl: string;

beforeAll(async () => {
  dbUrl = await createDatabase(inject('pgUrl'), 'change_export');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-change-export-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  ({ api, jobs } = appService(state, { sampleTable: async () => path.join(dir, 'sample'), sqlTempDirectory: path.join(dir, 'sql-temp') }));
});

afterAll(async () => {
  await jobs.cancelAll();
  state.close();
  await dropDatabase(dbUrl);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the boundary', () => {
  it('takes a diff with key columns and a change feed instead of a snapshot', () => {
    const diff = { rows: 'diff', tablePath: CDF, from: 1, to: 3, pairBy: ['id'] };
    expect(validateCall('startExport', { source: diff, sink: { kind: 'csv', path: '/out/d.csv' } })).toEqual([
      { source: diff, sink: { kind: 'csv', path: '/out/d.csv' } },
    ]);
    const feed = { rows: 'changes', tablePath: CDF, from: 0, to: 3 };
    expect(validateCall('planExport', { source: feed, sink: { kind: 'jsonl', path: '/out/f.jsonl' } })[0].source).toEqual(feed);
  });

  it('refuses a bad range in one line naming it', () => {
    const sink = sqlite('/out/d.db');
    expect(refusal({ source: { rows: 'diff', tablePath: CDF, from: 3, to: 1 }, sink })).toBe(
      'startExport.source: from (3) is after to (1): give the older version first',
    );
    expect(refusal({ source: { rows: 'changes', tablePath: CDF, from: -1, to: 2 }, sink })).toBe(
      'startExport.source.from: from must be a non-negative integer, got -1',
    );
    expect(refusal({ source: { rows: 'changes', tablePath: CDF, from: 0, to: 1.5 }, sink })).toBe(
      'startExport.source.to: to must be a non-negative integer, got 1.5',
    );
    expect(refusal({ source: { rows: 'changes', tablePath: CDF, from: 0 }, sink })).toBe('startExport.source.to: is missing');
    expect(refusal({ source: { rows: 'history', tablePath: CDF, from: 0, to: 1 }, sink })).toBe(
      'startExport.source.rows: the rows must be "diff" or "changes"',
    );
  });

  it('refuses pairBy on a change feed, empty or repeated', () => {
    const sink = sqlite('/out/d.db');
    expect(refusal({ source: { rows: 'changes', tablePath: CDF, from: 0, to: 1, pairBy: ['id'] }, sink })).toBe(
      'startExport.source: pairBy applies to a diff only: a change feed pairs its updates itself',
    );
    expect(refusal({ source: { rows: 'diff', tablePath: CDF, from: 0, to: 1, pairBy: [] }, sink })).toBe(
      'startExport.source: pairBy is empty: name a key column or leave it out',
    );
    expect(refusal({ source: { rows: 'diff', tablePath: CDF, from: 0, to: 1, pairBy: ['id', 'id'] }, sink })).toBe(
      "startExport.source: pairBy: column 'id' is named twice",
    );
  });

  it('refuses exactly-once of changes up front, for the plan too', () => {
    const source = { rows: 'diff', tablePath: CDF, from: 1, to: 3 };
    const message = 'startExport: changes cannot be exported exactly once: they have no position to resume from';
    expect(refusal({ source, sink: sqlite('/out/d.db', { exactlyOnce: true }) })).toBe(message);
    expect(() => validateCall('planExport', { source, sink: sqlite('/out/d.db', { exactlyOnce: true }) })).toThrow(
      /^planExport: changes cannot be exported exactly once/,
    );
    // A snapshot may still be exported exactly once.
    expect(() =>
      validateCall('startExport', { source: { tablePath: CDF }, sink: sqlite('/out/d.db', { exactlyOnce: true }) }),
    ).not.toThrow();
  });

  it('keeps the Spark hand-off to snapshots', () => {
    expect(() =>
      validateCall('exportSparkJob', { source: { rows: 'diff', tablePath: CDF, from: 0, to: 1 }, sink: sqlite('/out/d.db') }),
    ).toThrow(/exportSparkJob\.source: has an unknown field "rows"/);
  });
});

describe('the check before a job is queued', () => {
  const start = async (source: unknown, file: string) => {
    const [req] = validateCall('startExport', { source, sink: sqlite(path.join(dir, file)) });
    return api.startExport(req);
  };

  it('refuses a key column the newer version does not have, queueing nothing', async () => {
    const result = await start({ rows: 'diff', tablePath: CDF, from: 1, to: 3, pairBy: ['nope'] }, 'nope.db');
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION', message: "pairBy: no column 'nope' in version 3" } });
    expect(jobs.list()).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'nope.db'))).toBe(false);
  });

  it('refuses a version the log does not have', async () => {
    const result = await start({ rows: 'diff', tablePath: CDF, from: 1, to: 99 }, 'late.db');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).not.toContain('\n');
    expect(jobs.list()).toEqual([]);
  });

  it('refuses a change feed of a table without one, and of a range that starts before the feed was turned on', async () => {
    const plain = await start({ rows: 'changes', tablePath: tablePath('simple_table'), from: 0, to: 2 }, 'plain.db');
    expect(plain).toMatchObject({
      ok: false,
      error: { message: 'the table does not record a change data feed (delta.enableChangeDataFeed is not true)' },
    });
    // simple_table (v0..v4, no feed) with a v5 that turns the feed on, as ALTER TABLE ... SET TBLPROPERTIES writes it.
    const root = path.join(dir, 'feed-later');
    fs.cpSync(tablePath('simple_table'), root, { recursive: true });
    const metaData = readCommit(root, 0).find((a) => a.metaData)!.metaData;
    const v5 = [
      { commitInfo: { timestamp: Date.now(), operation: 'SET TBLPROPERTIES', operationParameters: {} } },
      { metaData: { ...metaData, configuration: { 'delta.enableChangeDataFeed': 'true' } } },
    ];
    fs.writeFileSync(path.join(root, '_delta_log', '00000000000000000005.json'), v5.map((a) => JSON.stringify(a)).join('\n') + '\n');
    const later = await start({ rows: 'changes', tablePath: root, from: 3, to: 5 }, 'later.db');
    expect(later).toMatchObject({
      ok: false,
      error: {
        message: 'the change data feed starts at version 5 (delta.enableChangeDataFeed was turned on then): start the range at 5 or later',
      },
    });
    expect(jobs.list()).toEqual([]);
  });

  it('queues a good diff as a job titled by its range, which runs to the end', async () => {
    const file = path.join(dir, 'diff.db');
    const result = await start({ rows: 'diff', tablePath: CDF, from: 1, to: 3, pairBy: ['id'] }, 'diff.db');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.title).toBe(`cdf-table v1→v3 diff -> sqlite:${file} (cdf_table_diff)`);
    const done = await jobs.wait(result.value.id);
    expect(done.state).toBe('succeeded');
    expect(done.result!.rows).toBeGreaterThan(0);
    expect(done.progress.percent).toBe(100);
  });
});

describe('changes into the sinks', () => {
  async function exported(source: unknown, sink: unknown) {
    const [req] = validateCall('startExport', { source, sink });
    const result = await api.startExport(req);
    if (!result.ok) throw new Error(result.error.message);
    const done = await jobs.wait(result.value.id);
    expect(done.state, done.error?.message).toBe('succeeded');
    return done;
  }

  it("writes a change feed's rows to Parquet as the table's change files and log say", async () => {
    const file = path.join(dir, 'feed.parquet');
    const done = await exported({ rows: 'changes', tablePath: CDF, from: 0, to: 3 }, { kind: 'parquet', path: file });
    const want = await expectedFeed(CDF, 0, 3);
    expect(done.result!.rows).toBe(want.rows.length);
    // Progress is of the files the commits name: v0's adds, then the _change_data files of v1 to v3.
    const named = [0, 1, 2, 3].flatMap((version) => {
      const actions = readCommit(CDF, version);
      const cdc = actions.filter((a) => a.cdc).map((a) => a.cdc);
      return cdc.length > 0 ? cdc : actions.filter((a) => a.add).map((a) => a.add);
    });
    expect([done.progress.filesTotal, done.progress.bytesTotal]).toEqual([named.length, named.reduce((n, f) => n + f.size, 0)]);
    const got = await duckCells(`SELECT * FROM read_parquet('${file}')`, ['id', 'name', 'birthday', '_change_type', '_commit_version']);
    expect(got.sort()).toEqual(want.rows);
  });

  it("writes a diff's rows to PostgreSQL as DuckDB's difference of the two snapshots", async () => {
    const sink = { kind: 'postgres', connection: { url: dbUrl }, table: 'cdf_diff', mode: 'overwrite' };
    const done = await exported({ rows: 'diff', tablePath: CDF, from: 0, to: 3 }, sink);
    expect(done.title).toBe(`cdf-table v0→v3 diff -> postgres:${new URL(dbUrl).host} (cdf_diff)`);
    const want = await expectedNetDiff(CDF, 0, 3, ['id', 'name', 'birthday']);
    // The table records a change feed over the range: the diff reads (and its progress counts) the feed's files.
    expect(done.progress.filesTotal).toBe(feedFileCount(CDF, 0, 3));
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ row: string }>(`SELECT concat_ws('|', id, name, birthday::text, _change) AS row FROM cdf_diff`);
      expect(rows.map((r) => r.row).sort()).toEqual(want);
    } finally {
      await client.end();
    }
  });
});
