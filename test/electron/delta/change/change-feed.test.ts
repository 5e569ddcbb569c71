// The change data feed of the shared CDC tables, against their logs: each commit's rows are DuckDB's reads of the
// files the commit names (its _change_data files, else its data-changing adds and removes), deletes made with
// deletion vectors are the rows of the file matching the DELETE's logged predicate, and commit times are the log's
// (in-commit timestamps, else the commit file's modification time).
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeFeed } from '../../../../electron/delta/change/change-feed.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { displayTextReader } from '../../../../electron/values/text-formats.js';
import { tablePath } from '../../../support/tables.js';
import { commitVersions, type Json, readCommit } from '../../../support/delta-oracle.js';
import { duckCells, fileSelect } from '../../../support/delta-oracle-rows.js';
import { v } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

async function ours(table: string, from: number, to: number) {
  const feed = await changeFeed(await DeltaTable.open(tablePath(table), localReads), from, to);
  const columns = feed.schema.fields.map((f) => f.name).filter((n) => n !== '_commit_timestamp');
  const rows: string[] = [];
  const times = new Map<number, string>();
  for await (const batch of feed.rows()) {
    const cells = columns.map((name) => displayTextReader(batch.getChild(name)!));
    const version = batch.getChild('_commit_version')!;
    const time = batch.getChild('_commit_timestamp')!;
    for (let r = 0; r < batch.numRows; r++) {
      rows.push(cells.map((cell) => cell(r) ?? 'NULL').join('|'));
      times.set(Number(version.get(r)), new Date(Number(time.get(r))).toISOString());
    }
  }
  return { rows: rows.sort(), times, columns };
}

/** The rows the log says each commit in from..to changed, as 'col|...|_change_type|_commit_version'. */
async function expected(table: string, from: number, to: number, dataColumns: string[]) {
  const root = tablePath(table);
  let metaData: Json = {};
  for (const version of commitVersions(root).filter((x) => x <= to)) {
    const found = readCommit(root, version).find((a) => a.metaData);
    if (found) metaData = found.metaData;
  }
  const rows: string[] = [];
  for (let version = from; version <= to; version++) {
    const actions = readCommit(root, version);
    const info = actions.find((a) => a.commitInfo)!.commitInfo as Json;
    const columns = [...dataColumns, '_change_type'];
    const add = (select: string, type?: string, where?: string) =>
      duckCells(
        `SELECT *, ${type ? `'${type}' AS _change_type, ` : ''}${version} AS _commit_version FROM (${select})`,
        [...columns, '_commit_version'],
        where,
      );
    const cdc = actions.filter((a) => a.cdc).map((a) => a.cdc);
    if (cdc.length > 0) {
      for (const c of cdc) rows.push(...(await add(await fileSelect(root, metaData, c, ['_change_type']))));
    } else {
      const adds = actions.filter((a) => a.add?.dataChange).map((a) => a.add);
      const removes = actions.filter((a) => a.remove?.dataChange).map((a) => a.remove);
      let deletedByDv = 0;
      for (const r of removes) {
        const readded = adds.find((a) => a.path === r.path);
        if (!readded) rows.push(...(await add(await fileSelect(root, metaData, r), 'delete')));
        else {
          // A DELETE by deletion vector: the rows of the file its predicate matches (Spark writes "(id#1325 = 3)").
          expect(r.deletionVector ?? null).toBeNull();
          const predicate = (JSON.parse(info.operationParameters.predicate) as string[]).join(' AND ').replace(/#\d+/g, '');
          const deleted = await add(await fileSelect(root, metaData, r), 'delete', predicate);
          deletedByDv += deleted.length;
          rows.push(...deleted);
        }
      }
      for (const a of adds)
        if (!removes.some((r) => r.path === a.path)) rows.push(...(await add(await fileSelect(root, metaData, a), 'insert')));
      if (deletedByDv > 0) expect(deletedByDv).toBe(Number(info.operationMetrics.numDeletedRows));
    }
  }
  return { rows: rows.sort(), times: commitTimes(root, to) };
}

/** Commit times as Delta defines them: the in-commit timestamp, else the commit file's modification time made
 * strictly increasing (a commit never takes a time at or before its predecessor's: then it is that plus 1 ms). */
function commitTimes(root: string, to: number): Map<number, string> {
  const times = new Map<number, string>();
  let previous = -Infinity;
  for (let version = 0; version <= to; version++) {
    const info = readCommit(root, version).find((a) => a.commitInfo)!.commitInfo as Json;
    const mtime = Math.floor(statSync(path.join(root, '_delta_log', `${v(version)}.json`)).mtimeMs);
    const ms = info.inCommitTimestamp ?? Math.max(mtime, previous + 1);
    previous = ms;
    times.set(version, new Date(ms).toISOString());
  }
  return times;
}

describe('change data feed', () => {
  const cases: [string, number, number, string[]][] = [
    ['cdf-table', 0, 3, ['id', 'name', 'birthday']],
    ['cdf-table', 2, 3, ['id', 'name', 'birthday']],
    ['cdc_ict_table', 0, 3, []],
    ['cdf-table-with-cdc-and-dvs', 0, 25, ['id', 'comment']],
  ];
  for (const [table, from, to, given] of cases) {
    it(`${table} ${from}..${to}`, async () => {
      const got = await ours(table, from, to);
      const dataColumns = given.length > 0 ? given : got.columns.slice(0, got.columns.indexOf('_change_type'));
      expect(got.columns).toEqual([...dataColumns, '_change_type', '_commit_version']);
      const want = await expected(table, from, to, dataColumns);
      expect(got.rows).toEqual(want.rows);
      expect(got.rows.length).toBeGreaterThan(0);
      for (const [version, time] of got.times) expect(time).toBe(want.times.get(version));
    }, 60_000);
  }

  it('has every change type on cdf-table', async () => {
    const { rows } = await ours('cdf-table', 0, 3);
    const types = new Set(rows.map((r) => r.split('|')[3]));
    expect(types).toEqual(new Set(['insert', 'update_preimage', 'update_postimage', 'delete']));
  });

  it('refuses a table without a change data feed, in one line', async () => {
    await expect(changeFeed(await DeltaTable.open(tablePath('simple_table'), localReads), 0, 1)).rejects.toThrow(
      /^the table does not record a change data feed \(delta.enableChangeDataFeed is not true\)$/,
    );
  });
});
