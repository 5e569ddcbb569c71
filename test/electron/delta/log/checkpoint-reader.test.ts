// Checkpoint layouts the shared tables do not cover (multi-part, V2 with Parquet sidecars, classic names with V2
// content, deletion vectors in a checkpoint), written here with the expected state known by construction.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { writeCheckpointParquet } from '../checkpoint-files.js';
import { part, scratchFolders, v } from '../log-files.js';
import { type Json, oracleRecordCount, oracleSnapshot } from '../../../support/delta-oracle.js';
import { localReads } from '../../../support/task-tables.js';

const scratch = scratchFolders('checkpoint');
afterEach(() => scratch.removeAll());

const UUID = 'c5f3e8a2-1b7d-4e0f-9a6b-2d4c8e1f3a57';

const protocol = { minReaderVersion: 1, minWriterVersion: 2 };
const metaData = {
  id: 'synthetic',
  format: { provider: 'parquet', options: {} },
  schemaString: JSON.stringify({ type: 'struct', fields: [{ name: 'id', type: 'long', nullable: true, metadata: {} }] }),
  partitionColumns: [],
  configuration: { 'delta.checkpointInterval': '2' },
  createdTime: 1,
};
const add = (name: string, numRecords: number, deletionVector?: Json): Json => ({
  add: {
    path: name,
    partitionValues: {},
    size: 100 + numRecords,
    modificationTime: 1,
    dataChange: true,
    stats: JSON.stringify({ numRecords }),
    ...(deletionVector ? { deletionVector } : {}),
  },
});
const remove = (name: string, deletionVector?: Json): Json => ({
  remove: { path: name, deletionTimestamp: 2, dataChange: true, ...(deletionVector ? { deletionVector } : {}) },
});

/**
 * Commits 0..3: 0 creates the table with a.parquet, 1 adds b, 2 adds c; 3 removes a and adds d. Checkpoints at 2
 * are written by each test; commits 0 and 1 are deleted so that only the checkpoint can rebuild version 2 and 3.
 */
function tableWithCommits(): { root: string; log: string } {
  const root = scratch.make();
  const log = path.join(root, '_delta_log');
  mkdirSync(path.join(log, '_sidecars'), { recursive: true });
  const commits: Json[][] = [
    [{ commitInfo: { operation: 'CREATE' } }, { protocol }, { metaData }, add('a.parquet', 1)],
    [add('b.parquet', 2)],
    [add('c.parquet', 3)],
    [remove('a.parquet'), add('d.parquet', 4)],
  ];
  commits.forEach((actions, version) =>
    writeFileSync(path.join(log, `${v(version)}.json`), actions.map((a) => JSON.stringify(a)).join('\n') + '\n'),
  );
  return { root, log };
}

const dropEarlyCommits = (log: string): void => [0, 1].forEach((n) => rmSync(path.join(log, `${v(n)}.json`)));
const stateAt2 = [{ protocol }, { metaData }, add('a.parquet', 1), add('b.parquet', 2), add('c.parquet', 3)];

async function expectFiles(root: string, expected: Record<number, string[]>, earliest = 2): Promise<void> {
  const table = await DeltaTable.open(root, localReads);
  expect(await table.versionRange()).toEqual({ earliest, latest: 3 });
  for (const [version, names] of Object.entries(expected)) {
    const snapshot = await table.snapshot({ version: Number(version) });
    expect(snapshot.files.map((f) => path.basename(f.absolutePath))).toEqual(names);
    expect(snapshot.metadata.id).toBe('synthetic');
  }
}

describe('checkpoint layouts', () => {
  it('reads a classic single-file checkpoint, counting records from its stats', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.parquet`), stateAt2);
    dropEarlyCommits(log);
    await expectFiles(root, { 2: ['a.parquet', 'b.parquet', 'c.parquet'], 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
    const table = await DeltaTable.open(root, localReads);
    const info = await table.tableInfo(await table.snapshot());
    expect([info.numFiles, info.numRecords, info.sizeBytes]).toEqual([3, 2 + 3 + 4, 102 + 103 + 104]);
  });

  it('reads paths of any script and length, 64-bit sizes and times, and record counts however the stats put them', async () => {
    const { root, log } = tableWithCommits();
    // A path of 128 bytes or more has a length no ASCII byte spells: its dictionary page is not all ASCII.
    const names = ['b-\u00e9t\u00e9-\u65e5\u672c.parquet', `${'x'.repeat(140)}.parquet`, 'plain.parquet'];
    const stats = [
      JSON.stringify({ minValues: { numRecords: 70 }, numRecords: 5 }), // a column named numRecords, the count after it
      '{"numRecords":3,"numRecords":6}', // a repeated key: the last one counts, as JSON.parse reads it
      JSON.stringify({ numRecords: 4, nullCount: { id: 0 } }),
    ];
    const big = 2 ** 40 + 3;
    const adds = names.map((name, i) => ({
      add: { path: name, partitionValues: {}, size: big + i, modificationTime: 2 * big + i, dataChange: true, stats: stats[i] },
    }));
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.parquet`), [{ protocol }, { metaData }, ...adds]);
    dropEarlyCommits(log);
    const table = await DeltaTable.open(root, localReads);
    const snapshot = await table.snapshot({ version: 2 });
    const expected = names.map((name, i) => [name, big + i, 2 * big + i]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    expect(snapshot.files.map((f) => [path.basename(f.absolutePath), f.add.size, f.add.modificationTime])).toEqual(expected);
    expect((await table.tableInfo(snapshot)).numRecords).toBe(5 + 6 + 4);
  });

  it('reads a complete multi-part checkpoint', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.${part(1)}.${part(2)}.parquet`), stateAt2.slice(0, 3));
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.${part(2)}.${part(2)}.parquet`), stateAt2.slice(3));
    dropEarlyCommits(log);
    await expectFiles(root, { 2: ['a.parquet', 'b.parquet', 'c.parquet'], 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
    const table = await DeltaTable.open(root, localReads);
    expect((await table.tableInfo(await table.snapshot())).numRecords).toBe(9);
  });

  it('ignores an incomplete multi-part checkpoint and replays the commits instead', async () => {
    const { root, log } = tableWithCommits();
    // Part 1 of 2 holds a file the commits never added: reading it would show up.
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.${part(1)}.${part(2)}.parquet`), [
      { protocol },
      { metaData },
      add('phantom.parquet', 1),
    ]);
    await expectFiles(root, { 3: ['b.parquet', 'c.parquet', 'd.parquet'] }, 0);
    dropEarlyCommits(log);
    await expect(DeltaTable.open(root, localReads)).rejects.toThrow(
      'cannot rebuild version 3: commit 1 is missing from _delta_log and no checkpoint follows it',
    );
  });

  it('reads a V2 checkpoint in Parquet whose files are in sidecars', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, '_sidecars', 'one.parquet'), [add('a.parquet', 1), add('b.parquet', 2)]);
    writeCheckpointParquet(path.join(log, '_sidecars', 'two.parquet'), [add('c.parquet', 3)]);
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.${UUID}.parquet`), [
      { checkpointMetadata: { version: 2 } },
      { protocol },
      { metaData },
      { sidecar: { path: 'one.parquet', sizeInBytes: 1, modificationTime: 1 } },
      { sidecar: { path: 'two.parquet', sizeInBytes: 1, modificationTime: 1 } },
    ]);
    dropEarlyCommits(log);
    await expectFiles(root, { 2: ['a.parquet', 'b.parquet', 'c.parquet'], 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
    const table = await DeltaTable.open(root, localReads);
    expect((await table.tableInfo(await table.snapshot())).numRecords).toBe(9);
  });

  it('reads a V2 checkpoint in JSON with inline files and a sidecar', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, '_sidecars', 'one.parquet'), [add('b.parquet', 2), add('c.parquet', 3)]);
    const top = [
      { checkpointMetadata: { version: 2 } },
      { protocol },
      { metaData },
      add('a.parquet', 1),
      { sidecar: { path: 'one.parquet', sizeInBytes: 1, modificationTime: 1 } },
    ];
    writeFileSync(path.join(log, `${v(2)}.checkpoint.${UUID}.json`), top.map((a) => JSON.stringify(a)).join('\n'));
    dropEarlyCommits(log);
    await expectFiles(root, { 2: ['a.parquet', 'b.parquet', 'c.parquet'], 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
  });

  it('reads V2 content under a classic checkpoint name', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, '_sidecars', 'one.parquet'), [add('b.parquet', 2), add('c.parquet', 3)]);
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.parquet`), [
      { checkpointMetadata: { version: 2 } },
      { protocol },
      { metaData },
      add('a.parquet', 1),
      { sidecar: { path: 'one.parquet', sizeInBytes: 1, modificationTime: 1 } },
    ]);
    dropEarlyCommits(log);
    await expectFiles(root, { 2: ['a.parquet', 'b.parquet', 'c.parquet'], 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
  });

  it('names a missing sidecar', async () => {
    const { root, log } = tableWithCommits();
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.${UUID}.parquet`), [
      { protocol },
      { metaData },
      { sidecar: { path: 'gone.parquet', sizeInBytes: 1, modificationTime: 1 } },
    ]);
    dropEarlyCommits(log);
    const table = await DeltaTable.open(root, localReads);
    await expect(table.snapshot()).rejects.toMatchObject({
      code: 'MISSING_FILE',
      message: `checkpoint file is missing: ${path.join(log, '_sidecars', 'gone.parquet')}`,
    });
  });

  it('ignores a stale or corrupt _last_checkpoint', async () => {
    for (const hint of ['{"version":0,"size":3}', '{not json', '{"version":7,"size":1}']) {
      const { root, log } = tableWithCommits();
      writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.parquet`), stateAt2);
      writeFileSync(path.join(log, '_last_checkpoint'), hint);
      dropEarlyCommits(log);
      await expectFiles(root, { 3: ['b.parquet', 'c.parquet', 'd.parquet'] });
    }
  });

  it('keys files by path and deletion vector: a new vector replaces the old one', async () => {
    const { root, log } = tableWithCommits();
    const dv1 = {
      storageType: 'i',
      pathOrInlineDv: 'wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L',
      offset: null,
      sizeInBytes: 40,
      cardinality: 1,
    };
    const dv2 = { storageType: 'u', pathOrInlineDv: 'ab^-aqEH.-t@S}K{vb[*k^', offset: 4, sizeInBytes: 40, cardinality: 2 };
    writeCheckpointParquet(path.join(log, `${v(2)}.checkpoint.parquet`), [
      { protocol },
      { metaData },
      add('a.parquet', 1),
      add('b.parquet', 2),
      add('c.parquet', 3, dv1),
    ]);
    dropEarlyCommits(log);
    // Version 3 deletes more rows of c: the remove names the old vector, the add the new one.
    writeFileSync(
      path.join(log, `${v(3)}.json`),
      [remove('c.parquet', dv1), add('c.parquet', 3, dv2)].map((a) => JSON.stringify(a)).join('\n'),
    );
    const table = await DeltaTable.open(root, localReads);
    const at2 = await table.snapshot({ version: 2 });
    expect(at2.files.map((f) => [path.basename(f.absolutePath), f.add.deletionVector?.cardinality ?? 0])).toEqual([
      ['a.parquet', 0],
      ['b.parquet', 0],
      ['c.parquet', 1],
    ]);
    expect(at2.files[2].add.deletionVector).toMatchObject({ storageType: 'i', pathOrInlineDv: dv1.pathOrInlineDv, sizeInBytes: 40 });
    expect((await table.tableInfo(at2)).numRecords).toBe(1 + 2 + 3 - 1);
    const at3 = await table.snapshot({ version: 3 });
    expect(at3.files.map((f) => [path.basename(f.absolutePath), f.add.deletionVector?.offset ?? null])).toEqual([
      ['a.parquet', null],
      ['b.parquet', null],
      ['c.parquet', 4],
    ]);
    expect((await table.tableInfo(at3)).numRecords).toBe(1 + 2 + 3 - 2);
  });

  it('passes over an unreadable checkpoint for an older one', async () => {
    const root = scratch.make();
    cpSync(tablePath('checkpoints_vacuumed'), root, { recursive: true });
    writeFileSync(path.join(root, '_delta_log', `${v(10)}.checkpoint.parquet`), 'not parquet');
    const expected = await oracleSnapshot(tablePath('checkpoints_vacuumed'), 12, 5);
    const table = await DeltaTable.open(root, localReads);
    const snapshot = await table.snapshot();
    expect(snapshot.files.map((f) => path.relative(root, f.absolutePath))).toEqual(
      [...expected.adds.values()].map((a) => decodeURIComponent(a.path as string)).sort(),
    );
    expect((await table.tableInfo(snapshot)).numRecords).toBe(oracleRecordCount(expected));
    // Version 10 can then come only from checkpoint 5 and commits 6..10.
    const at10 = await oracleSnapshot(tablePath('checkpoints_vacuumed'), 10, 5);
    expect((await table.snapshot({ version: 10 })).files.length).toBe(at10.adds.size);
  });

  it('reports the newest unreadable checkpoint when no older start remains', async () => {
    const { root, log } = tableWithCommits();
    writeFileSync(path.join(log, `${v(2)}.checkpoint.parquet`), 'not parquet');
    dropEarlyCommits(log);
    await expect((await DeltaTable.open(root, localReads)).snapshot()).rejects.toMatchObject({
      code: 'CORRUPT_LOG',
      message: expect.stringMatching(/^cannot read checkpoint file .*00000000000000000002\.checkpoint\.parquet/) as string,
    });
  });

  it('reads a checkpoint once per DeltaTable', async () => {
    const root = scratch.make();
    cpSync(tablePath('checkpoints_vacuumed'), root, { recursive: true });
    const table = await DeltaTable.open(root, localReads);
    await table.snapshot({ version: 12 });
    const expected = await oracleSnapshot(tablePath('checkpoints_vacuumed'), 11, 10);
    // Overwriting in place leaves the folder listing as it was; only a re-read would notice the damage.
    for (const version of [5, 10]) writeFileSync(path.join(root, '_delta_log', `${v(version)}.checkpoint.parquet`), 'not parquet');
    expect((await table.snapshot({ version: 11 })).files.length).toBe(expected.adds.size);
    await expect((await DeltaTable.open(root, localReads)).snapshot({ version: 11 })).rejects.toMatchObject({
      code: 'CORRUPT_LOG',
      message: expect.stringMatching(/^cannot read checkpoint file .*00000000000000000010\.checkpoint\.parquet/) as string,
    });
  });
});
