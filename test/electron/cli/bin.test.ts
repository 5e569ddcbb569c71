// The real executable in its own process: exit codes and the single error line.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tablePath } from '../../support/tables.js';
import { startServe } from '../../support/serve.js';
import { RUN_SOURCES } from '../../support/source-workers.js';
import { SEMI_SPACE_MB } from '../../../electron/threads/young-generation.js';

const root = path.resolve(import.meta.dirname, '../../..');
const empty = mkdtempSync(path.join(tmpdir(), 'deltaport-bin-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const BIN = [...RUN_SOURCES, 'electron/cli/bin.ts'];

function deltaport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...BIN, ...args], { cwd: root }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe('deltaport as a process', () => {
  it('previews a table and exits 0', async () => {
    const run = await deltaport('preview', tablePath('simple_table'), '--format', 'csv', '--limit', '2');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('id');
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('refuses a folder that is not a Delta table with one line', async () => {
    const run = await deltaport('schema', empty);
    expect(run).toEqual({ code: 1, stdout: '', stderr: `deltaport: not a Delta table: ${empty} has no _delta_log folder\n` });
  });

  it('names the range for a bad version', async () => {
    const run = await deltaport('preview', tablePath('simple_table'), '--version', '12');
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'deltaport: no version 12: this table has versions 0 to 4\n' });
  });

  it('rejects a bad option', async () => {
    const target = path.join(empty, 'x.csv');
    const run = await deltaport('export', tablePath('simple_table'), '--sink', `csv:${target}`, '--option', 'parquetBatchSize=-3');
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: "deltaport: option parquetBatchSize must be a positive integer, got '-3'\n",
    });
  });

  it('stops quietly when the reader of its output goes away', async () => {
    const child = spawn(process.execPath, [...BIN, 'preview', tablePath('COVID-19_NYT'), '--format', 'csv', '--limit', '100000'], {
      cwd: root,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('cancels an export on Ctrl-C, leaving no file', async () => {
    const dir = mkdtempSync(path.join(empty, 'sigint-'));
    const target = path.join(dir, 'covid.csv');
    const child = spawn(process.execPath, [...BIN, 'export', tablePath('COVID-19_NYT'), '--sink', `csv:${target}`], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    // Interrupt once the export has started writing (its partial file exists).
    while (readdirSync(dir).length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await closed).toBe(1);
    expect(stderr).toBe('deltaport: export cancelled\n');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exits 2 on a usage error', async () => {
    const run = await deltaport('preview', tablePath('simple_table'), '--limit');
    expect(run).toEqual({ code: 2, stdout: '', stderr: 'deltaport: --limit needs a value\n' });
  });

  it("the built executable runs Node with one malloc arena and an export's young generation where env can split its first line", async () => {
    const splits = spawnSync('/usr/bin/env', ['-S', 'true']).status === 0;
    const app = await startServe();
    try {
      expect(path.basename(readlinkSync(`/proc/${app.pid}/exe`))).toBe('node');
      expect(readFileSync(`/proc/${app.pid}/environ`, 'utf8').split('\0').includes('MALLOC_ARENA_MAX=1')).toBe(splits);
      const nodeArguments = readFileSync(`/proc/${app.pid}/cmdline`, 'utf8').split('\0');
      expect(nodeArguments.includes(`--max-semi-space-size=${SEMI_SPACE_MB}`)).toBe(splits);
    } finally {
      await app.stop();
    }
  });
});
