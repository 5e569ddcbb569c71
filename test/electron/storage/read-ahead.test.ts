// Reading ahead from an object store: what it holds stays within its bound, the bytes it serves are the store's, and
// a scan of a table in a bucket fetches its first data file whole at the start and the next ones while it decodes the
// one before (several small ones at once, as far as its limits go), giving the rows DuckDB reads from the same files.
// A data file is opened at the size the log records, without asking the store, and one rewritten behind the log is
// read at its own; once a scan is cancelled, nothing more reaches the store. The store is real Delta tables copied
// into memory at an s3:// root (the reader takes any location there for an object store's), whose reads the test can
// hold back, count and redirect.
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../shared/expression/index.js';
import type { EngineContext } from '../../../electron/delta/engine/engine-context.js';
import { fileReadAhead } from '../../../electron/delta/scan/file-read-ahead.js';
import type { FilePlan } from '../../../electron/delta/scan/scan-plan.js';
import { scan } from '../../../electron/delta/scan/scan.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { ReadAhead } from '../../../electron/storage/read-ahead.js';
import { StorageError, type ObjectMeta } from '../../../electron/storage/storage.js';
import { dataFile, liveFiles } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { MemoryStorage } from '../../support/memory-storage.js';
import { tablePath } from '../../support/tables.js';

/** A store in memory whose ranged reads and stats are recorded (and `starting` called as each starts), whose reads wait
 * while `held` is set until it is released, and whose objects can be made to hold another's bytes (rewritten behind
 * the log). */
class CountingStore extends MemoryStorage {
  readonly ranges: { location: string; offset: number; length: number }[] = [];
  readonly stats: string[] = [];
  starting: () => void = () => {};
  /** Objects rewritten with the bytes of the object each maps to. */
  readonly rewritten = new Map<string, string>();
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open();
    this.gate = null;
  }

  override async readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    this.ranges.push({ location, offset, length });
    this.starting();
    if (this.gate) await this.gate;
    return super.readRange(this.rewritten.get(location) ?? location, offset, length);
  }

  override async stat(location: string): Promise<ObjectMeta> {
    this.stats.push(location);
    this.starting();
    return super.stat(this.rewritten.get(location) ?? location);
  }
}

const root = 's3://bucket/simple_table';
const original = tablePath('simple_table');

function store(table = original, at = root): CountingStore {
  const s = new CountingStore();
  s.copyFolder(table, at);
  return s;
}

describe('a read-ahead', () => {
  it('never holds more than its bound: a fetch past it is not started, and room comes back on release', async () => {
    const s = store();
    const files = (await liveFiles(original)).map((add) => ({ location: `${root}/${add.path as string}`, size: add.size as number }));
    const bound = files[0].size + files[1].size;
    const ahead = new ReadAhead(bound);
    s.hold();
    const started = files.map((f) => ahead.fetch(s, f.location, 0, f.size));
    // Whatever the sizes, the fetches started add up to at most the bound, and only those reached the store.
    const fetched = files.filter((_, i) => started[i]);
    expect(fetched.reduce((n, f) => n + f.size, 0)).toBeLessThanOrEqual(bound);
    expect(ahead.bytesHeld).toBe(fetched.reduce((n, f) => n + f.size, 0));
    expect(s.ranges).toHaveLength(fetched.length);
    expect(started.slice(0, 2)).toEqual([true, true]);
    expect(started[2]).toBe(false);
    s.release();

    ahead.release(files[0].location);
    expect(ahead.bytesHeld).toBe(files[1].size);
    expect(ahead.fetch(s, files[2].location, 0, files[2].size)).toBe(files[1].size + files[2].size <= bound);
  });

  it("serves a covered range from what it fetched, byte for byte the store's, and asks the store for the rest", async () => {
    const s = store();
    const [file] = await liveFiles(original);
    const location = `${root}/${file.path as string}`;
    const size = file.size as number;
    const ahead = new ReadAhead(size);
    expect(ahead.fetch(s, location, 0, size)).toBe(true);
    const reader = ahead.through(s);
    const tail = await reader.readRange(location, size - 8, 8);
    expect(Buffer.from(tail).toString('latin1', 4)).toBe('PAR1');
    expect(tail).toEqual(await s.readRange(location, size - 8, 8));
    expect(s.ranges.filter((r) => r.offset === size - 8)).toHaveLength(1); // the test's own read; the reader's was held
    const other = `${root}/_delta_log/00000000000000000000.json`;
    await reader.readRange(other, 0, 10);
    expect(s.ranges.at(-1)).toEqual({ location: other, offset: 0, length: 10 });
  });

  it('of a scan fetches the files after the next while they fit its depth, at most `files` of them, the next always, the first at the start', async () => {
    const manyRoot = 's3://bucket/cdf-table-non-partitioned';
    const s = store(tablePath('cdf-table-non-partitioned'), manyRoot);
    const engine: EngineContext = { storage: () => s, settings: () => null };
    const snapshot = await (await DeltaTable.open(manyRoot, engine)).snapshot();
    const sizes = snapshot.files.map((f) => f.add.size);
    const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
    // Three files always fit a depth of three of the largest, four never do.
    expect(snapshot.files.length).toBeGreaterThan(6);
    expect(4 * smallest).toBeGreaterThan(3 * largest);
    // What the read-ahead reads of a file's plan: which it is, and that all its columns are read.
    const plan = (fileIndex: number) =>
      ({ fileIndex, file: snapshot.files[fileIndex], columns: ['all'], handle: { schema: { fields: [{}] } } }) as unknown as FilePlan;
    const fetched = () =>
      s.ranges
        .filter((r) => r.offset === 0 && sizes.includes(r.length))
        .map((r) => snapshot.files.findIndex((f) => f.absolutePath === r.location));
    const walk = (limits: { depthBytes: number; files: number }, upTo: number) => {
      s.ranges.length = 0;
      const ahead = fileReadAhead(snapshot, engine, Infinity, { boundBytes: 1 << 20, ...limits })!;
      const steps: number[][] = [];
      for (let i = 0; i <= upTo; i++) {
        ahead.planned(plan(i));
        steps.push(fetched());
        ahead.done(plan(i));
      }
      return steps;
    };
    s.hold();
    // Planning file 0 fetches files 1-3; with file 1 still held while it is decoded, file 4 does not fit, and fits
    // once file 1 is done.
    expect(walk({ depthBytes: 3 * largest, files: 8 }, 2)).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3, 4],
    ]);
    // Any depth: no more than `files` ahead of the file being planned.
    expect(walk({ depthBytes: 1 << 20, files: 4 }, 1)).toEqual([
      [1, 2, 3, 4],
      [1, 2, 3, 4, 5],
    ]);
    // No depth: the next file still.
    expect(walk({ depthBytes: 1, files: 8 }, 1)).toEqual([[1], [1, 2]]);
    // A scan starting at file 2 that reads every column fetches it before planning it, and only it (the files after it
    // come once it is planned); one that reads some columns does not.
    s.ranges.length = 0;
    const ahead = fileReadAhead(snapshot, engine, Infinity, { boundBytes: 1 << 20, depthBytes: 3 * largest, files: 8 })!;
    ahead.starting(2, false);
    expect(fetched()).toEqual([]);
    ahead.starting(2, true);
    expect(fetched()).toEqual([2]);
    ahead.planned(plan(2));
    expect(fetched()).toEqual([2, 3, 4]);
    s.release();
  });

  it('leaves a failed fetch to the read itself, which reports the failure', async () => {
    const s = store();
    const missing = `${root}/part-gone.parquet`;
    const ahead = new ReadAhead(1000);
    expect(ahead.fetch(s, missing, 0, 100)).toBe(true);
    await expect(ahead.through(s).readRange(missing, 0, 10)).rejects.toBeInstanceOf(StorageError);
    expect(s.ranges.filter((r) => r.location === missing)).toHaveLength(2);
  });
});

describe('a scan of a table in an object store', () => {
  const engineOf = (s: CountingStore): EngineContext => ({ storage: () => s, settings: () => null });

  async function ids(s: CountingStore, limit?: number): Promise<number[]> {
    const snapshot = await (await DeltaTable.open(root, engineOf(s))).snapshot();
    const out: number[] = [];
    for await (const { batch } of scan(snapshot, { engine: engineOf(s), limit })) for (const row of batch) out.push(Number(row?.id));
    return out.sort((a, b) => a - b);
  }

  it('fetches each data file whole, once, the first before its footer is read, and reads the rows DuckDB reads', async () => {
    const s = store();
    const live = await liveFiles(original);
    const files = live.map((add) => sqlText(dataFile(original, add)));
    const expected = (await duck<{ id: bigint }>(`SELECT id FROM read_parquet([${files.join(', ')}]) ORDER BY id`)).map((r) =>
      Number(r.id),
    );
    expect(await ids(s)).toEqual(expected);

    const sizes = new Map(live.map((add) => [`${root}/${add.path as string}`, add.size as number]));
    const dataReads = s.ranges.filter((r) => sizes.has(r.location));
    const whole = dataReads.filter((r) => r.offset === 0 && r.length === sizes.get(r.location));
    // Every file came in one GET of all its bytes, and no other read of it reached the store.
    expect(whole.map((r) => r.location).sort()).toEqual([...sizes.keys()].sort());
    expect(dataReads).toHaveLength(sizes.size);
  });

  it('opens its data files at the sizes the log records, asking the store for none, with a filter as without', async () => {
    const s = store();
    const live = await liveFiles(original);
    expect((await ids(s)).length).toBeGreaterThan(0);
    const snapshot = await (await DeltaTable.open(root, engineOf(s))).snapshot();
    const filter = compileFilter('id > 2', snapshot.schema);
    if (!filter.ok) throw new Error(filter.message);
    let rows = 0;
    for await (const { batch } of scan(snapshot, { engine: engineOf(s), rowGroupFilter: filter.expr })) rows += batch.numRows;
    expect(rows).toBeGreaterThan(0);
    const data = new Set(live.map((add) => `${root}/${add.path as string}`));
    expect(s.stats.filter((location) => data.has(location))).toEqual([]);
  });

  it('reads a data file rewritten behind the log, longer or shorter, at its own size: the rows DuckDB reads from its bytes', async () => {
    const s = store();
    const live = await liveFiles(original);
    const small = live.find((add) => add.size === Math.min(...live.map((a) => a.size as number)))!;
    const large = live.find((add) => add.size === Math.max(...live.map((a) => a.size as number)))!;
    expect(small.size).not.toBe(large.size);
    const at = (add: (typeof live)[number]) => `${root}/${add.path as string}`;
    // The small file now holds the large one's bytes, and the large one the small one's.
    s.rewritten.set(at(small), at(large));
    s.rewritten.set(at(large), at(small));
    const files = live.map((add) => sqlText(dataFile(original, add === small ? large : add === large ? small : add)));
    const expected = (await duck<{ id: bigint }>(`SELECT id FROM read_parquet([${files.join(', ')}]) ORDER BY id`)).map((r) =>
      Number(r.id),
    );
    expect(await ids(s)).toEqual(expected);
    // Each was asked its size once its footer could not be read at the log's.
    expect(s.stats.filter((location) => location === at(small) || location === at(large)).sort()).toEqual([at(small), at(large)].sort());
  });

  it('asks the store nothing more once cancelled, wherever the cancel comes: no footer, no stat, no file ahead', async () => {
    const snapshot = await (await DeltaTable.open(root, engineOf(store()))).snapshot();
    const filter = compileFilter('id > 2', snapshot.schema);
    if (!filter.ok) throw new Error(filter.message);
    const callsOf = (s: CountingStore) => s.ranges.length + s.stats.length;
    // Read ahead (whole files), and not (a limit: footers and columns read as they are decoded).
    for (const limit of [undefined, 1_000_000]) {
      const whole = store();
      for await (const _ of scan(snapshot, { engine: engineOf(whole), rowGroupFilter: filter.expr, limit }));
      expect(callsOf(whole)).toBeGreaterThanOrEqual(snapshot.files.length * (limit ? 2 : 1));
      // Cancelled as the scan's k-th call to the store starts, for every k: that call ends, and no other begins.
      for (let k = 1; k <= callsOf(whole); k++) {
        const s = store();
        const controller = new AbortController();
        s.starting = () => {
          if (callsOf(s) === k) controller.abort();
        };
        const run = (async () => {
          for await (const _ of scan(snapshot, { engine: engineOf(s), rowGroupFilter: filter.expr, limit, signal: controller.signal }));
        })();
        await expect(run, `cancelled at call ${k}`).rejects.toMatchObject({ code: 'CANCELLED' });
        // The scan's own work after the cancel (the call under way, its file closed) ends within a few turns.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(callsOf(s), `limit ${limit}, cancelled at call ${k}`).toBe(k);
      }
    }
  });

  it('reads nothing ahead for a limited read (a preview stops early)', async () => {
    const s = store();
    expect(await ids(s, 1)).toHaveLength(1);
    const sizes = new Map((await liveFiles(original)).map((add) => [`${root}/${add.path as string}`, add.size as number]));
    expect(s.ranges.filter((r) => sizes.has(r.location) && r.length === sizes.get(r.location))).toEqual([]);
  });
});
