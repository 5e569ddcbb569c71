import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removePartialFiles } from '../../../electron/jobs/partial-files.js';
import { sweepStalePartials } from '../../../electron/sinks/atomic-file.js';
import { tablePath } from '../../support/tables.js';
import { RUN_SOURCES } from '../../support/source-workers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const BIN = [...RUN_SOURCES, 'electron/cli/bin.ts'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-partials-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The id of a process that has ended (a child that ran and exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('removePartialFiles', () => {
  it('removes only the partial files of the given target', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'remove-'));
    const names = [
      'out.csv',
      'out.csv.partial-17-0123456789ab',
      `out.csv.partial-${process.pid}-a1b2c3d4e5f6`,
      'out.csv.partial-17-0123456789abc',
      'out.csv.partial-17-notahexvalue',
      'out.csv.partial-0123456789ab',
      'out.csv.bak',
      'other.csv.partial-17-0123456789ab',
      'xout.csv.partial-17-0123456789ab',
    ];
    for (const name of names) fs.writeFileSync(path.join(folder, name), 'x');
    const removed = await removePartialFiles(path.join(folder, 'out.csv'));
    expect(removed.map((f) => path.basename(f)).sort()).toEqual(
      [`out.csv.partial-${process.pid}-a1b2c3d4e5f6`, 'out.csv.partial-17-0123456789ab'].sort(),
    );
    expect(fs.readdirSync(folder).sort()).toEqual(names.filter((n) => !removed.includes(path.join(folder, n))).sort());
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect(await removePartialFiles(path.join(dir, 'missing', 'out.csv'))).toEqual([]);
  });
});

describe('sweepStalePartials', () => {
  it("removes the target's partial files of ended processes, not those of running ones or of other targets", async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'sweep-'));
    const dead = deadPid();
    const names = [
      `out.csv.partial-${dead}-0123456789ab`,
      `out.csv.partial-${process.pid}-0123456789ab`,
      `other.csv.partial-${dead}-0123456789ab`,
    ];
    for (const name of names) fs.writeFileSync(path.join(folder, name), 'x');
    const swept = await sweepStalePartials(path.join(folder, 'out.csv'));
    expect(swept).toEqual([path.join(folder, names[0])]);
    expect(fs.readdirSync(folder).sort()).toEqual([names[1], names[2]].sort());
  });
});

describe('an export killed mid-way', () => {
  async function startExport(
    target: string,
  ): Promise<{ child: ReturnType<typeof spawn>; closed: Promise<number | null>; partial: string }> {
    const child = spawn(process.execPath, [...BIN, 'export', tablePath('COVID-19_NYT'), '--sink', `csv:${target}`], {
      cwd: root,
      stdio: 'ignore',
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const folder = path.dirname(target);
    // Until the partial file holds some rows (bounded: 60 s).
    for (let i = 0; i < 3000; i++) {
      const partial = fs.readdirSync(folder).find((n) => n.startsWith(`${path.basename(target)}.partial-`));
      if (partial && fs.statSync(path.join(folder, partial)).size > 100_000) return { child, closed, partial };
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    throw new Error('the export wrote no partial file within 60 s');
  }

  it('by SIGKILL leaves a partial file, which the next export to the target sweeps', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'kill-'));
    const target = path.join(folder, 'covid.csv');
    const { child, closed, partial } = await startExport(target);
    child.kill('SIGKILL');
    await closed;
    expect(fs.readdirSync(folder)).toEqual([partial]);
    const rerun = spawnSync(process.execPath, [...BIN, 'export', tablePath('simple_table'), '--sink', `csv:${target}`], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(rerun.stderr).toBe('');
    expect(fs.readdirSync(folder)).toEqual(['covid.csv']);
  });

  it('by SIGTERM cancels and leaves nothing', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'term-'));
    const { child, closed } = await startExport(path.join(folder, 'covid.csv'));
    child.kill('SIGTERM');
    expect(await closed).toBe(1);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
