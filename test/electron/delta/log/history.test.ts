import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../../electron/delta/engine/engine-context.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import type { Storage } from '../../../../electron/storage/storage.js';
import { failure } from '../../../support/failure.js';
import { MemoryStorage } from '../../../support/memory-storage.js';
import { tablePath } from '../../../support/tables.js';
import { commitInfo, commitVersions } from '../../../support/delta-oracle.js';
import { localReads } from '../../../support/task-tables.js';
import { scratchFolders } from '../log-files.js';

const scratch = scratchFolders('history');
afterAll(() => scratch.removeAll());

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

  it('stops reading commit files once cancelled: a long history ends CANCELLED after its first group of commits', async () => {
    // 100 commits written by delta-rs (the benchmark's long-log writer, no checkpoint among them).
    const written = path.join(scratch.make(), 'hundred');
    execFileSync('python3', [path.join(import.meta.dirname, '../../../bench/deltars-long-log.py'), 'write', written, '100', '1000']);
    const root = '/in-memory/hundred';
    const store = new MemoryStorage();
    store.copyFolder(written, root);
    const controller = new AbortController();
    const isCommit = (location: string) => /\/_delta_log\/\d{20}\.json$/.test(location);
    // The user cancels as the first commit file is read.
    const watched: Storage = Object.create(store, {
      read: {
        value: (location: string) => {
          if (isCommit(location)) controller.abort();
          return store.read(location);
        },
      },
    });
    const engine: EngineContext = { storage: () => watched, settings: () => null };
    const table = await DeltaTable.open(root, engine);
    const err = await failure(table.history({ signal: controller.signal }));
    expect(err.code).toBe('CANCELLED');
    const commitsRead = new Set(store.asked.filter(isCommit));
    expect(commitsRead.size).toBeGreaterThan(0);
    // One group of commit files was under way when the cancel came; none after it was read.
    expect(commitsRead.size).toBeLessThanOrEqual(32);
  }, 120_000);
});
