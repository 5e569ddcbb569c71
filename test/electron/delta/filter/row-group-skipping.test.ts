// Row-group skipping on a table written here (the shared tables hold one row group per file): one sorted file of
// ten row groups, with a deletion vector. Which groups the Parquet statistics rule out is checked against DuckDB's
// parquet_metadata(); the rows against DuckDB's read of the file less the rows this test deleted.
import path from 'node:path';
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StructType } from '../../../../shared/delta-schema.js';
import { compileFilter } from '../../../../shared/expression/index.js';
import { skippedRowGroups } from '../../../../electron/delta/filter/row-group-skipping.js';
import { openParquet } from '../../../../electron/delta/engine/parquet-file.js';
import { LocalStorage } from '../../../../electron/storage/local-storage.js';
import { openSource } from '../../../../electron/delta/source.js';
import { parallelScan } from '../../../../electron/delta/scan/parallel-scan.js';
import { scan } from '../../../../electron/delta/scan/scan.js';
import type { ScanBatch, ScanPosition } from '../../../../electron/delta/scan/scan-types.js';
import { DeltaTableWriter } from '../../../support/delta-writer/table-writer.js';
import { duck, sqlText } from '../../../support/duckdb.js';
import { scratchFolders } from '../log-files.js';
import { localReads, openLocal } from '../../../support/task-tables.js';

const local = new LocalStorage();

const scratch = scratchFolders('row-groups');
afterAll(() => scratch.removeAll());

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: true },
    { name: 'name', type: 'string', nullable: true },
  ],
};
const ROWS = 1000;
const DELETED = [150, 151, 420, 999];
let root: string;
let file: string;

beforeAll(async () => {
  root = path.join(scratch.make(), 't');
  const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, deletionVectors: true, rowGroupRows: 100 });
  const ids = Array.from({ length: ROWS }, (_, i) => BigInt(i));
  const data = new arrow.Table({
    id: arrow.vectorFromArray(ids, new arrow.Int64()),
    name: arrow.vectorFromArray(
      ids.map((i) => (i % 7n === 0n ? null : `n${String(i).padStart(4, '0')}`)),
      new arrow.Utf8(),
    ),
  });
  await writer.append([{ data }]);
  const source = await openSource({ tablePath: root }, openLocal);
  file = source.snapshot.files[0].absolutePath;
  await writer.deleteRows(source.snapshot.files[0].add.path, DELETED, { predicate: 'test' });
});

async function ours(filter: string, batchSize = 2048, resumeFrom?: ScanPosition) {
  const source = await openSource({ tablePath: root, filter, options: { parquetBatchSize: batchSize } }, openLocal);
  const out: { ids: number[]; end: ScanPosition }[] = [];
  for await (const { batch, end } of source.batches({ resumeFrom })) {
    out.push({ ids: [...(batch.getChild('id')!.toArray() as BigInt64Array)].map(Number), end });
  }
  return out;
}

async function expected(where: string): Promise<number[]> {
  const rows = await duck<{ id: bigint }>(
    `SELECT id FROM read_parquet(${sqlText(file)}) WHERE (${where}) AND id NOT IN (${DELETED.join(', ')}) ORDER BY id`,
  );
  return rows.map((r) => Number(r.id));
}

describe('row-group skipping', () => {
  const filters = [
    'id >= 250 AND id < 300',
    "id BETWEEN 140 AND 160 OR id > 950 OR name = 'n0420'",
    "name LIKE 'n05%' AND id <> 500",
    'name IS NULL AND id > 900',
  ];

  for (const filter of filters) {
    it(`skips the groups DuckDB's statistics rule out and keeps DuckDB's rows: ${filter}`, async () => {
      const groups = await duck<{ row_group_id: bigint; path_in_schema: string; stats_min_value: string; stats_max_value: string }>(
        `SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value FROM parquet_metadata(${sqlText(file)}) WHERE path_in_schema = 'id'`,
      );
      expect(groups).toHaveLength(10);
      const compiled = compileFilter(filter, SCHEMA);
      if (!compiled.ok) throw new Error(compiled.message);
      const handle = await openParquet(local, file);
      const skipped = skippedRowGroups(
        await handle.footer(),
        { add: { path: '', partitionValues: {}, size: 0, modificationTime: 0, dataChange: true }, absolutePath: file },
        compiled.expr,
        {
          fields: SCHEMA.fields,
          partitionColumns: new Set(),
          mode: 'none',
        },
      );
      handle.close();
      // A group is needed where DuckDB finds a matching row between its own bounds (deletions aside).
      const needed = new Set<number>();
      for (const g of groups) {
        const [n] = await duck<{ n: bigint }>(
          `SELECT count(*) AS n FROM read_parquet(${sqlText(file)}) WHERE id BETWEEN ${g.stats_min_value} AND ${g.stats_max_value} AND (${filter})`,
        );
        if (n.n > 0n) needed.add(Number(g.row_group_id));
      }
      for (const g of needed) expect(skipped.has(g)).toBe(false);
      expect(skipped.size).toBeGreaterThanOrEqual(filter.startsWith('id >=') ? 9 : 5);
      expect((await ours(filter)).flatMap((b) => b.ids)).toEqual(await expected(filter));
    });
  }

  it('skips the same row groups in a scan thread as in process', async () => {
    const compiled = compileFilter("id BETWEEN 140 AND 160 OR id > 950 OR name = 'n0420'", SCHEMA);
    if (!compiled.ok) throw new Error(compiled.message);
    const source = await openSource({ tablePath: root }, openLocal);
    const options = { batchSize: 64, rowGroupFilter: compiled.expr, engine: localReads };
    const observe = async (batches: AsyncIterable<ScanBatch>) => {
      const seen: [number[], ScanPosition][] = [];
      for await (const { batch, end } of batches) seen.push([[...(batch.getChild('id')!.toArray() as BigInt64Array)].map(Number), end]);
      return seen;
    };
    const inProcess = await observe(scan(source.snapshot, options));
    expect(await observe(parallelScan(source.snapshot, options))).toEqual(inProcess);
    // Only groups 1, 4 and 9 hold candidates: 300 of the 1000 rows (less deletions) are decoded.
    expect(inProcess.flatMap(([ids]) => ids)).toHaveLength(300 - DELETED.length);
  });

  it('resumes after any batch to the same rows (positions count skipped groups)', async () => {
    const filter = "id BETWEEN 140 AND 160 OR id > 950 OR name = 'n0420'";
    const all = await ours(filter, 8);
    const ids = all.flatMap((b) => b.ids);
    expect(ids).toEqual(await expected(filter));
    for (let k = 0; k < all.length; k++) {
      const rest = (await ours(filter, 8, all[k].end)).flatMap((b) => b.ids);
      expect(rest).toEqual(all.slice(k + 1).flatMap((b) => b.ids));
    }
  });
});
