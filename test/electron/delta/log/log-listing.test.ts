import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { part, scratchFolders, v } from '../log-files.js';
import { listLog, LogLister, segmentFor, segmentWithoutCheckpoint } from '../../../../electron/delta/log/log-listing.js';
import { LocalStorage } from '../../../../electron/storage/local-storage.js';

const local = new LocalStorage();

const scratch = scratchFolders('listing');
afterEach(() => scratch.removeAll());

const UUID = '3a0d65cd-4056-49b8-937b-95f9e3ee90e5';

/** A table folder whose _delta_log holds empty files with these names: listing looks at names only. */
function logWith(names: string[]): string {
  const root = scratch.make();
  mkdirSync(path.join(root, '_delta_log', '_sidecars'), { recursive: true });
  for (const name of names) writeFileSync(path.join(root, '_delta_log', name), '');
  return root;
}

const commits = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${v(from + i)}.json`);

describe('listLog', () => {
  it('keeps commits and checkpoints, ignores crc, compacted, _last_checkpoint and unknown files', async () => {
    const root = logWith([
      ...commits(0, 3),
      `${v(0)}.crc`,
      `${v(1)}.${v(3)}.compacted.json`,
      '_last_checkpoint',
      `.${v(4)}.json.tmp`,
      `${v(4)}.json.tmp`,
      'README',
      `${v(2)}.checkpoint.parquet`,
    ]);
    const listing = await listLog(local, root);
    expect([...listing.commits.keys()].sort()).toEqual([0, 1, 2, 3]);
    expect(listing.commits.get(2)).toBe(path.join(root, '_delta_log', `${v(2)}.json`));
    expect(listing.checkpoints).toEqual([
      { version: 2, kind: 'classic', files: [path.join(root, '_delta_log', `${v(2)}.checkpoint.parquet`)] },
    ]);
    expect([listing.earliest, listing.latest]).toEqual([0, 3]);
  });

  it('gives every commit of an unbroken run, and no other, as a map of the files written would', async () => {
    const root = logWith([...commits(3, 40), `${v(3)}.checkpoint.parquet`, `${v(20)}.checkpoint.parquet`, `${v(7)}.crc`]);
    const listing = await listLog(local, root);
    const written = commits(3, 40).map((name) => [Number(name.slice(0, 20)), path.join(root, '_delta_log', name)]);
    expect([...listing.commits]).toEqual(written);
    expect(listing.commits.size).toBe(38);
    expect([2, 41, 3.5].map((version) => [listing.commits.has(version), listing.commits.get(version)])).toEqual([
      [false, undefined],
      [false, undefined],
      [false, undefined],
    ]);
    expect([listing.earliest, listing.latest]).toEqual([3, 40]);
    expect(segmentFor(listing, 22).commitVersions).toEqual([21, 22]);
  });

  it('ignores a multi-part checkpoint with a part missing and orders a complete one by part', async () => {
    const root = logWith([
      ...commits(0, 7),
      `${v(3)}.checkpoint.${part(1)}.${part(3)}.parquet`,
      `${v(3)}.checkpoint.${part(3)}.${part(3)}.parquet`,
      `${v(5)}.checkpoint.${part(2)}.${part(2)}.parquet`,
      `${v(5)}.checkpoint.${part(1)}.${part(2)}.parquet`,
    ]);
    const listing = await listLog(local, root);
    expect(listing.checkpoints.map((c) => [c.version, c.kind])).toEqual([[5, 'multi-part']]);
    expect(listing.checkpoints[0].files.map((f) => path.basename(f))).toEqual([
      `${v(5)}.checkpoint.${part(1)}.${part(2)}.parquet`,
      `${v(5)}.checkpoint.${part(2)}.${part(2)}.parquet`,
    ]);
    expect(segmentFor(listing, 4)).toEqual({ version: 4, checkpoint: null, commitVersions: [0, 1, 2, 3, 4] });
  });

  it('recognizes V2 checkpoints named by UUID, and prefers a classic file at the same version', async () => {
    const root = logWith([
      ...commits(0, 9),
      `${v(4)}.checkpoint.${UUID}.json`,
      `${v(6)}.checkpoint.${UUID}.parquet`,
      `${v(8)}.checkpoint.${UUID}.parquet`,
      `${v(8)}.checkpoint.parquet`,
    ]);
    const listing = await listLog(local, root);
    expect(listing.checkpoints.map((c) => [c.version, c.kind, path.basename(c.files[0])])).toEqual([
      [4, 'v2', `${v(4)}.checkpoint.${UUID}.json`],
      [6, 'v2', `${v(6)}.checkpoint.${UUID}.parquet`],
      [8, 'classic', `${v(8)}.checkpoint.parquet`],
    ]);
  });

  it('starts the readable range at the oldest checkpoint followed by unbroken commits', async () => {
    const listing = await listLog(local, logWith([...commits(5, 12), `${v(5)}.checkpoint.parquet`, `${v(10)}.checkpoint.parquet`]));
    expect([listing.earliest, listing.latest]).toEqual([5, 12]);
    expect(() => segmentFor(listing, 4)).toThrow('no version 4: this table has versions 5 to 12');
    expect(() => segmentFor(listing, 13)).toThrow('no version 13: this table has versions 5 to 12');
    expect(() => segmentFor(listing, 1.5)).toThrow(expect.objectContaining({ code: 'VERSION_NOT_FOUND' }));
  });

  it('chooses the newest checkpoint at or below the version, then the commits after it', async () => {
    const listing = await listLog(local, logWith([...commits(0, 7), `${v(2)}.checkpoint.parquet`, `${v(5)}.checkpoint.parquet`]));
    expect(segmentFor(listing, 1).checkpoint).toBeNull();
    expect(segmentFor(listing, 1).commitVersions).toEqual([0, 1]);
    expect([segmentFor(listing, 4).checkpoint?.version, segmentFor(listing, 4).commitVersions]).toEqual([2, [3, 4]]);
    expect([segmentFor(listing, 5).checkpoint?.version, segmentFor(listing, 5).commitVersions]).toEqual([5, []]);
    expect([segmentFor(listing, 7).checkpoint?.version, segmentFor(listing, 7).commitVersions]).toEqual([5, [6, 7]]);
  });

  it('finds an older starting point for a version whose checkpoint is unreadable', async () => {
    const listing = await listLog(local, logWith([...commits(3, 9), `${v(2)}.checkpoint.parquet`, `${v(5)}.checkpoint.parquet`]));
    const older = segmentWithoutCheckpoint(listing, segmentFor(listing, 7));
    expect([older?.checkpoint?.version, older?.commitVersions]).toEqual([2, [3, 4, 5, 6, 7]]);
    expect(older && segmentWithoutCheckpoint(listing, older)).toBeNull();
    const fromZero = await listLog(local, logWith([...commits(0, 4), `${v(3)}.checkpoint.parquet`]));
    expect(segmentWithoutCheckpoint(fromZero, segmentFor(fromZero, 4))).toEqual({
      version: 4,
      checkpoint: null,
      commitVersions: [0, 1, 2, 3, 4],
    });
  });

  it('bridges a gap in the commits only with a checkpoint after it', async () => {
    const bridged = await listLog(local, logWith([...commits(0, 3), ...commits(6, 8), `${v(5)}.checkpoint.parquet`]));
    expect([bridged.earliest, bridged.latest]).toEqual([5, 8]);
    await expect(listLog(local, logWith([...commits(0, 3), ...commits(5, 7)]))).rejects.toMatchObject({
      code: 'CORRUPT_LOG',
      message: 'cannot rebuild version 7: commit 4 is missing from _delta_log and no checkpoint follows it',
    });
    await expect(listLog(local, logWith([...commits(0, 3), ...commits(5, 7), `${v(2)}.checkpoint.parquet`]))).rejects.toThrow(
      /commit 4 is missing/,
    );
    await expect(listLog(local, logWith(commits(3, 5)))).rejects.toThrow(
      'cannot rebuild version 5: commit 2 is missing from _delta_log and no checkpoint follows it',
    );
  });

  it('reads a log that has only a checkpoint', async () => {
    const listing = await listLog(local, logWith([`${v(108)}.checkpoint.parquet`]));
    expect([listing.earliest, listing.latest]).toEqual([108, 108]);
    expect(segmentFor(listing, 108).commitVersions).toEqual([]);
  });

  it('refuses a folder without a log, or with an empty one', async () => {
    const empty = logWith(['_last_checkpoint', `${v(0)}.crc`]);
    await expect(listLog(local, empty)).rejects.toMatchObject({
      code: 'NOT_A_DELTA_TABLE',
      message: `not a Delta table: ${path.join(empty, '_delta_log')} holds no commits or checkpoints`,
    });
    const bare = scratch.make();
    await expect(listLog(local, bare)).rejects.toThrow(`not a Delta table: ${bare} has no _delta_log folder`);
  });
});

describe('LogLister', () => {
  it('sees commits added after an earlier listing', async () => {
    const root = logWith(commits(0, 1));
    const lister = new LogLister(local, root);
    expect((await lister.list()).latest).toBe(1);
    writeFileSync(path.join(root, '_delta_log', `${v(2)}.json`), '');
    expect((await lister.list()).latest).toBe(2);
    rmSync(path.join(root, '_delta_log', `${v(2)}.json`));
    expect((await lister.list()).latest).toBe(1);
  });

  it('sees a change to a folder it had trusted as unchanged', async () => {
    const root = logWith(commits(0, 1));
    const logDir = path.join(root, '_delta_log');
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(logDir, hourAgo, hourAgo);
    const lister = new LogLister(local, root);
    expect((await lister.list()).latest).toBe(1);
    expect((await lister.list()).latest).toBe(1);
    writeFileSync(path.join(logDir, `${v(2)}.json`), '');
    expect((await lister.list()).latest).toBe(2);
  });
});
