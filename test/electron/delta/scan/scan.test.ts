// Scans of small tables written here (Parquet through parquet-wasm's writer, log state as a Snapshot value), so each
// case controls exactly what the files hold: row groups, deleted rows, older narrower types, physical names, ids.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as arrow from 'apache-arrow';
import * as wasm from 'parquet-wasm/node';
import { parquetMetadata, readOffsetIndex } from 'hyparquet';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { StructField, StructType } from '../../../../shared/delta-schema.js';
import { compileFilter } from '../../../../shared/expression/index.js';
import type { AddFile, DeletionVectorDescriptor } from '../../../../electron/delta/log/actions.js';
import { inlineDescriptor } from '../../../../electron/delta/scan/deletion-vectors.js';
import { outputSchema } from '../../../../electron/delta/scan/arrow-types.js';
import { wasmInstance } from '../../../../electron/delta/engine/parquet-wasm-instance.js';
import type { EngineContext } from '../../../../electron/delta/engine/engine-context.js';
import { scan } from '../../../../electron/delta/scan/scan.js';
import { withRangeReads } from '../../../../electron/storage/ranged-file.js';
import type { ScanBatch, ScanOptions } from '../../../../electron/delta/scan/scan-types.js';
import type { Snapshot } from '../../../../electron/delta/snapshot.js';
import { encodeParquet } from '../../../support/delta-writer/parquet-writer.js';
import { scratchFolders } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

const scratch = scratchFolders('scan');
afterAll(() => scratch.removeAll());

interface FileSpec {
  name: string;
  table: arrow.Table;
  rowGroupRows?: number;
  dictionary?: boolean;
  partitionValues?: Record<string, string | null>;
  deletionVector?: DeletionVectorDescriptor;
}

function snapshotOf(
  fields: StructField[],
  files: FileSpec[],
  opts: { partitionColumns?: string[]; configuration?: Record<string, string> } = {},
): Snapshot {
  const root = scratch.make();
  const live = files.map((f) => {
    const bytes = encodeParquet(f.table, { rowGroupRows: f.rowGroupRows, dictionary: f.dictionary });
    writeFileSync(path.join(root, f.name), bytes);
    const add: AddFile = {
      path: f.name,
      partitionValues: f.partitionValues ?? {},
      size: bytes.length,
      modificationTime: 0,
      dataChange: true,
      deletionVector: f.deletionVector ?? null,
    };
    return { add, absolutePath: path.join(root, f.name) };
  });
  const schema = { type: 'struct' as const, fields };
  return {
    tableRoot: root,
    version: 0,
    protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: [], writerFeatures: [] },
    metadata: {
      id: 'test',
      format: { provider: 'parquet' },
      schemaString: JSON.stringify(schema),
      partitionColumns: opts.partitionColumns ?? [],
      configuration: opts.configuration ?? {},
    },
    schema,
    partitionColumns: opts.partitionColumns ?? [],
    files: live,
  };
}

const field = (name: string, type: StructField['type'], metadata: Record<string, unknown> = {}): StructField => ({
  name,
  type,
  nullable: true,
  metadata,
});

async function all(snapshot: Snapshot, options: Omit<ScanOptions, 'engine'> = {}): Promise<ScanBatch[]> {
  const out: ScanBatch[] = [];
  for await (const b of scan(snapshot, { engine: localReads, ...options })) out.push(b);
  return out;
}

function column(batches: ScanBatch[], name: string): unknown[] {
  return batches.flatMap((b) => [...b.batch.getChild(name)!]);
}

const ints = (n: number, from = 0): Int32Array => Int32Array.from({ length: n }, (_, i) => from + i);

describe('scan', () => {
  it('streams row groups in batches of at most batchSize, and resumes exactly after any emitted batch', async () => {
    const snapshot = snapshotOf(
      [field('id', 'integer'), field('label', 'string')],
      [
        {
          name: 'a.parquet',
          table: arrow.tableFromArrays({ id: ints(35), label: Array.from(ints(35), (i) => `r${i}`) }),
          rowGroupRows: 10,
        },
        { name: 'b.parquet', table: arrow.tableFromArrays({ id: ints(7, 100), label: Array.from(ints(7, 100), (i) => `r${i}`) }) },
      ],
    );
    const batches = await all(snapshot, { batchSize: 4 });
    const ids = column(batches, 'id');
    expect(ids).toEqual([...ints(35), ...ints(7, 100)]);
    expect(column(batches, 'label')[34]).toBe('r34');
    expect(Math.max(...batches.map((b) => b.batch.numRows))).toBe(4);
    // Row groups of 10 with batches of 4: 4, 4, 2 per group.
    expect(batches.slice(0, 3).map((b) => b.batch.numRows)).toEqual([4, 4, 2]);
    expect(batches.at(-1)!.end).toEqual({ fileIndex: 1, rowsInFile: 7 });
    for (const [i, b] of batches.entries()) {
      const rest = await all(snapshot, { batchSize: 4, resumeFrom: b.end });
      expect(column(rest, 'id'), `resume after batch ${i}`).toEqual(
        ids.slice(batches.slice(0, i + 1).reduce((n, x) => n + x.batch.numRows, 0)),
      );
    }
    expect(batches[0].batch.schema).toEqual(outputSchema(snapshot));
  });

  it('never emits deleted rows; positions count emitted rows, so a resume skips exactly them', async () => {
    const deleted = [0, 5, 6, 11, 19, 20, 34];
    const snapshot = snapshotOf(
      [field('id', 'integer')],
      [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(35) }), rowGroupRows: 10, deletionVector: inlineDescriptor(deleted) }],
    );
    const kept = Array.from(ints(35)).filter((i) => !deleted.includes(i));
    const batches = await all(snapshot, { batchSize: 3 });
    expect(column(batches, 'id')).toEqual(kept);
    expect(batches.at(-1)!.end.rowsInFile).toBe(kept.length);
    for (const resumeAt of [1, 4, 9, 10, 20, 27]) {
      const rest = await all(snapshot, { resumeFrom: { fileIndex: 0, rowsInFile: resumeAt } });
      expect(column(rest, 'id')).toEqual(kept.slice(resumeAt));
    }
    expect(column(await all(snapshot, { limit: 6 }), 'id')).toEqual(kept.slice(0, 6));
  });

  it("reads a large row group in several reads cut where its largest column's pages start: the same rows, deletions and resumes", async () => {
    const rows = 300_000;
    const label = (i: number) => `row ${i}`;
    const table = arrow.tableFromArrays({ id: ints(rows), label: Array.from(ints(rows), label) });
    const written = { name: 'a.parquet', table, rowGroupRows: rows, dictionary: false };
    // The pages, as hyparquet reads the file's offset indexes.
    const bytes = readFileSync(snapshotOf([], [written]).files[0].absolutePath);
    const [idPages, labelPages] = parquetMetadata(new Uint8Array(bytes).buffer).row_groups[0].columns.map((chunk) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset + Number(chunk.offset_index_offset), chunk.offset_index_length);
      return readOffsetIndex({ view, offset: 0 }).page_locations.map((p) => Number(p.first_row_index));
    });
    // The writer's pages of the two columns start at different rows (every 20,000 and every 20,480).
    expect(labelPages).not.toEqual(idPages);
    const inner = labelPages.filter((p) => !idPages.includes(p));
    const deleted = [0, inner[3] - 1, inner[3], inner[3] + 1, idPages[5], rows - 1];
    const snapshot = snapshotOf(
      [field('id', 'integer'), field('label', 'string')],
      [{ ...written, deletionVector: inlineDescriptor(deleted) }],
    );
    const reads = vi.spyOn(wasmInstance().api.ParquetFile.prototype, 'stream');
    const readRows = () => reads.mock.calls.map(([options]) => [options!.offset!, options!.offset! + options!.limit!]);
    const gone = new Set(deleted);
    const kept = Array.from(ints(rows)).filter((i) => !gone.has(i));
    try {
      const batches = await all(snapshot);
      expect(column(batches, 'id')).toEqual(kept);
      expect(column(batches, 'label').slice(-2)).toEqual([label(kept.at(-2)!), label(kept.at(-1)!)]);
      expect(Math.max(...batches.map((b) => b.batch.numRows))).toBe(2048);
      expect(batches.at(-1)!.end).toEqual({ fileIndex: 0, rowsInFile: kept.length });
      // Reads in order over the group from its first kept row, each after that from a page start of the labels (the
      // larger column), none longer than 131,072 rows.
      const read = readRows();
      expect(read.length).toBeGreaterThan(rows / 131_072);
      expect(read.map(([from]) => from)).toEqual([1, ...read.slice(0, -1).map(([, to]) => to)]);
      expect(read.at(-1)![1]).toBe(rows);
      expect(read.slice(1).every(([from]) => labelPages.includes(from))).toBe(true);
      expect(read.every(([from, to]) => to - from <= 131_072)).toBe(true);
      for (const resumeAt of [inner[3] - 3, inner[3] - 2, 200_000, kept.length - 1]) {
        const rest = await all(snapshot, { resumeFrom: { fileIndex: 0, rowsInFile: resumeAt } });
        expect(column(rest, 'id'), `resume at ${resumeAt}`).toEqual(kept.slice(resumeAt));
      }
      // Reading the ids alone cuts at their own pages.
      reads.mockClear();
      expect(column(await all(snapshot, { columns: ['id'] }), 'id')).toEqual(kept);
      const idReads = readRows();
      expect(idReads.length).toBeGreaterThan(1);
      expect(idReads.slice(1).every(([from]) => idPages.includes(from))).toBe(true);
    } finally {
      reads.mockRestore();
    }
  });

  it('joins the short runs between deleted rows into full batches within a row group, ending where their rows end', async () => {
    const deleted = Array.from({ length: 10 }, (_, k) => k * 10); // every tenth row of the one 100-row group
    const snapshot = snapshotOf(
      [field('id', 'integer'), field('label', 'string')],
      [
        {
          name: 'a.parquet',
          table: arrow.tableFromArrays({ id: ints(100), label: Array.from(ints(100), (i) => `r${i}`) }),
          deletionVector: inlineDescriptor(deleted),
        },
      ],
    );
    const kept = Array.from(ints(100)).filter((i) => i % 10 !== 0);
    const batches = await all(snapshot, { batchSize: 25 });
    // 90 kept rows in runs of nine: batches of 25 rows, not ten batches of nine.
    expect(batches.map((b) => b.batch.numRows)).toEqual([25, 25, 25, 15]);
    expect(column(batches, 'id')).toEqual(kept);
    expect(column(batches, 'label')).toEqual(kept.map((i) => `r${i}`));
    expect(batches.map((b) => b.end.rowsInFile)).toEqual([25, 50, 75, 90]);
    const rest = await all(snapshot, { batchSize: 25, resumeFrom: batches[1].end });
    expect(column(rest, 'id')).toEqual(kept.slice(50));
  });

  it('reads a row group larger than one decoded piece whole, across deletions at piece ends, and resumes inside it', async () => {
    const rows = 70_000;
    const deleted = [0, 32_767, 32_768, 32_769, 65_535, 65_536, 69_999];
    const snapshot = snapshotOf(
      [field('id', 'integer')],
      [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(rows) }), deletionVector: inlineDescriptor(deleted) }],
    );
    const kept = Array.from(ints(rows)).filter((i) => !deleted.includes(i));
    for (const batchSize of [2048, 5000]) {
      const batches = await all(snapshot, { batchSize });
      expect(column(batches, 'id'), `batch size ${batchSize}`).toEqual(kept);
      expect(Math.max(...batches.map((b) => b.batch.numRows))).toBe(batchSize);
      const resumeAt = batches.find((b) => b.end.rowsInFile > 40_000)!.end;
      expect(column(await all(snapshot, { batchSize, resumeFrom: resumeAt }), 'id')).toEqual(kept.slice(resumeAt.rowsInFile));
    }
    // A consumer that stops inside the first piece leaves nothing behind that a later scan would trip on.
    for await (const b of scan(snapshot, { engine: localReads })) if (b.batch.numRows > 0) break;
    expect(column(await all(snapshot), 'id')).toEqual(kept);
  });

  it('with a limit, reads the same first rows as a full scan, across row groups, files and deleted rows', async () => {
    const snapshot = snapshotOf(
      [field('id', 'integer')],
      [
        {
          name: 'a.parquet',
          table: arrow.tableFromArrays({ id: ints(35) }),
          rowGroupRows: 10,
          deletionVector: inlineDescriptor([3, 12, 13]),
        },
        { name: 'b.parquet', table: arrow.tableFromArrays({ id: ints(20, 100) }), rowGroupRows: 8 },
      ],
    );
    const every = [...Array.from(ints(35)).filter((i) => ![3, 12, 13].includes(i)), ...ints(20, 100)];
    for (const limit of [1, 7, 9, 10, 11, 32, 33, 40, 52, 1000]) {
      expect(column(await all(snapshot, { limit, batchSize: 4 }), 'id'), `limit ${limit}`).toEqual(every.slice(0, limit));
      expect(column(await all(snapshot, { limit, resumeFrom: { fileIndex: 0, rowsInFile: 5 } }), 'id')).toEqual(every.slice(5, 5 + limit));
    }
  });

  it('reports bytes done rising within a file by its rows read, reaching each file end exactly', async () => {
    const snapshot = snapshotOf(
      [field('id', 'integer')],
      [
        { name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(40) }), rowGroupRows: 10 },
        { name: 'b.parquet', table: arrow.tableFromArrays({ id: ints(10) }) },
      ],
    );
    const [a, b] = snapshot.files.map((f) => f.add.size);
    const batches = await all(snapshot, { batchSize: 10 });
    expect(batches.map((x) => x.bytesDone)).toEqual([a / 4, a / 2, (3 * a) / 4, a, a + b].map(Math.floor));
    expect(batches.map((x) => x.filesDone)).toEqual([0, 0, 0, 0, 1]);
  });

  it('projects columns in the asked order, with partition values as typed constant columns', async () => {
    const fields = [field('a', 'long'), field('day', 'date'), field('b', 'string'), field('amount', 'decimal(6,2)')];
    const snapshot = snapshotOf(
      fields,
      [
        {
          name: 'p1.parquet',
          table: arrow.tableFromArrays({ a: BigInt64Array.of(1n, 2n), b: ['x', 'y'] }),
          partitionValues: { day: '2024-02-29', amount: '-12.5' },
        },
        {
          name: 'p2.parquet',
          table: arrow.tableFromArrays({ a: BigInt64Array.of(3n), b: ['z'] }),
          partitionValues: { day: null, amount: '' },
        },
      ],
      { partitionColumns: ['day', 'amount'] },
    );
    const batches = await all(snapshot);
    expect(batches[0].batch.schema.fields.map((f) => f.name)).toEqual(['a', 'day', 'b', 'amount']);
    expect(column(batches, 'day')).toEqual([Date.UTC(2024, 1, 29), Date.UTC(2024, 1, 29), null]);
    expect(column(batches, 'amount').map((v) => (v === null ? null : BigInt(arrow.util.bigNumToBigInt(v as never))))).toEqual([
      -1250n,
      -1250n,
      null,
    ]);
    const projected = await all(snapshot, { columns: ['b', 'day'] });
    expect(projected[0].batch.schema.fields.map((f) => f.name)).toEqual(['b', 'day']);
    expect(column(projected, 'b')).toEqual(['x', 'y', 'z']);
    // Partition columns alone: rows counted from the footer, no column decoded.
    expect(column(await all(snapshot, { columns: ['day'] }), 'day')).toHaveLength(3);
  });

  it('reads older files: missing columns as null, narrower types widened', async () => {
    const fields = [
      field('n', 'long'),
      field('x', 'double'),
      field('d', 'timestamp_ntz'),
      field('m', 'decimal(10,4)'),
      field('added', 'string'),
    ];
    const old = new arrow.Table({
      n: arrow.makeVector(Int32Array.of(-5, 7)),
      x: arrow.makeVector(Float32Array.of(1.5, -0.25)),
      d: arrow.vectorFromArray([Date.UTC(2020, 0, 2), Date.UTC(1969, 11, 31)], new arrow.DateDay()),
      m: arrow.makeVector(Int32Array.of(1234, -5)),
    });
    const snapshot = snapshotOf(fields, [{ name: 'old.parquet', table: old }]);
    const batches = await all(snapshot);
    const b = batches[0].batch;
    expect(b.schema.fields.map((f) => String(f.type))).toEqual(['Int64', 'Float64', 'Timestamp<MICROSECOND>', 'Decimal[10e+4]', 'Utf8']);
    expect(column(batches, 'n')).toEqual([-5n, 7n]);
    expect(column(batches, 'x')).toEqual([1.5, -0.25]);
    expect(column(batches, 'd')).toEqual([Date.UTC(2020, 0, 2), Date.UTC(1969, 11, 31)]);
    // integer -> decimal(10,4): 1234 becomes 1234.0000
    expect(column(batches, 'm').map((v) => BigInt(arrow.util.bigNumToBigInt(v as never)))).toEqual([12340000n, -50000n]);
    expect(column(batches, 'added')).toEqual([null, null]);
  });

  it('converts millisecond and nanosecond timestamps to microseconds in UTC', async () => {
    const stamps = <T extends arrow.Timestamp>(type: T, values: bigint[]): arrow.Vector<T> =>
      arrow.makeVector(arrow.makeData({ type, length: values.length, data: BigInt64Array.from(values) as never }));
    const table = new arrow.Table({
      ms: stamps(new arrow.TimestampMillisecond(), [1700000000123n, -1n]),
      ns: stamps(new arrow.TimestampNanosecond(), [1700000000123456789n, -1n]),
    });
    const snapshot = snapshotOf([field('ms', 'timestamp'), field('ns', 'timestamp')], [{ name: 't.parquet', table }]);
    const [batch] = await all(snapshot);
    const raw = (name: string): bigint[] => Array.from(batch.batch.getChild(name)!.data[0].values as BigInt64Array);
    expect(raw('ms')).toEqual([1700000000123000n, -1000n]);
    expect(raw('ns')).toEqual([1700000000123456n, -1n]);
    expect((batch.batch.schema.fields[0].type as arrow.Timestamp).timezone).toBe('UTC');
  });

  it('matches physical names (mode name) and Parquet field ids (mode id), also inside structs', async () => {
    const inner = {
      type: 'struct' as const,
      fields: [field('city', 'string', { 'delta.columnMapping.physicalName': 'col-c', 'delta.columnMapping.id': 3 })],
    };
    const fields = [
      field('Name', 'string', { 'delta.columnMapping.physicalName': 'col-a', 'delta.columnMapping.id': 1 }),
      field('Address', inner, { 'delta.columnMapping.physicalName': 'col-b', 'delta.columnMapping.id': 2 }),
    ];
    const id = (n: number): Map<string, string> => new Map([['PARQUET:field_id', String(n)]]);
    const cityType = new arrow.Struct([new arrow.Field('renamed-c', new arrow.Utf8(), true, id(3))]);
    const schema = new arrow.Schema([
      new arrow.Field('renamed-a', new arrow.Utf8(), true, id(1)),
      new arrow.Field('renamed-b', cityType, true, id(2)),
    ]);
    const children = [
      arrow.vectorFromArray(['Ada'], new arrow.Utf8()).data[0],
      arrow.vectorFromArray([{ 'renamed-c': 'London' }], cityType).data[0],
    ];
    const byId = new arrow.Table([
      new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length: 1, children })),
    ]);
    const idSnapshot = snapshotOf(fields, [{ name: 'id.parquet', table: byId }], { configuration: { 'delta.columnMapping.mode': 'id' } });
    expect((await all(idSnapshot))[0].batch.toArray().map((r) => r.toJSON())).toEqual([
      { Name: 'Ada', Address: expect.objectContaining({ city: 'London' }) },
    ]);

    const cityByName = new arrow.Struct([new arrow.Field('col-c', new arrow.Utf8(), true)]);
    const byName = new arrow.Table({
      'col-a': arrow.vectorFromArray(['Bo']),
      'col-b': arrow.vectorFromArray([{ 'col-c': 'Paris' }], cityByName),
    });
    const nameSnapshot = snapshotOf(fields, [{ name: 'name.parquet', table: byName }], {
      configuration: { 'delta.columnMapping.mode': 'name' },
    });
    const [row] = (await all(nameSnapshot))[0].batch.toArray().map((r) => JSON.parse(JSON.stringify(r)) as unknown);
    expect(row).toEqual({ Name: 'Bo', Address: { city: 'Paris' } });
  });

  it('stops promptly when cancelled, and names a missing data file', async () => {
    const snapshot = snapshotOf(
      [field('id', 'integer')],
      [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(100) }), rowGroupRows: 10 }],
    );
    const controller = new AbortController();
    const seen: number[] = [];
    const run = (async () => {
      for await (const b of scan(snapshot, { engine: localReads, batchSize: 5, signal: controller.signal })) {
        seen.push(b.batch.numRows);
        controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen).toEqual([5]);

    const gone = { ...snapshot, files: [{ ...snapshot.files[0], absolutePath: path.join(snapshot.tableRoot, 'gone.parquet') }] };
    await expect(all(gone)).rejects.toMatchObject({
      code: 'MISSING_FILE',
      message: `data file is missing: ${path.join(snapshot.tableRoot, 'gone.parquet')}`,
    });
  });

  it('decodes every codec Delta writers use', async () => {
    const snapshot = snapshotOf([field('id', 'integer')], [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(3) }) }]);
    for (const codec of [
      wasm.Compression.GZIP,
      wasm.Compression.LZ4,
      wasm.Compression.LZ4_RAW,
      wasm.Compression.BROTLI,
      wasm.Compression.ZSTD,
    ]) {
      const props = new wasm.WriterPropertiesBuilder().setCompression(codec).build();
      const table = wasm.Table.fromIPCStream(arrow.tableToIPC(arrow.tableFromArrays({ id: ints(1000, 7) }), 'stream'));
      writeFileSync(snapshot.files[0].absolutePath, wasm.writeParquet(table, props));
      expect(column(await all(snapshot), 'id'), wasm.Compression[codec]).toEqual(Array.from(ints(1000, 7)));
    }
  });

  it('names a data file that is not Parquet', async () => {
    const snapshot = snapshotOf([field('id', 'integer')], [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(3) }) }]);
    writeFileSync(snapshot.files[0].absolutePath, 'not parquet at all');
    await expect(all(snapshot)).rejects.toMatchObject({
      code: 'CORRUPT_DATA',
      message: expect.stringContaining(`cannot read data file ${snapshot.files[0].absolutePath}`),
    });
  });

  it("names a data file whose footer hyparquet cannot read for the filter's row-group statistics", async () => {
    const snapshot = snapshotOf([field('id', 'integer')], [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(3) }) }]);
    const file = snapshot.files[0].absolutePath;
    const size = readFileSync(file).length;
    // parquet-wasm reads the file's end and its column chunk; hyparquet reads a small file whole, and gets zeros.
    const reads: [number, number][] = [];
    const engine: EngineContext = {
      storage: (location) => {
        const store = localReads.storage(location);
        return withRangeReads(store, (at, offset, length) => {
          reads.push([offset, length]);
          return offset === 0 && length === size ? Promise.resolve(new Uint8Array(length)) : store.readRange(at, offset, length);
        });
      },
      settings: () => null,
    };
    const filter = compileFilter('id > 1', { type: 'struct', fields: [field('id', 'integer')] } as StructType);
    if (!filter.ok) throw new Error(filter.message);
    const run = (async () => {
      for await (const _ of scan(snapshot, { engine, rowGroupFilter: filter.expr }));
    })();
    await expect(run).rejects.toMatchObject({
      code: 'CORRUPT_DATA',
      message: expect.stringMatching(`^cannot read data file ${file}: [^\\n]+$`),
    });
    expect(reads).toContainEqual([0, size]);
  });

  it('rejects a bad batch size, limit, resume position or column', async () => {
    const snapshot = snapshotOf([field('id', 'integer')], [{ name: 'a.parquet', table: arrow.tableFromArrays({ id: ints(3) }) }]);
    await expect(all(snapshot, { batchSize: 0 })).rejects.toThrow(/batch size/);
    await expect(all(snapshot, { limit: -1 })).rejects.toThrow(/limit/);
    await expect(all(snapshot, { resumeFrom: { fileIndex: 2, rowsInFile: 0 } })).rejects.toThrow(/cannot resume/);
    await expect(all(snapshot, { columns: ['nope'] })).rejects.toThrow(/no column 'nope'/);
    expect(await all(snapshot, { limit: 0 })).toEqual([]);
  });
});
