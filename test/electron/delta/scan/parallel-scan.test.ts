// The scan run in a thread of its own must be indistinguishable from the in-thread scan: the same batches with the
// same rows, types and positions, the same resume and limit, the same cancel and errors, and no thread left behind.
import { cpSync, rmSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parallelScan } from '../../../../electron/delta/scan/parallel-scan.js';
import { scan } from '../../../../electron/delta/scan/scan.js';
import type { ScanBatch, ScanOptions } from '../../../../electron/delta/scan/scan-types.js';
import type { Snapshot } from '../../../../electron/delta/snapshot.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { cancelledError, DeltaportError } from '../../../../shared/errors.js';
import { liveColumnValues } from '../../../support/delta-oracle-rows.js';
import { PIECES_COLUMNS, writePiecesTable } from '../../../support/delta-writer/pieces-table.js';
import { tablePath } from '../../../support/tables.js';
import { scratchFolders } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

const started = vi.hoisted(() => [] as Worker[]);
vi.mock('../../../../electron/threads/start-worker.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../electron/threads/start-worker.js')>();
  return {
    startWorker: (...args: Parameters<typeof actual.startWorker>) => {
      const worker = actual.startWorker(...args);
      started.push(worker);
      return worker;
    },
  };
});

async function snapshotOf(root: string): Promise<Snapshot> {
  return (await DeltaTable.open(root, localReads)).snapshot();
}

/** The batch's values column by column (cheaper than row objects on a million rows). */
function rowsOf(batch: RecordBatch): string {
  const columns = batch.schema.fields.map((_, c) => [...batch.getChildAt(c)!]);
  return JSON.stringify(columns, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** Everything a consumer can observe of a stream of batches. */
async function observe(batches: AsyncGenerator<ScanBatch>) {
  const seen = [];
  for await (const { batch, end, bytesDone, filesDone } of batches) {
    seen.push({
      types: batch.schema.fields.map((f) => `${f.name}: ${f.type} ${f.nullable}`),
      rows: rowsOf(batch),
      end,
      bytesDone,
      filesDone,
    });
  }
  return seen;
}

async function bothWays(snapshot: Snapshot, scanOptions: Omit<ScanOptions, 'engine'>) {
  const options = { engine: localReads, ...scanOptions };
  return { inThread: await observe(scan(snapshot, options)), parallel: await observe(parallelScan(snapshot, options)) };
}

const scratch = scratchFolders('parallel-scan');
afterAll(() => scratch.removeAll());

describe('parallelScan on real tables', () => {
  const tables = [
    'COVID-19_NYT',
    'table-with-dv-small',
    'delta-0.8.0-partitioned',
    'table_with_column_mapping',
    'delta-2.2.0-partitioned-types',
    'table_with_edge_timestamps',
  ];
  for (const name of tables) {
    it(`yields what the in-thread scan yields: ${name}`, async () => {
      const snapshot = await snapshotOf(tablePath(name));
      const { inThread, parallel } = await bothWays(snapshot, { batchSize: 2048 });
      expect(inThread.length).toBeGreaterThan(0);
      expect(parallel).toEqual(inThread);
    });
  }

  it('joins runs of small batches into one message and still yields each batch with its own position', async () => {
    // Deletion vectors cut this table's file into runs of a few rows each.
    const snapshot = await snapshotOf(tablePath('table-with-dv-small'));
    const { inThread, parallel } = await bothWays(snapshot, { batchSize: 3 });
    expect(inThread.length).toBeGreaterThan(1);
    expect(parallel).toEqual(inThread);
  });

  it('keeps every batch as it was when later pieces are decoded into the same buffers', async () => {
    // Row groups of 150 rows: each is a piece of its own, decoded into the buffers of the piece before (the thread
    // reuses them), and each is a batch under 256 rows, held back until 2048 rows are joined. The consumer holds every
    // batch until the end, as a sink holds a transaction's, and reads them only then.
    const root = path.join(scratch.make(), 'held');
    await writePiecesTable(root, [4000, 4000, 4000]);
    const kept: RecordBatch[] = [];
    for await (const { batch } of parallelScan(await snapshotOf(root), { engine: localReads, batchSize: 2048 })) kept.push(batch);
    expect(kept.some((b) => b.numRows < 256)).toBe(true);
    // Rows in id order: the scan reads the files in the snapshot's order, DuckDB in the log's.
    const byId = (values: unknown[][]) =>
      values[0].map((_, r) => values.map((v) => v[r])).sort((a, b) => Number((a[0] as bigint) - (b[0] as bigint)));
    const scanned = byId(PIECES_COLUMNS.map((c) => kept.flatMap((b) => [...b.getChild(c)!])));
    expect(scanned).toEqual(byId(await Promise.all(PIECES_COLUMNS.map((c) => liveColumnValues(root, c)))));
  });

  it('resumes from a position and stops at a limit as the in-thread scan does', async () => {
    const snapshot = await snapshotOf(tablePath('COVID-19_NYT'));
    const all = await observe(scan(snapshot, { engine: localReads, batchSize: 4096 }));
    const middle = all[Math.floor(all.length / 2)].end;
    const resumed = await bothWays(snapshot, { batchSize: 4096, resumeFrom: middle });
    expect(resumed.parallel).toEqual(resumed.inThread);
    expect(resumed.parallel[0].end).not.toEqual(all[0].end);
    const limited = await bothWays(snapshot, { batchSize: 1000, limit: 2500, columns: ['county', 'cases'] });
    expect(limited.parallel).toEqual(limited.inThread);
    expect(limited.parallel.map((b) => b.end.rowsInFile)).toEqual([1000, 2000, 2500]);
  });

  it("stops at a cancel with the scan's own error and ends its thread", async () => {
    const snapshot = await snapshotOf(tablePath('COVID-19_NYT'));
    const controller = new AbortController();
    let batches = 0;
    const run = (async () => {
      for await (const _ of parallelScan(snapshot, { engine: localReads, batchSize: 1000, signal: controller.signal })) {
        if (++batches === 3) controller.abort();
      }
    })();
    await expect(run).rejects.toEqual(cancelledError('scan'));
    expect(batches).toBe(3);
    await expect.poll(lastThreadRunning).toBe(false);
  });

  it('ends its thread when the consumer stops early', async () => {
    const snapshot = await snapshotOf(tablePath('COVID-19_NYT'));
    for await (const { batch } of parallelScan(snapshot, { engine: localReads, batchSize: 1000 })) {
      expect(batch.numRows).toBe(1000);
      break;
    }
    await expect.poll(lastThreadRunning).toBe(false);
  });

  it('reports an error of the scan thread as the same one-line error as the in-thread scan', async () => {
    const root = scratch.make();
    cpSync(tablePath('delta-0.8.0-partitioned'), root, { recursive: true });
    const snapshot = await snapshotOf(root);
    rmSync(snapshot.files[1].absolutePath);
    const inThread = await observe(scan(snapshot, { engine: localReads })).catch((err: unknown) => err);
    expect(inThread).toBeInstanceOf(DeltaportError);
    const parallel = await observe(parallelScan(snapshot, { engine: localReads })).catch((err: unknown) => err);
    expect(parallel).toEqual(inThread);
    expect(parallel).toBeInstanceOf(DeltaportError);
    expect((parallel as DeltaportError).code).toBe((inThread as DeltaportError).code);
    expect((parallel as DeltaportError).message).toBe((inThread as DeltaportError).message);
  });
});

/** Whether the scan thread last started is still running (an ended Worker's threadId is -1). */
function lastThreadRunning(): boolean {
  return started[started.length - 1].threadId !== -1;
}
