// Expected changes of cdf-table-like tables (partitioned, without deletion vectors), from their own log and DuckDB
// over the files it names: a change feed's rows are each commit's _change_data files, else its data-changing adds
// as inserts, with the commit times of the log; a diff's rows are the net difference of the two snapshots' rows.
import fs from 'node:fs';
import path from 'node:path';
import { duckCells, fileSelect } from '../../support/delta-oracle-rows.js';
import { readCommit, type Json } from '../../support/delta-oracle.js';
import { liveRows } from './histogram-oracle.js';
import { v } from './log-files.js';

const dataColumns = (metaData: Json) =>
  ((JSON.parse(metaData.schemaString as string) as Json).fields as Json[]).map((f) => f.name as string);

/** The feed of commits from..to as 'col|...|_change_type|_commit_version' sorted, and each commit's time (ISO). */
export async function expectedFeed(root: string, from: number, to: number): Promise<{ rows: string[]; times: Map<number, string> }> {
  const metaData = readCommit(root, 0).find((a) => a.metaData)!.metaData as Json;
  const columns = [...dataColumns(metaData), '_change_type', '_commit_version'];
  const rows: string[] = [];
  const times = new Map<number, string>();
  let previous = -Infinity;
  for (let version = 0; version <= to; version++) {
    const actions = readCommit(root, version);
    // Without in-commit timestamps a commit's time is its file's modification time, made strictly increasing.
    const mtime = Math.floor(fs.statSync(path.join(root, '_delta_log', `${v(version)}.json`)).mtimeMs);
    previous = Math.max(mtime, previous + 1);
    if (version < from) continue;
    times.set(version, new Date(previous).toISOString());
    const select = async (action: Json, type?: string) =>
      duckCells(
        `SELECT *, ${type ? `'${type}' AS _change_type, ` : ''}${version} AS _commit_version FROM (${await fileSelect(root, metaData, action, type ? [] : ['_change_type'])})`,
        columns,
      );
    const cdc = actions.filter((a) => a.cdc).map((a) => a.cdc as Json);
    if (cdc.length > 0) for (const c of cdc) rows.push(...(await select(c)));
    else for (const a of actions.filter((x) => x.add?.dataChange)) rows.push(...(await select(a.add as Json, 'insert')));
  }
  return { rows: rows.sort(), times };
}

/** DuckDB's net difference of the snapshots at `from` and `to` as 'col|...|_change' sorted: the rows of `from`
 * EXCEPT ALL those of `to` as removed, and the other way round as added. */
export async function expectedNetDiff(root: string, from: number, to: number, columns: string[]): Promise<string[]> {
  const [older, newer] = [await liveRows(root, from), await liveRows(root, to)];
  const side = (a: string, b: string, change: string) =>
    duckCells(`SELECT *, '${change}' AS _change FROM ((${a}) EXCEPT ALL (${b}))`, [...columns, '_change']);
  return [...(await side(older, newer, 'removed')), ...(await side(newer, older, 'added'))].sort();
}

/** The files the change feed of (from, to] reads, counted from the log: each commit's change files, else its
 * data-changing removes and the adds that are not re-adds. */
export function feedFileCount(root: string, from: number, to: number): number {
  let files = 0;
  for (let version = from + 1; version <= to; version++) {
    const actions = readCommit(root, version);
    const cdc = actions.filter((a) => a.cdc).length;
    const removes = actions.filter((a) => a.remove?.dataChange).map((a) => a.remove.path as string);
    const adds = actions.filter((a) => a.add?.dataChange && !removes.includes(a.add.path)).length;
    files += cdc > 0 ? cdc : removes.length + adds;
  }
  return files;
}
