// Column profiles and partitions against DuckDB over the log's files and against the log's own numbers.
import { describe, expect, it } from 'vitest';
import type { ChangeRows, DiffResult } from '../../../../shared/api.js';
import type { PartitionSummary, TableProfile } from '../../../../shared/table-info.js';
import { changesTask, diffTask, profileTask } from '../../../../electron/jobs/tasks.js';
import { partitionSummaries } from '../../../../electron/delta/profile/partitions.js';
import { openSource } from '../../../../electron/delta/source.js';
import { tablePath } from '../../../support/tables.js';
import { cli } from '../../cli/run-cli.js';
import { oracleRecordCount, oracleSnapshot } from '../../../support/delta-oracle.js';
import { duckCells, fileSelect } from '../../../support/delta-oracle-rows.js';
import { openLocal, taskTables } from '../../../support/task-tables.js';

const tables = taskTables();

const signal = new AbortController().signal;

async function duckProfile(table: string, column: string) {
  const snapshot = await oracleSnapshot(tablePath(table), 0);
  const parts = await Promise.all([...snapshot.adds.values()].map((a) => fileSelect(tablePath(table), snapshot.metaData, a)));
  const q = `SELECT count(*) - count("${column}") AS nulls, min("${column}") AS mn, max("${column}") AS mx, count(DISTINCT "${column}") AS d FROM (${parts.join(' UNION ALL ')})`;
  const [row] = await duckCells(q, ['nulls', 'mn', 'mx', 'd']);
  return row.split('|');
}

describe('column profile', () => {
  it('from statistics and by exact scan equals DuckDB on COVID-19_NYT', async () => {
    const stats = await profileTask(tables, { table: { path: tablePath('COVID-19_NYT') } }, signal);
    const exact = await profileTask(tables, { table: { path: tablePath('COVID-19_NYT') }, exact: true }, signal);
    expect(stats.rowCount).toBe(oracleRecordCount(await oracleSnapshot(tablePath('COVID-19_NYT'), 0)));
    expect(exact.rowCount).toBe(stats.rowCount);
    for (const column of ['cases', 'deaths', 'fips', 'state']) {
      const [nulls, min, max, distinct] = await duckProfile('COVID-19_NYT', column);
      const s = stats.columns.find((c) => c.name === column)!;
      const e = exact.columns.find((c) => c.name === column)!;
      expect([s.source, s.nullCount, s.min, s.max]).toEqual(['statistics', Number(nulls), min, max]);
      expect([e.source, e.nullCount, e.min, e.max, e.distinct]).toEqual([
        'scan',
        Number(nulls),
        min,
        max,
        { count: Number(distinct), atLeast: false },
      ]);
    }
  }, 120_000);

  it('counts rows less deleted rows and leaves null counts unknown under deletion vectors', async () => {
    const profile: TableProfile = await profileTask(tables, { table: { path: tablePath('table-with-dv-small') } }, signal);
    expect(profile.rowCount).toBe(8);
    expect(profile.columns[0].nullCount).toBeNull();
    const exact = await profileTask(tables, { table: { path: tablePath('table-with-dv-small') }, exact: true }, signal);
    expect([exact.rowCount, exact.columns[0].min, exact.columns[0].max]).toEqual([8, '1', '8']);
  });

  it('prints the profile in the CLI, marked as from statistics', async () => {
    const run = await cli('profile', tablePath('COVID-19_NYT'));
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\(1111930 rows in version 0; from the log's statistics, nothing decoded: min and max are bounds\)\n$/);
  });
});

describe('partitions', () => {
  it('lists every partition with its files, rows and bytes, as the log says', async () => {
    const root = tablePath('partition-type-primitives');
    const source = await openSource({ tablePath: root }, openLocal);
    const partitions: PartitionSummary[] = partitionSummaries(source.snapshot, await source.table.fileStats(source.snapshot));
    const snapshot = await oracleSnapshot(root, 0);
    const expected = new Map<string, { files: number; rows: number; bytes: number }>();
    for (const add of snapshot.adds.values()) {
      const key = JSON.stringify(add.partitionValues);
      const e = expected.get(key) ?? { files: 0, rows: 0, bytes: 0 };
      e.files++;
      e.rows += JSON.parse(add.stats).numRecords;
      e.bytes += add.size;
      expected.set(key, e);
    }
    expect(partitions).toHaveLength(expected.size);
    for (const p of partitions) {
      const raw = Object.fromEntries(Object.entries(p.values).map(([k, v]) => [k, v]));
      const match = [...expected.entries()].find(([key]) => {
        const values = JSON.parse(key) as Record<string, string | null>;
        return Object.keys(raw).every((k) => (values[k] === '' ? null : values[k]) === raw[k]);
      });
      expect(match?.[1]).toEqual({ files: p.files, rows: p.rows, bytes: p.bytes });
    }
  });
});

describe('diff and changes through the API tasks', () => {
  it('answers rows as JSON with the change columns', async () => {
    const diff: DiffResult = await diffTask(tables, { path: tablePath('cdf-table-with-cdc-and-dvs'), from: 4, to: 5, limit: 10 }, signal);
    expect(diff.filesWithNewDeletions).toHaveLength(1);
    // v5 is a DELETE by deletion vector without change files: the feed reads the one file it re-adds.
    expect(diff.rowsFrom).toEqual({ source: 'change-feed', files: 1 });
    expect(diff.columns.map((c) => c.name)).toEqual(['id', 'comment', '_change']);
    expect(diff.rows.map((r) => r[2])).toEqual(['removed', 'removed']);
    const changes: ChangeRows = await changesTask(tables, { path: tablePath('cdf-table'), from: 0, limit: 5 }, signal);
    expect([changes.rows.length, changes.truncated, changes.to]).toEqual([5, true, 3]);
    expect(changes.columns.map((c) => c.name).slice(-3)).toEqual(['_change_type', '_commit_version', '_commit_timestamp']);
  });
});
