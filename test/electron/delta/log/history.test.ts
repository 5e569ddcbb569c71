import { describe, expect, it } from 'vitest';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { tablePath } from '../../../support/tables.js';
import { commitInfo, commitVersions } from '../../../support/delta-oracle.js';
import { localReads } from '../../../support/task-tables.js';

describe('DeltaTable.history', () => {
  it.each(['simple_table', 'table_with_deletion_logs', 'cdf-table', 'checkpoint-v2-table', 'delta-0.8.0', 'http_requests'])(
    '%s: one entry per commit, newest first, as its commitInfo says',
    async (name) => {
      const root = tablePath(name);
      const versions = commitVersions(root).reverse();
      const history = await (await DeltaTable.open(root, localReads)).history();
      expect(history.map((c) => c.version)).toEqual(versions);
      for (const entry of history) {
        const info = commitInfo(root, entry.version) ?? {};
        expect(entry).toMatchObject({
          commitInfoTimestamp: info.timestamp ?? null,
          operation: info.operation ?? null,
          operationParameters: info.operationParameters ?? {},
          operationMetrics: info.operationMetrics ?? {},
          engineInfo: info.engineInfo ?? null,
          userName: info.userName ?? null,
          isBlindAppend: info.isBlindAppend ?? null,
        });
      }
    },
  );

  it('reports a DELETE with its deletion-vector metrics', async () => {
    // Values as in table_with_deletion_logs/_delta_log/00000000000000000003.json.
    const history = await (await DeltaTable.open(tablePath('table_with_deletion_logs'), localReads)).history();
    const entry = history.find((c) => c.version === 3);
    expect(entry?.operation).toBe('DELETE');
    expect(entry?.operationMetrics).toMatchObject({ numDeletionVectorsAdded: '1', numDeletedRows: '1', numAddedFiles: '0' });
    expect(entry?.engineInfo).toBe('Databricks-Runtime/12.2.x-photon-scala2.12');
  });

  it('stops at the limit, newest first', async () => {
    const table = await DeltaTable.open(tablePath('simple_table'), localReads);
    expect((await table.history({ limit: 2 })).map((c) => c.version)).toEqual([4, 3]);
    expect(await table.history({ limit: 0 })).toEqual([]);
  });

  it('leaves out versions whose commits are gone', async () => {
    const history = await (await DeltaTable.open(tablePath('checkpoints_vacuumed'), localReads)).history();
    expect(history.map((c) => c.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5]);
    const withPartitions = await (await DeltaTable.open(tablePath('checkpoint_with_partitions'), localReads)).history();
    // Commit 1 is still in the folder but precedes the earliest readable version (the checkpoint at 2).
    expect(withPartitions.map((c) => c.version)).toEqual([2]);
  });
});
