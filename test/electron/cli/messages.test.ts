// What a user reads when the command line or the table is not right: flags by their CLI names, a version whose
// data files are gone, an output folder that does not exist, no arguments at all.
import { execFile } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitVersions, dataFile, liveFiles } from '../../support/delta-oracle.js';
import { scratchFolders } from '../delta/log-files.js';
import { tablePath } from '../../support/tables.js';
import { cli } from './run-cli.js';
import { RUN_SOURCES } from '../../support/source-workers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const scratch = scratchFolders('messages');
afterAll(() => scratch.removeAll());

describe('CLI messages', () => {
  it('deltaport with no arguments prints the help on stderr and exits 2 (its own process)', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [...RUN_SOURCES, 'electron/cli/bin.ts'], { cwd: root }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
      );
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Deltaport: .*\n\nusage: deltaport <command> \[options\]\n/);
  });

  it('names --timestamp, not the source option behind it', async () => {
    const run = await cli('preview', tablePath('simple_table'), '--timestamp', 'yesterday');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^deltaport: --timestamp 'yesterday' is not a valid UTC timestamp in one of the forms 2022-02-24, .*\n$/);
    expect(run.stderr).not.toContain('timestampAsOf');
  });

  it('calls a missing folder of a file export the output folder', async () => {
    const missing = path.join(scratch.make(), 'no', 'such');
    const run = await cli('export', tablePath('simple_table'), '--sink', `csv:${path.join(missing, 'out.csv')}`);
    expect(run).toEqual({ code: 1, stdout: '', stderr: `deltaport: the output folder does not exist: ${missing}\n` });
  });

  it('says which versions can still be read when a version lost its data files to VACUUM', async () => {
    // simple_table with the files only versions before 4 used deleted, as VACUUM does.
    const table = path.join(scratch.make(), 'simple_table');
    cpSync(tablePath('simple_table'), table, { recursive: true });
    const versions = commitVersions(table);
    const filesAt = async (version?: number) => (await liveFiles(table, version)).map((add) => dataFile(table, add));
    const latest = new Set(await filesAt());
    const used = await Promise.all(versions.map(filesAt));
    for (const file of new Set(used.flat())) if (!latest.has(file)) rmSync(file);
    // Readable by the log: the versions all of whose files are among the latest's.
    const readable = versions.filter((_, i) => used[i].every((f) => latest.has(f)));
    expect(readable).not.toContain(0);
    const run = await cli('preview', table, '--version', '0');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^deltaport: version 0's data files were removed, probably by VACUUM \\(data file is missing: ${table}/\\S+\\); ` +
          `versions? ${readable.length === 1 ? readable[0] : `${readable[0]}-${readable[readable.length - 1]}`} can be read\\n$`,
      ),
    );
    expect((await cli('preview', table, '--version', String(readable[0]))).code).toBe(0);
  });
});
