// The Spark jobs' Python files as Python: each compiles, and ruff passes them with the settings beside them, whose
// list of names taken from the rest of a job's script must name only what a job really defines. The built CLI finds
// the files from its bundle as the sources do. Running the jobs is spark-job.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION, type SinkSpec } from '../../../shared/sink-spec.js';
import { sparkJobFor } from '../../../electron/handoff/emit-spark-job.js';
import { tablePath } from '../../support/tables.js';
import { openLocal } from '../../support/task-tables.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const FOLDER = path.join(REPO_ROOT, 'electron/handoff/python');
const FILES = readdirSync(FOLDER)
  .filter((f) => f.endsWith('.py'))
  .map((f) => path.join(FOLDER, f));
const CLI_BIN = path.join(REPO_ROOT, 'dist/electron/cli/bin.js');
const TABLE = tablePath('delta-1.2.1-only-struct-stats');

const dir = mkdtempSync(path.join(os.tmpdir(), 'deltaport-python-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One sink of each kind: together their jobs write every setting a job has. */
const SINKS: SinkSpec[] = [
  { kind: 'sqlite', path: `${dir}/t.db`, table: 't', mode: 'overwrite', execution: DEFAULT_EXECUTION, exactlyOnce: true },
  {
    kind: 'postgres',
    connection: { host: '::1', port: 5432, database: 'd' },
    table: 't',
    mode: 'upsert',
    keyColumns: ['integer'],
    execution: DEFAULT_EXECUTION,
    exactlyOnce: true,
  },
  { kind: 'parquet', path: `${dir}/t.parquet` },
  { kind: 'csv', path: `${dir}/t.csv` },
  { kind: 'jsonl', path: `${dir}/t.jsonl` },
];

/** The names ruff.toml lets the files use without defining them. */
function givenNames(): string[] {
  const toml = readFileSync(path.join(FOLDER, 'ruff.toml'), 'utf8');
  const list = /^builtins = \[([^\]]*)\]/m.exec(toml);
  if (!list) throw new Error('ruff.toml has no builtins list');
  return [...list[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** Top-level names a script defines: its assignments, functions and imports' aliases. */
function definedNames(script: string): string[] {
  return [...script.matchAll(/^(?:(\w+) = |def (\w+)\(|from \S+ import \w+ as (\w+))/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe("the Spark jobs' Python files", () => {
  it('compile', () => {
    expect(FILES.map((f) => path.basename(f)).sort()).toEqual(['spark_job.py', 'spark_text_helpers.py']);
    for (const file of FILES) {
      // Compiled into a folder of the test's: nothing is written beside the sources.
      const run = spawnSync('python3', ['-m', 'py_compile', file], { encoding: 'utf8', env: { ...process.env, PYTHONPYCACHEPREFIX: dir } });
      expect(run.stderr, file).toBe('');
      expect(run.status, file).toBe(0);
    }
  });

  it('pass ruff', () => {
    const run = spawnSync('python3', ['-m', 'ruff', 'check', '--no-cache', FOLDER], { encoding: 'utf8', cwd: REPO_ROOT });
    if (run.stderr.includes('No module named ruff')) {
      throw new Error('ruff is not installed: python3 -m pip install ruff (.ci/run installs the version the checks are kept for)');
    }
    expect(run.stdout + run.stderr).toContain('All checks passed!');
    expect(run.status).toBe(0);
  });

  it('take from the rest of a job only names that a job defines', async () => {
    const defined = new Set<string>();
    for (const sink of SINKS) for (const name of definedNames(await sparkJobFor({ tablePath: TABLE }, sink, openLocal))) defined.add(name);
    expect(givenNames().filter((name) => !defined.has(name))).toEqual([]);
  });

  it('are found by the built CLI, which writes the job the sources write', async () => {
    if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run npm run build first`);
    const csv = path.join(dir, 'cli.csv');
    const run = spawnSync(process.execPath, [CLI_BIN, 'export', TABLE, '--sink', `csv:${csv}`, '--emit', 'spark'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(await sparkJobFor({ tablePath: TABLE }, { kind: 'csv', path: csv }, openLocal));
  });
});
