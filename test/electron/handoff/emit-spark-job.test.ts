// The Spark hand-off without Spark: what the CLI and the API emit (pinned version, target, credentials left out),
// and how they refuse what a Spark job cannot do. Running the jobs is spark-job.test.ts.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { DEFAULT_EXECUTION } from '../../../shared/sink-spec.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import { sparkJobFor } from '../../../electron/handoff/emit-spark-job.js';
import { AppState } from '../../../electron/state/app-state.js';
import { cli } from '../cli/run-cli.js';
import { commitFile } from '../../support/delta-oracle.js';
import { tablePath } from '../../support/tables.js';
import { appService } from '../../support/app-service.js';
import { openLocal } from '../../support/task-tables.js';

let dir = '';
let table = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'deltaport-emit-'));
  // A copy whose commits are a minute apart, so a timestamp picks one version (commit times are file times here).
  table = path.join(dir, 'simple_table');
  cpSync(tablePath('simple_table'), table, { recursive: true });
  for (let v = 0; v <= 4; v++) {
    const at = new Date(Date.UTC(2024, 0, 1, 12, v));
    utimesSync(commitFile(table, v), at, at);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function constant(script: string, name: string): string {
  const line = script.split('\n').find((l) => l.startsWith(`${name} = `));
  if (!line) throw new Error(`no ${name} in the script`);
  return line.slice(name.length + 3);
}

describe('deltaport export --emit spark', () => {
  it('prints the job with the version a timestamp resolves to written in', async () => {
    const run = await cli('export', table, '--timestamp', '2024-01-01 12:02:30', '--sink', `sqlite:${dir}/t.db`, '--emit', 'spark');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(constant(run.stdout, 'VERSION')).toBe('2');
    expect(run.stdout).toContain('version 2 (resolved from timestampAsOf "2024-01-01 12:02:30")');
    expect(constant(run.stdout, 'TABLE_PATH')).toBe(JSON.stringify(table));
    expect(constant(run.stdout, 'JDBC_URL')).toBe(JSON.stringify(`jdbc:sqlite:${dir}/t.db`));
    expect(run.stdout).toContain('CREATE TABLE IF NOT EXISTS \\"simple_table\\" (\\"id\\" INTEGER)');
    expect(existsSync(path.join(dir, 't.db'))).toBe(false);
  });

  it('pins the latest version when none is asked for, and writes --out beside nothing else', async () => {
    const out = path.join(dir, 'job.py');
    const run = await cli('export', table, '--columns', 'id', '--sink', `parquet:${dir}/out.parquet`, '--emit', 'spark', '--out', out);
    expect(run).toEqual({ code: 0, stdout: `wrote the Spark job to ${out}\n`, stderr: '' });
    const script = readFileSync(out, 'utf8');
    expect(constant(script, 'VERSION')).toBe('4');
    expect(script).toContain('the latest version when this job was made');
    expect(constant(script, 'OUTPUT_PATH')).toBe(JSON.stringify(`${dir}/out.parquet`));
    expect(readdirSync(dir).filter((n) => n.includes('.partial-'))).toEqual([]);
  });

  it('leaves the password and the user out of a PostgreSQL job and keeps the server and sslmode', async () => {
    const url = 'postgres://alice:s3cr%3At@db.example:6543/sales?sslmode=require';
    const run = await cli(
      'export',
      table,
      '--sink',
      url,
      '--target',
      'ids',
      '--mode',
      'upsert',
      '--key',
      'id',
      '--batch-size',
      '777',
      '--emit',
      'spark',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/s3cr|alice/);
    expect(constant(run.stdout, 'JDBC_URL')).toBe(
      JSON.stringify(
        'jdbc:postgresql://db.example:6543/sales?sslmode=require&connectTimeout=10&stringtype=unspecified&reWriteBatchedInserts=true&ApplicationName=deltaport-spark',
      ),
    );
    expect(constant(run.stdout, 'CREDENTIALS')).toBe('{"user": "PGUSER", "password": "PGPASSWORD"}');
    expect(constant(run.stdout, 'WRITE_OPTIONS')).toBe('{"batchsize": "777"}');
    expect(run.stdout).toContain('ON CONFLICT (\\"id\\") DO NOTHING');
    expect(run.stdout).toContain("Spark's JDBC writer has no exactly-once");
  });

  it('carries --where over as a Spark SQL condition, and refuses a bad one in one line', async () => {
    const run = await cli('export', table, '--where', "id > '2'", '--sink', `csv:${dir}/w.csv`, '--emit', 'spark');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(constant(run.stdout, 'WHERE')).toBe(JSON.stringify('(`id` > 2L)'));
    expect(run.stdout).toContain("#        rows where id > '2'");
    const out = path.join(dir, 'bad-filter.py');
    const bad = await cli('export', table, '--where', 'nope = 1', '--sink', `csv:${dir}/w.csv`, '--emit', 'spark', '--out', out);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^deltaport: filter: no column 'nope' .*\n$/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(path.join(dir, 'w.csv'))).toBe(false);
  });

  it('refuses what a Spark job cannot do in one line, writing nothing', async () => {
    const out = path.join(dir, 'refused.py');
    expect(
      await cli(
        'export',
        table,
        '--sink',
        `sqlite:${dir}/r.db`,
        '--mode',
        'sql',
        '--sql',
        'DELETE FROM t WHERE id = :id',
        '--emit',
        'spark',
        '--out',
        out,
      ),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr: 'deltaport: a Spark job cannot run mode sql (your own statement per row); use append, overwrite or upsert\n',
    });
    expect(await cli('export', table, '--sink', `duckdb:${dir}/r.duckdb`, '--emit', 'spark', '--out', out)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'deltaport: a Spark job cannot write into a DuckDB file: export with Deltaport\n',
    });
    expect(await cli('export', table, '--columns', 'nope', '--sink', `csv:${dir}/r.csv`, '--emit', 'spark', '--out', out)).toMatchObject({
      code: 1,
    });
    expect(existsSync(out)).toBe(false);
    expect(await cli('export', table, '--sink', `csv:${dir}/r.csv`, '--emit', 'flink')).toEqual({
      code: 2,
      stdout: '',
      stderr: "deltaport: --emit must be spark, got 'flink'\n",
    });
    expect(await cli('export', table, '--sink', `csv:${dir}/r.csv`, '--out', out)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'deltaport: --out applies only with --emit spark\n',
    });
    expect(readdirSync(dir).filter((n) => n.startsWith('r.') || n.startsWith('refused'))).toEqual([]);
  });
});

describe.skipIf(spawnSync('python3', ['--version']).status !== 0)('generated scripts (python3 present)', () => {
  it('compile as Python for every sink', async () => {
    const sinks: SinkSpec[] = [
      { kind: 'sqlite', path: `${dir}/c.db`, table: 'a "quoted" name', mode: 'overwrite', execution: DEFAULT_EXECUTION, exactlyOnce: true },
      {
        kind: 'postgres',
        connection: { host: '::1', port: 5432, database: 'd' },
        table: 't',
        mode: 'append',
        execution: DEFAULT_EXECUTION,
        exactlyOnce: false,
      },
      { kind: 'parquet', path: `${dir}/c.parquet` },
      { kind: 'csv', path: `${dir}/c.csv` },
      { kind: 'jsonl', path: `${dir}/c.jsonl` },
    ];
    for (const [i, sink] of sinks.entries()) {
      const file = path.join(dir, `compile-${i}.py`);
      writeFileSync(file, await sparkJobFor({ tablePath: tablePath('delta-1.2.1-only-struct-stats') }, sink, openLocal));
      const check = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
      expect(check.stderr, sink.kind).toBe('');
      expect(check.status).toBe(0);
    }
  });
});

describe('API: exportSparkJob', () => {
  it('returns the script, saves it where asked, and refuses a relative save path', async () => {
    const state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
    const { api, jobs } = appService(state, {
      sampleTable: async () => path.join(dir, 'sample'),
      sqlTempDirectory: path.join(dir, 'sql-temp'),
    });
    const savePath = path.join(dir, 'saved-job.py');
    const request = { source: { tablePath: table, versionAsOf: 1 }, sink: { kind: 'jsonl' as const, path: `${dir}/a.jsonl` } };
    const [checked] = validateCall('exportSparkJob', { ...request, savePath });
    const result = await api.exportSparkJob(checked);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.savedTo).toBe(savePath);
    expect(readFileSync(savePath, 'utf8')).toBe(result.value.script);
    expect(constant(result.value.script, 'VERSION')).toBe('1');
    expect(() => validateCall('exportSparkJob', { ...request, savePath: 'job.py' })).toThrow(
      /exportSparkJob.savePath: the save path must be an absolute path/,
    );
    const refused = await api.exportSparkJob({ ...request, source: { tablePath: table, versionAsOf: 99 } });
    expect(refused.ok).toBe(false);
    await jobs.cancelAll();
    state.close();
  });
});
