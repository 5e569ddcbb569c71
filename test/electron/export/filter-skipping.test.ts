// A filtered export reports the files its filter skipped, in the job's progress and outcome and in the CLI's summary
// line. The expected figures are read off the table's log here: partition-type-primitives has sixteen one-row files;
// `category = 'A'` rules out by partition value every file of another category, and `id > 10` by statistics every
// file whose maxValues.id is at most 10.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent } from '../../../shared/api.js';
import type { FilterSkipping } from '../../../shared/table-info.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { tablePath } from '../../support/tables.js';
import { cli } from '../cli/run-cli.js';
import { duckdbRows } from '../delta/filter-oracle.js';
import { oracleSnapshot, type Json } from '../delta/log-oracle.js';

const TABLE = tablePath('partition-type-primitives');
const WHERE = "category = 'A' AND id > 10";

/** What the log says the filter can leave unread, and the rows DuckDB keeps. */
async function expected(): Promise<{ skipping: FilterSkipping; rows: number }> {
  const adds = [...(await oracleSnapshot(TABLE, 0)).adds.values()];
  const skipped = adds.filter((add: Json) => {
    const stats = JSON.parse(add.stats as string) as Json;
    return add.partitionValues.category !== 'A' || (stats.maxValues.id as number) <= 10;
  });
  const bytes = (list: Json[]) => list.reduce((n, add) => n + (add.size as number), 0);
  const { rows } = await duckdbRows(TABLE, 0, WHERE, ['id']);
  return {
    skipping: { filesTotal: adds.length, filesSkipped: skipped.length, bytesTotal: bytes(adds), bytesSkipped: bytes(skipped) },
    rows: rows.length,
  };
}

let dir: string;
let state: AppState;
let runner: JobRunner;
const events: JobEvent[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-skipping-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  runner = new JobRunner({ store: state });
  runner.onJobEvent((e) => events.push(e));
});

afterAll(async () => {
  await runner.cancelAll();
  state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a filtered export reports the files skipped', () => {
  it('in the job runner: every progress report while running, the final progress and the recorded outcome', async () => {
    const want = await expected();
    expect([want.skipping.filesTotal, want.skipping.filesSkipped, want.rows]).toEqual([16, 13, 3]);
    const job = runner.start({ source: { tablePath: TABLE, filter: WHERE }, sink: { kind: 'jsonl', path: path.join(dir, 'a.jsonl') } });
    const done = await runner.wait(job.id);
    expect(done.state).toBe('succeeded');
    expect(done.result).toMatchObject({ rows: want.rows, skipping: want.skipping });
    expect(done.progress).toMatchObject({ skipping: want.skipping, files: 3, filesTotal: 3, percent: 100 });
    const reports = events.filter((e) => e.job.id === job.id && e.job.state === 'running' && e.job.progress.rows > 0);
    expect(reports.length).toBeGreaterThan(0);
    for (const e of reports) expect(e.job.progress.skipping).toEqual(want.skipping);
    expect(state.jobHistory().find((j) => j.id === job.id)?.result?.skipping).toEqual(want.skipping);
  }, 60_000);

  it('an export without a filter reports no skipping', async () => {
    const job = runner.start({ source: { tablePath: TABLE }, sink: { kind: 'jsonl', path: path.join(dir, 'all.jsonl') } });
    const done = await runner.wait(job.id);
    expect(done.state).toBe('succeeded');
    expect([done.result?.skipping, done.progress.skipping]).toEqual([undefined, undefined]);
  }, 60_000);

  it("in the CLI's summary line", async () => {
    const want = await expected();
    const run = await cli('export', TABLE, '--where', WHERE, '--sink', `csv:${path.join(dir, 'a.csv')}`);
    expect(run.stderr).toBe('');
    const s = want.skipping;
    // Both sizes are a few KiB (sixteen files of about 830 bytes).
    const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    expect(run.stdout).toMatch(
      new RegExp(
        `^exported ${want.rows} rows in [0-9.]+ s \\([0-9]+ rows/s\\); filter skipped ${s.filesSkipped} of ${s.filesTotal} files ` +
          `\\(${kib(s.bytesSkipped)} of ${kib(s.bytesTotal)}\\) by partition values and statistics\\n$`,
      ),
    );
  }, 60_000);
});
