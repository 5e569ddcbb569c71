// Expected changes of cdf-table-like tables (partitioned, without deletion vectors), from their own log and DuckDB
// over the files it names: a change feed's rows are each commit's _change_data files, else its data-changing adds
// as inserts, with the commit times of the log; a diff's rows are the live rows of the files only in one snapshot.
import fs from 'node:fs';
import path from 'node:path';
import { duckCells, fileSelect } from '../../support/delta-oracle-rows.js';
import { oracleSnapshot, readCommit, type Json, type OracleSnapshot } from '../../support/delta-oracle.js';
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

/** The diff of from..to as 'col|...|_change' sorted: rows of files only at `from` removed, only at `to` added. */
export async function expectedDiff(root: string, from: number, to: number): Promise<string[]> {
  const [older, newer] = await Promise.all([oracleSnapshot(root, from), oracleSnapshot(root, to)]);
  const only = (a: OracleSnapshot, b: OracleSnapshot) => [...a.adds].filter(([key]) => !b.adds.has(key)).map(([, add]) => add);
  const rowsOf = async (files: Json[], change: string) => {
    if (files.length === 0) return [];
    const parts = await Promise.all(files.map((add) => fileSelect(root, newer.metaData, add)));
    return duckCells(`SELECT *, '${change}' AS _change FROM (${parts.join(' UNION ALL BY NAME ')})`, [
      ...dataColumns(newer.metaData),
      '_change',
    ]);
  };
  return [...(await rowsOf(only(older, newer), 'removed')), ...(await rowsOf(only(newer, older), 'added'))].sort();
}
