// A filtered export whose skipping the log tells in advance: partition-type-primitives has sixteen one-row files;
// `category = 'A'` rules out by partition value every file of another category, and `id > 10` by statistics every
// file whose maxValues.id is at most 10. The figures are read off the log here, the rows from DuckDB.
import type { FilterSkipping } from '../../../shared/table-info.js';
import { tablePath } from '../../support/tables.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { oracleSnapshot, type Json } from '../../support/delta-oracle.js';

export const FILTERED_TABLE = tablePath('partition-type-primitives');
export const FILTER = "category = 'A' AND id > 10";

/** What the log says the filter can leave unread, and how many rows DuckDB keeps. */
export async function expectedFilteredExport(): Promise<{ skipping: FilterSkipping; rows: number }> {
  const adds = [...(await oracleSnapshot(FILTERED_TABLE, 0)).adds.values()];
  const skipped = adds.filter((add: Json) => {
    const stats = JSON.parse(add.stats as string) as Json;
    return add.partitionValues.category !== 'A' || (stats.maxValues.id as number) <= 10;
  });
  const bytes = (list: Json[]) => list.reduce((n, add) => n + (add.size as number), 0);
  const { rows } = await duckdbRows(FILTERED_TABLE, 0, FILTER, ['id']);
  return {
    skipping: { filesTotal: adds.length, filesSkipped: skipped.length, bytesTotal: bytes(adds), bytesSkipped: bytes(skipped) },
    rows: rows.length,
  };
}
