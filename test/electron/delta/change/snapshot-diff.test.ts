// Diffs of two versions against the logs: files added and removed by path, schema and property changes from the
// metaData actions, rows from DuckDB's reads of the differing files (a deletion-vector DELETE: the rows of the
// file its logged predicate matches). The rows of the file sets are read on copies of the CDF tables with the feed
// turned off (feed-diff.test.ts has the diffs from the feed).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { diffSnapshots } from '../../../../electron/delta/change/snapshot-diff.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { cli } from '../../cli/run-cli.js';
import { commitFile, type Json, oracleSnapshot, readCommit } from '../../../support/delta-oracle.js';
import { duckCells, fileSelect } from '../../../support/delta-oracle-rows.js';
import { diffRows } from '../diff-rows.js';
import { scratchFolders } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

const scratch = scratchFolders('diff');
afterAll(() => scratch.removeAll());

/** A copy of a corpus table whose commit 0 does not turn the change data feed on. */
function withoutFeed(table: string): string {
  const root = path.join(scratch.make(), table);
  cpSync(tablePath(table), root, { recursive: true });
  const first = readFileSync(commitFile(root, 0), 'utf8');
  writeFileSync(commitFile(root, 0), first.replace('"delta.enableChangeDataFeed":"true"', '"delta.enableChangeDataFeed":"false"'));
  return root;
}

/** Paths only in one of the two versions, by the naive replay. */
async function fileChanges(root: string, from: number, to: number) {
  const [a, b] = [await oracleSnapshot(root, from), await oracleSnapshot(root, to)];
  const paths = (s: typeof a) => new Set([...s.adds.values()].map((x) => x.path as string));
  const [pa, pb] = [paths(a), paths(b)];
  return {
    older: a,
    newer: b,
    removed: [...a.adds.values()].filter((x) => !pb.has(x.path)),
    added: [...b.adds.values()].filter((x) => !pa.has(x.path)),
  };
}

describe('snapshot diff', () => {
  it('cdf-table 0 -> 3: the rows of the files removed and added (updates as removed + added)', async () => {
    const columns = ['id', 'name', 'birthday'];
    const root = withoutFeed('cdf-table');
    const { diff, rows } = await diffRows(root, 0, 3, columns);
    const files = await fileChanges(root, 0, 3);
    expect([...diff.filesRemoved].sort()).toEqual(files.removed.map((x) => x.path).sort());
    expect([...diff.filesAdded].sort()).toEqual(files.added.map((x) => x.path).sort());
    expect(diff.rowsFrom).toEqual({ source: 'data-files', files: files.removed.length + files.added.length });
    const expected: string[] = [];
    for (const [list, change, meta] of [
      [files.removed, 'removed', files.older.metaData],
      [files.added, 'added', files.newer.metaData],
    ] as const) {
      for (const add of list)
        expected.push(
          ...(await duckCells(`SELECT *, '${change}' AS _change FROM (${await fileSelect(root, meta, add)})`, [...columns, '_change'])),
        );
    }
    expect(rows).toEqual(expected.sort());
    expect(rows.some((r) => r.endsWith('|added'))).toBe(true);
    expect(diff.schema).toEqual([]);
  });

  it('cdf-table-with-cdc-and-dvs 4 -> 5: a DELETE by deletion vector reads only that file, the rows its predicate matched', async () => {
    const root = withoutFeed('cdf-table-with-cdc-and-dvs');
    const { diff, rows } = await diffRows(root, 4, 5, ['id', 'comment']);
    expect([diff.filesAdded, diff.filesRemoved]).toEqual([[], []]);
    expect(diff.rowsFrom).toEqual({ source: 'data-files', files: 1 });
    const commit = readCommit(root, 5);
    const remove = commit.find((a) => a.remove)!.remove as Json;
    expect(diff.filesWithNewDeletions).toEqual([remove.path]);
    const info = commit.find((a) => a.commitInfo)!.commitInfo as Json;
    const predicate = (JSON.parse(info.operationParameters.predicate) as string[]).join(' AND ').replace(/#\d+/g, '');
    const older = await oracleSnapshot(root, 4);
    const expected = await duckCells(
      `SELECT *, 'removed' AS _change FROM (${await fileSelect(root, older.metaData, remove)})`,
      ['id', 'comment', '_change'],
      predicate,
    );
    expect(rows).toEqual(expected.sort());
    expect(rows).toHaveLength(Number(info.operationMetrics.numDeletedRows));
  });

  it('reports schema changes from the metaData actions (delta-1.2.1-only-struct-stats adds new_column at 10)', async () => {
    const diff = await diffSnapshots(await DeltaTable.open(tablePath('delta-1.2.1-only-struct-stats'), localReads), 9, 10);
    const meta = readCommit(tablePath('delta-1.2.1-only-struct-stats'), 10).find((a) => a.metaData)!.metaData as Json;
    const added = (JSON.parse(meta.schemaString).fields as Json[]).at(-1)!;
    expect(diff.schema).toEqual([{ name: added.name, from: null, to: `${added.type}${added.nullable ? '' : ' not null'}` }]);
    expect(diff.properties).toEqual([]);
    expect(diff.protocol).toEqual([]);
  });

  it('prints the changes and rows in the CLI', async () => {
    const run = await cli('diff', tablePath('cdf-table-with-cdc-and-dvs'), '--from', '4', '--to', '5');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^version 4 -> 5\nfiles: 0 added, 0 removed, 1 with rows newly deleted\n/);
    expect(run.stdout).toMatch(/\(2 changed rows\)\nrows from the change data feed \(1 file read\)\n$/);
    const jsonl = await cli('diff', tablePath('cdf-table-with-cdc-and-dvs'), '--from', '4', '--to', '5', '--format', 'jsonl');
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)._change),
    ).toEqual(['removed', 'removed']);
    const bad = await cli('diff', tablePath('cdf-table-with-cdc-and-dvs'), '--from', '99');
    expect(bad.stderr).toMatch(/^deltaport: .*99.*\n$/);
    expect((await cli('diff', tablePath('cdf-table'))).stderr).toBe('deltaport: --from is required\n');
  });
});

describe('updates paired by key', () => {
  it('cdf-table 0 -> 3 by id: changed rows as updated_from/updated_to, copies dropped, the deleted row removed', async () => {
    const columns = ['id', 'name', 'birthday'];
    const files = await fileChanges(tablePath('cdf-table'), 0, 3);
    const read = async (list: Json[], meta: Json) =>
      (await Promise.all(list.map(async (a) => duckCells(await fileSelect(tablePath('cdf-table'), meta, a), columns)))).flat();
    const [before, after] = [await read(files.removed, files.older.metaData), await read(files.added, files.newer.metaData)];
    const byId = (rows: string[]) => new Map(rows.map((r) => [r.split('|')[0], r]));
    const [old, now] = [byId(before), byId(after)];
    const expected: string[] = [];
    for (const [id, row] of now) {
      const was = old.get(id);
      if (!was) expected.push(`${row}|added`);
      else if (was !== row) expected.push(`${was}|updated_from`, `${row}|updated_to`);
    }
    for (const [id, row] of old) if (!now.has(id)) expected.push(`${row}|removed`);

    const run = await cli('diff', tablePath('cdf-table'), '--from', '0', '--to', '3', '--pair-by', 'id', '--format', 'csv');
    expect(run.stderr).toBe('');
    const lines = run.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.replaceAll(',', '|'));
    expect([...lines].sort()).toEqual([...expected].sort());
    // Each updated_to follows its updated_from.
    lines.forEach((l, i) => {
      if (l.endsWith('|updated_to')) expect(lines[i - 1].split('|')[0]).toBe(l.split('|')[0]);
    });
    expect(expected.some((r) => r.endsWith('|updated_to'))).toBe(true);
    const bad = await cli('diff', tablePath('cdf-table'), '--from', '0', '--pair-by', 'nope');
    expect(bad.stderr).toBe("deltaport: --pair-by: no column 'nope' in version 3\n");
  });
});

describe('diff and changes exported like a snapshot', () => {
  it('writes a diff to Parquet and a change feed to SQLite, with their change columns', async () => {
    const dir = scratch.make();
    const parquet = path.join(dir, 'diff.parquet');
    const run = await cli('diff', tablePath('cdf-table'), '--from', '0', '--to', '3', '--sink', `parquet:${parquet}`);
    expect(run.stderr).toBe('');
    const { rows } = await diffRows(tablePath('cdf-table'), 0, 3, ['id', 'name', 'birthday']);
    expect(run.stdout).toMatch(new RegExp(`^exported ${rows.length} rows in `));
    const back = await duckCells(`SELECT * FROM read_parquet('${parquet}')`, ['id', 'name', 'birthday', '_change']);
    expect(back.sort()).toEqual(rows);

    const db = path.join(dir, 'feed.db');
    const feed = await cli('changes', tablePath('cdf-table'), '--from', '1', '--to', '2', '--sink', `sqlite:${db}`, '--target', 'feed');
    expect(feed.stderr).toBe('');
    const sqlite = new Database(db, { readonly: true });
    const counts = sqlite
      .prepare('SELECT _change_type AS t, _commit_version AS v, count(*) AS n FROM feed GROUP BY 1, 2 ORDER BY 2, 1')
      .all();
    sqlite.close();
    // Versions 1 and 2 are UPDATEs of three rows each (commitInfo.operationMetrics.numUpdatedRows).
    const updated = [1, 2].map((version) =>
      Number((readCommit(tablePath('cdf-table'), version).find((a) => a.commitInfo)!.commitInfo as Json).operationMetrics.numUpdatedRows),
    );
    expect(counts).toEqual([
      { t: 'update_postimage', v: 1, n: updated[0] },
      { t: 'update_preimage', v: 1, n: updated[0] },
      { t: 'update_postimage', v: 2, n: updated[1] },
      { t: 'update_preimage', v: 2, n: updated[1] },
    ]);
    const once = await cli('changes', tablePath('cdf-table'), '--from', '1', '--sink', `sqlite:${db}`, '--exactly-once');
    expect(once.stderr).toBe('deltaport: --exactly-once applies only to snapshot exports\n');
  });
});

describe('change feed in the CLI', () => {
  it('prints cdf-table changes with their metadata columns', async () => {
    const run = await cli('changes', tablePath('cdf-table'), '--from', '3', '--format', 'csv');
    expect(run.stderr).toBe('');
    const [head, ...lines] = run.stdout.trim().split('\n');
    expect(head).toBe('id,name,birthday,_change_type,_commit_version,_commit_timestamp');
    // Version 3 deleted one row through a change file (cdc action).
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^7,Dennis,2023-12-29,delete,3,/);
  });
});
