// Commit times and timestamp time travel, on copies of real tables whose log file times the test sets itself.
import { cpSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { scratchFolders, v } from '../log-files.js';
import { commitInfo, commitVersions, type Json } from '../../../support/delta-oracle.js';
import { localReads } from '../../../support/task-tables.js';

const scratch = scratchFolders('time');
afterEach(() => scratch.removeAll());

const iso = (ms: number): string => new Date(ms).toISOString();

function copyOf(name: string): string {
  const root = scratch.make();
  cpSync(tablePath(name), root, { recursive: true });
  return root;
}

function setTime(file: string, ms: number): void {
  utimesSync(file, ms / 1000, ms / 1000);
}

const BASE = Date.UTC(2022, 1, 24, 4, 55, 0);

describe('commit times from file modification times', () => {
  // simple_table has commits 0..4. Versions 1 and 2 share a time and 3 goes back in time: both are moved forward.
  const fileTimes = [BASE, BASE + 60_000, BASE + 60_000, BASE + 30_000, BASE + 300_000];
  const commitTimes = [BASE, BASE + 60_000, BASE + 60_001, BASE + 60_002, BASE + 300_000];

  function simpleTableWithTimes(): string {
    const root = copyOf('simple_table');
    fileTimes.forEach((t, version) => setTime(path.join(root, '_delta_log', `${v(version)}.json`), t));
    return root;
  }

  it('makes equal or decreasing times monotonic, one ms after the previous commit', async () => {
    const table = await DeltaTable.open(simpleTableWithTimes(), localReads);
    expect((await table.history()).map((c) => [c.version, c.timestamp])).toEqual(commitTimes.map((t, version) => [version, t]).reverse());
    for (const [version, t] of commitTimes.entries()) expect(await table.commitTime(version)).toBe(t);
    await expect(table.commitTime(5)).rejects.toMatchObject({ code: 'VERSION_NOT_FOUND' });
  });

  it('describes a version by its own file time, which only history and time travel make monotonic', async () => {
    const table = await DeltaTable.open(simpleTableWithTimes(), localReads);
    for (const version of [3, 4]) {
      const info = await table.tableInfo(await table.snapshot({ version }));
      expect([info.timestamp, await table.commitTime(version)]).toEqual([fileTimes[version], commitTimes[version]]);
    }
  });

  it('resolves a timestamp to the latest commit at or before it', async () => {
    const table = await DeltaTable.open(simpleTableWithTimes(), localReads);
    const cases: [number, number][] = [
      [BASE, 0],
      [BASE + 59_999, 0],
      [BASE + 60_000, 1],
      [BASE + 60_001, 2],
      [BASE + 60_002, 3],
      [BASE + 299_999, 3],
      [BASE + 300_000, 4],
    ];
    for (const [ts, version] of cases) {
      expect(await table.resolveTimestamp(ts), iso(ts)).toBe(version);
      const snapshot = await table.snapshot({ timestampMs: ts });
      expect([snapshot.version, await table.commitTime(snapshot.version)]).toEqual([version, commitTimes[version]]);
    }
  });

  it('names the earliest or latest commit time for a timestamp outside the history', async () => {
    const table = await DeltaTable.open(simpleTableWithTimes(), localReads);
    await expect(table.resolveTimestamp(BASE - 1)).rejects.toMatchObject({
      code: 'TIMESTAMP_OUT_OF_RANGE',
      message: 'timestamp 2022-02-24T04:54:59.999Z is before the earliest commit (version 0 at 2022-02-24T04:55:00.000Z)',
    });
    await expect(table.snapshot({ timestampMs: BASE + 300_001 })).rejects.toMatchObject({
      code: 'TIMESTAMP_OUT_OF_RANGE',
      message: 'timestamp 2022-02-24T05:00:00.001Z is after the latest commit (version 4 at 2022-02-24T05:00:00.000Z)',
    });
  });

  it('refuses a version together with a timestamp, and a timestamp that is not a number', async () => {
    const table = await DeltaTable.open(tablePath('simple_table'), localReads);
    await expect(table.snapshot({ version: 1, timestampMs: BASE })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(table.resolveTimestamp(Number.NaN)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'not a point in time: NaN (expected epoch milliseconds)',
    });
  });

  it('starts at the earliest readable version when early commits are gone', async () => {
    const root = copyOf('checkpoints_vacuumed');
    for (const version of commitVersions(root)) setTime(path.join(root, '_delta_log', `${v(version)}.json`), BASE + version * 1000);
    const table = await DeltaTable.open(root, localReads);
    await expect(table.resolveTimestamp(BASE + 4000)).rejects.toThrow(
      'timestamp 2022-02-24T04:55:04.000Z is before the earliest commit (version 5 at 2022-02-24T04:55:05.000Z)',
    );
    expect(await table.resolveTimestamp(BASE + 7500)).toBe(7);
    expect(await table.resolveTimestamp(BASE + 12_000)).toBe(12);
  });

  it('times a version kept only as a checkpoint by the checkpoint file', async () => {
    const root = copyOf('table-with-domain-metadata');
    setTime(path.join(root, '_delta_log', `${v(108)}.checkpoint.parquet`), BASE);
    const table = await DeltaTable.open(root, localReads);
    expect(await table.commitTime((await table.snapshot()).version)).toBe(BASE);
    expect(await table.resolveTimestamp(BASE)).toBe(108);
    expect(await table.history()).toEqual([]);
  });
});

describe('timestamp search over a long log', () => {
  // 40 commits a minute apart, but version 10's file is 4.5 minutes late: versions 10 to 14 are moved to 1 ms apart
  // after it. The search bounds the answer by the files' own times, which here do not rise everywhere.
  const MINUTE = 60_000;
  const fileTime = (version: number): number => BASE + version * MINUTE + (version === 10 ? 4.5 * MINUTE : 0);

  function longLog(): string {
    const root = scratch.make();
    const log = path.join(root, '_delta_log');
    mkdirSync(log);
    const schemaString = JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] });
    for (let version = 0; version < 40; version++) {
      const actions: Json[] = [{ commitInfo: { timestamp: fileTime(version), operation: 'WRITE' } }];
      if (version === 0) {
        actions.push({ protocol: { minReaderVersion: 1, minWriterVersion: 2 } });
        actions.push({
          metaData: { id: 'long', format: { provider: 'parquet', options: {} }, schemaString, partitionColumns: [], configuration: {} },
        });
      }
      const file = path.join(log, `${v(version)}.json`);
      writeFileSync(file, actions.map((a) => JSON.stringify(a)).join('\n'));
      setTime(file, fileTime(version));
    }
    return root;
  }

  it('resolves timestamps around a commit file written late', async () => {
    const table = await DeltaTable.open(longLog(), localReads);
    expect(await table.resolveTimestamp(BASE + 9 * MINUTE)).toBe(9);
    expect(await table.resolveTimestamp(BASE + 14.5 * MINUTE - 1)).toBe(9);
    expect(await table.resolveTimestamp(BASE + 14.5 * MINUTE)).toBe(10);
    expect(await table.resolveTimestamp(BASE + 14.5 * MINUTE + 4)).toBe(14);
    expect(await table.resolveTimestamp(BASE + 29 * MINUTE + 59_999)).toBe(29);
    expect(await table.commitTime(12)).toBe(BASE + 14.5 * MINUTE + 2);
    expect(await table.resolveTimestamp(BASE + 39 * MINUTE)).toBe(39);
  });
});

describe('commit times from in-commit timestamps', () => {
  it('uses inCommitTimestamp, not the file time, when the table enables it from its creation', async () => {
    const root = copyOf('cdc_ict_table');
    const versions = commitVersions(root);
    // File times far from the commits' own: any use of them would show.
    for (const version of versions) setTime(path.join(root, '_delta_log', `${v(version)}.json`), Date.UTC(2001, 0, 1) - version);
    const ict = versions.map((version) => commitInfo(root, version).inCommitTimestamp as number);
    const table = await DeltaTable.open(root, localReads);
    expect((await table.history()).map((c) => c.timestamp)).toEqual([...ict].reverse());
    expect(await table.commitTime((await table.snapshot()).version)).toBe(ict[3]);
    expect(await table.resolveTimestamp(ict[2])).toBe(2);
    expect(await table.resolveTimestamp(ict[3] - 1)).toBe(2);
    expect(await table.resolveTimestamp(ict[3])).toBe(3);
    await expect(table.resolveTimestamp(ict[3] + 1)).rejects.toThrow(
      `timestamp ${iso(ict[3] + 1)} is after the latest commit (version 3 at ${iso(ict[3])})`,
    );
  });

  it('uses file times before the enablement version and in-commit timestamps from it on', async () => {
    const root = scratch.make();
    mkdirSync(path.join(root, '_delta_log'));
    const metaData = (configuration: Record<string, string>): Json => ({
      metaData: {
        id: 'ict',
        format: { provider: 'parquet', options: {} },
        schemaString: JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }),
        partitionColumns: [],
        configuration,
        createdTime: BASE,
      },
    });
    const ict2 = BASE + 120_000;
    const ict3 = BASE + 180_000;
    const commits: Json[][] = [
      [
        { commitInfo: { timestamp: BASE, operation: 'CREATE TABLE' } },
        { protocol: { minReaderVersion: 1, minWriterVersion: 7 } },
        metaData({}),
      ],
      [{ commitInfo: { timestamp: BASE + 60_000, operation: 'WRITE' } }],
      [
        { commitInfo: { timestamp: ict2, inCommitTimestamp: ict2, operation: 'SET TBLPROPERTIES' } },
        metaData({
          'delta.enableInCommitTimestamps': 'true',
          'delta.inCommitTimestampEnablementVersion': '2',
          'delta.inCommitTimestampEnablementTimestamp': String(ict2),
        }),
      ],
      [{ commitInfo: { timestamp: ict3, inCommitTimestamp: ict3, operation: 'WRITE' } }],
    ];
    // Versions 2 and 3 get file times that would order them wrongly; only 0 and 1 are timed by their files.
    const fileTimes = [BASE, BASE + 60_000, BASE + 999_000, BASE + 1000];
    commits.forEach((actions, version) => {
      const file = path.join(root, '_delta_log', `${v(version)}.json`);
      writeFileSync(file, actions.map((a) => JSON.stringify(a)).join('\n'));
      setTime(file, fileTimes[version]);
    });
    const table = await DeltaTable.open(root, localReads);
    expect((await table.history()).map((c) => c.timestamp)).toEqual([ict3, ict2, BASE + 60_000, BASE]);
    expect(await table.resolveTimestamp(BASE + 60_000)).toBe(1);
    expect(await table.resolveTimestamp(ict2 - 1)).toBe(1);
    expect(await table.resolveTimestamp(ict2)).toBe(2);
    expect(await table.resolveTimestamp(ict3 - 1)).toBe(2);
    expect((await table.snapshot({ timestampMs: ict3 })).version).toBe(3);
    expect(await table.commitTime(2)).toBe(ict2);
  });
});
