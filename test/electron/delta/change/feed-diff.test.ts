// Diffs whose rows come from the change data feed, against DuckDB's net difference of the two snapshots: the rows of
// the older EXCEPT ALL those of the newer as removed, the newer EXCEPT ALL the older as added, each snapshot's rows
// read by the tests' own log replay (deleted rows taken out by file_row_number). The files the feed reads are counted
// off the log: a commit's cdc actions, else its data-changing removes and adds (a re-added path once).
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { netFeedRows } from '../../../../electron/delta/change/net-change.js';
import { diffSnapshots } from '../../../../electron/delta/change/snapshot-diff.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { commitFile, type Json, liveRowCount, oracleSnapshot, readCommit } from '../../../support/delta-oracle.js';
import { cli } from '../../cli/run-cli.js';
import { expectedNetDiff, feedFileCount } from '../change-oracle.js';
import { diffRows } from '../diff-rows.js';
import { scratchFolders } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

const scratch = scratchFolders('feed-diff');
afterAll(() => scratch.removeAll());

const CASES: [string, string[], [number, number][]][] = [
  [
    'cdf-table',
    ['id', 'name', 'birthday'],
    [
      [0, 3],
      [0, 1],
      [1, 3],
      [2, 3],
    ],
  ],
  [
    'cdc_ict_table',
    ['name', 'birthyear', 'age'],
    [
      [1, 3],
      [1, 2],
      [2, 3],
    ],
  ],
  [
    'cdf-table-non-partitioned',
    ['id', 'name', 'birthday', 'long_field', 'boolean_field', 'double_field', 'smallint_field'],
    [
      [0, 4],
      [1, 3],
    ],
  ],
  [
    'cdf-table-with-cdc-and-dvs',
    ['id', 'comment'],
    [
      [0, 25],
      [4, 5],
      [8, 12],
      [10, 20],
      [17, 24],
      [0, 9],
    ],
  ],
];

describe('diff rows from the change data feed', () => {
  for (const [table, columns, ranges] of CASES) {
    for (const [from, to] of ranges) {
      it(`${table} ${from} -> ${to}: the net difference of the two snapshots`, async () => {
        const root = tablePath(table);
        const { diff, rows } = await diffRows(root, from, to, columns);
        expect(diff.rowsFrom).toEqual({ source: 'change-feed', files: feedFileCount(root, from, to) });
        expect(rows).toEqual(await expectedNetDiff(root, from, to, columns));
      });
    }
  }

  it('rows copied into rewritten files (OPTIMIZE, between the UPDATEs) do not show, where the file sets show them', async () => {
    const root = tablePath('cdf-table-with-cdc-and-dvs');
    const { rows } = await diffRows(root, 8, 12, ['id', 'comment']);
    const [older, newer] = [await oracleSnapshot(root, 8), await oracleSnapshot(root, 12)];
    const only = (a: typeof older, b: typeof older) => [...a.adds].filter(([k]) => !b.adds.has(k)).map(([, add]) => add);
    const fileSetRows = (await liveRowCount(root, only(older, newer))) + (await liveRowCount(root, only(newer, older)));
    expect(rows.length).toBeGreaterThan(0);
    expect(fileSetRows).toBeGreaterThan(rows.length);
  });

  it('falls back to the file sets where the feed is off for part of the range, and says why', async () => {
    // A copy of cdf-table whose v4 turns the feed off and whose v5 deletes a whole file without a change file.
    const root = path.join(scratch.make(), 'cdf-table');
    cpSync(tablePath('cdf-table'), root, { recursive: true });
    const meta = readCommit(root, 0).find((a) => a.metaData)!.metaData as Json;
    const off = { ...meta, configuration: { ...meta.configuration, 'delta.enableChangeDataFeed': 'false' } };
    const info = (operation: string, ms: number) => ({ commitInfo: { timestamp: ms, operation, operationParameters: {} } });
    const deletedAt3 = readCommit(root, 3).find((a) => a.remove)!.remove.path as string;
    const victim = readCommit(root, 2).find((a) => a.add && a.add.path !== deletedAt3)!.add as Json;
    const lines = (actions: Json[]) => actions.map((a) => JSON.stringify(a)).join('\n') + '\n';
    writeFileSync(commitFile(root, 4), lines([info('SET TBLPROPERTIES', Date.now()), { metaData: off }]));
    const remove = { path: victim.path, partitionValues: victim.partitionValues, size: victim.size, dataChange: true };
    writeFileSync(commitFile(root, 5), lines([info('DELETE', Date.now() + 1000), { remove: { ...remove, deletionTimestamp: 0 } }]));

    const columns = ['id', 'name', 'birthday'];
    const partly = await diffRows(root, 1, 5, columns);
    // v1 -> v5 has no copies: the rows of the files only in one version are the net difference too.
    const [older, newer] = [await oracleSnapshot(root, 1), await oracleSnapshot(root, 5)];
    const differing = [...older.adds.keys(), ...newer.adds.keys()].filter((k) => !older.adds.has(k) || !newer.adds.has(k));
    expect(partly.diff.rowsFrom).toEqual({ source: 'data-files', files: differing.length, reason: 'the change data feed is off at v4' });
    expect(partly.rows).toEqual(await expectedNetDiff(root, 1, 5, columns));
    expect((await diffRows(root, 4, 5, columns)).diff.rowsFrom).toEqual({ source: 'data-files', files: 1 });
    expect((await diffRows(root, 0, 3, columns)).diff.rowsFrom.source).toBe('change-feed');

    const run = await cli('diff', root, '--from', '1', '--to', '5');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\nrows from the data files \(\d+ files read; the change data feed is off at v4\)\n$/);
  });

  it('falls back to the file sets where a file the feed needs is gone (VACUUM)', async () => {
    const root = path.join(scratch.make(), 'cdf-table');
    cpSync(tablePath('cdf-table'), root, { recursive: true });
    rmSync(path.join(root, decodeURIComponent(readCommit(root, 1).find((a) => a.cdc)!.cdc.path as string)));
    const columns = ['id', 'name', 'birthday'];
    const { diff, rows } = await diffRows(root, 0, 3, columns);
    expect(diff.rowsFrom).toMatchObject({ source: 'data-files', reason: 'a file of the change data feed is gone' });
    // cdf-table's updates copy no rows, so its file sets give the net difference too.
    expect(rows).toEqual(await expectedNetDiff(root, 0, 3, columns));
  });

  it('gives up netting past its row limit (the diff then reads the file sets)', async () => {
    const table = await DeltaTable.open(tablePath('cdf-table'), localReads);
    const diff = await diffSnapshots(table, 0, 3);
    // The feed's rows, from the commits' metrics: a pre- and a postimage per updated row, one per deleted row.
    const changed = [1, 2, 3].map((version) => readCommit(tablePath('cdf-table'), version).find((a) => a.commitInfo)!.commitInfo as Json);
    const feed = changed.reduce(
      (n, c) => n + 2 * Number(c.operationMetrics.numUpdatedRows ?? 0) + Number(c.operationMetrics.numDeletedRows ?? 0),
      0,
    );
    const net = (limit: number) =>
      netFeedRows(table, 0, 3, diff.rowSchema, { name: '_change', type: 'string', nullable: false }, { limit });
    expect(await net(feed - 1)).toEqual({ reason: `the change data feed has more than ${feed - 1} rows` });
    expect(await net(feed)).toHaveProperty('batches');
  });

  it('says in the CLI that the rows came from the feed', async () => {
    const run = await cli('diff', tablePath('cdf-table'), '--from', '0', '--to', '3');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      new RegExp(`\\nrows from the change data feed \\(${feedFileCount(tablePath('cdf-table'), 0, 3)} files read\\)\\n$`),
    );
  });
});
