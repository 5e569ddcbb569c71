// A read takes its storage from the engine context it is given: a real table copied into a store in memory reads
// through it alone (its root exists nowhere on disk), and gives the rows DuckDB reads from the original's live files
// (which the table's own log names, read by the test's oracle).
import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../../electron/delta/engine/engine-context.js';
import { parallelScan } from '../../../../electron/delta/scan/parallel-scan.js';
import { forTable } from '../../../../electron/delta/source.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { dataFile, liveFiles } from '../../../support/delta-oracle.js';
import { duck, sqlText } from '../../../support/duckdb.js';
import { MemoryStorage } from '../../../support/memory-storage.js';
import { tablePath } from '../../../support/tables.js';
import { localReads } from '../../../support/task-tables.js';

const original = tablePath('simple_table');
const root = '/in-memory/simple_table';

function memoryEngine(): { engine: EngineContext; store: MemoryStorage } {
  const store = new MemoryStorage();
  store.copyFolder(original, root);
  return { store, engine: { storage: () => store, settings: () => null } };
}

async function expectedIds(version?: number): Promise<number[]> {
  const files = (await liveFiles(original, version)).map((add) => sqlText(dataFile(original, add)));
  const rows = await duck<{ id: bigint }>(`SELECT id FROM read_parquet([${files.join(', ')}]) ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

async function readIds(engine: EngineContext, version?: number): Promise<number[]> {
  const builder = forTable(root, engine);
  if (version !== undefined) builder.versionAsOf(version);
  const source = await builder.build();
  const ids: number[] = [];
  for await (const { batch } of source.batches()) for (const row of batch) ids.push(Number(row?.id));
  return ids.sort((a, b) => a - b);
}

describe('the engine context', () => {
  it('reads a table from an in-memory store: the latest version and an older one, as DuckDB reads the files', async () => {
    const { engine, store } = memoryEngine();
    expect(await readIds(engine)).toEqual(await expectedIds());
    expect(await readIds(engine, 0)).toEqual(await expectedIds(0));
    expect(store.asked.some((location) => location.startsWith(`${root}/_delta_log`))).toBe(true);
    expect(store.asked.some((location) => location.endsWith('.parquet'))).toBe(true);
  });

  it('opens a table through the engine only: the same root without it is no table', async () => {
    const { engine } = memoryEngine();
    expect((await DeltaTable.open(root, engine)).root).toBe(root);
    await expect(DeltaTable.open(root, localReads)).rejects.toMatchObject({ code: 'TABLE_NOT_FOUND' });
  });

  it('refuses to carry an engine that lives in this thread only into a scan thread', async () => {
    const { engine } = memoryEngine();
    const snapshot = await (await DeltaTable.open(root, engine)).snapshot();
    await expect(parallelScan(snapshot, { engine }).next()).rejects.toThrow(/reads from its own thread only/);
  });
});
