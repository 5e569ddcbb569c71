// The one door to parquet-wasm. Files are opened as lazy Blobs so that only the footer and the requested column
// chunks are read from disk or fetched from a bucket (ranged reads); decoded data crosses into apache-arrow through
// the IPC stream format, a stream's batches through the C data interface where arrow-ffi.ts reads their types. Every
// failure leaves here as one DeltaportError naming the file and the cause; an instance that trapped is never used
// again (parquet-wasm-instance.ts).
import * as arrow from 'apache-arrow';
import { tableFromIPC, type Schema, type Table } from 'apache-arrow';
import type { ColumnChunk, FileMetaData } from 'hyparquet';
import type * as ParquetWasm from 'parquet-wasm/node';
import { DeltaportError } from '../../../shared/errors.js';
import { rangeBuffer } from '../../storage/ranged-file.js';
import { isCloudLocation, StorageError, type Storage, type StorageFailure } from '../../storage/storage.js';
import { decodedColumns, ffiReadable, type ColumnScratch } from './arrow-ffi.js';
import { int96Columns, withExactInt96, type DecodedInt96, type Int96Columns } from './int96-columns.js';
import { guarded, isTrap, privateInstance, untilTrap, wasmInstance, type WasmInstance } from './parquet-wasm-instance.js';

export interface ReadRequest {
  /** Top-level names or dotted paths into structs ("add.path"); absent = every column. */
  columns?: string[];
  rowGroups?: number[];
  /** Rows per decoded batch. parquet-wasm's default (1024) is slow; decoding is cheapest with large batches. */
  batchSize?: number;
  limit?: number;
  offset?: number;
}

export interface ParquetHandle {
  readonly path: string;
  readonly numRows: number;
  /** Rows per row group, in file order. */
  readonly rowGroupRows: number[];
  /** The file's Arrow schema (field metadata carries Parquet field ids as PARQUET:field_id). */
  readonly schema: Schema;
  read(request?: ReadRequest): Promise<Table>;
  /** The same rows as read(), one table per decoded batch. parquet-wasm still decodes all the rows a call asks for of
   * a row group before the first batch comes (its stream collects each row group), but each batch then crosses into
   * JavaScript on its own: read() encodes the whole result as one IPC stream inside WebAssembly memory, which only
   * ever grows, so a large read sets its size for the rest of the process. With `scratch`, a batch's columns are in the
   * scratch's buffers where they cross through the C data interface, and the next batch overwrites them: the caller
   * is done with each batch, every view into it included, before it asks for the next. */
  stream(request: StreamRequest): AsyncGenerator<Table>;
  /** Where the pages of the row group's largest column chunk among `columns` (absent: all) start, in rows from the
   * group's first, as its offset index says; null unless every column chunk of the group has an offset index.
   * parquet-wasm loads these indexes, and a read of some of the group's rows then fetches and decodes only the pages
   * that hold them; without them, every such read fetches the whole column chunks. */
  pageStarts(group: number, columns?: string[]): Promise<number[] | null>;
  /** The footer as hyparquet reads it, statistics in the units of shared/delta-values.ts, read once per handle: what
   * parquet-wasm does not tell (the row groups' statistics, the page indexes, the INT96 columns) comes from it. It
   * fails as read() does, naming the file. */
  footer(): Promise<FileMetaData>;
  close(): void;
}

export type StreamRequest = ReadRequest & { batchSize: number; scratch?: ColumnScratch };

/** What the file is to the reader, for messages: "cannot read data file X: ...". */
export type ParquetRole = 'data file' | 'checkpoint file' | 'Parquet file';

const LARGE_BATCH = 1 << 20;
/** hyparquet's parsers of the footer's statistics, to the units of shared/delta-values.ts (row-group skipping's). */
const STATISTICS_PARSERS = {
  dateFromDays: (days: number) => days,
  timestampFromMilliseconds: (ms: bigint) => ms * 1000n,
  timestampFromMicroseconds: (micros: bigint) => micros,
  timestampFromNanoseconds: (nanos: bigint) => nanos / 1000n,
};
/** A trap fails every call waiting on the shared instance, also those for sound files read at the same time. So a
 * call that saw a trap tries once more, on an instance of this file's own (a stream from the rows it delivered):
 * only a bad file traps there, and its trap breaks nobody else's read. */
const TRAP_RETRIES = 1;

interface Opened {
  instance: WasmInstance;
  file: ParquetWasm.ParquetFile;
}

export interface OpenOptions {
  /** The file's size as the table's log records it (an add action's), which spares the store's stat: in a bucket a
   * round trip per file that nothing else overlaps. */
  size?: number;
}

export async function openParquet(
  storage: Storage,
  path: string,
  role: ParquetRole = 'data file',
  { size: logSize }: OpenOptions = {},
): Promise<ParquetHandle> {
  const fail = async (err: unknown, request?: ReadRequest): Promise<never> => {
    throw await parquetError(storage, path, role, err, size, request);
  };
  let opened: Opened;
  let rowGroupRows: number[];
  let schema: Schema;
  let int96: Int96Columns | null;
  let size = 0;
  let read: Promise<FileMetaData> | null = null;
  const footer = (): Promise<FileMetaData> =>
    (read ??= import('hyparquet')
      .then(({ parquetMetadataAsync }) => parquetMetadataAsync(rangeBuffer(storage, path, size), { parsers: STATISTICS_PARSERS }))
      .catch((err: unknown) => fail(err)));
  try {
    // The stat names what stops a read (missing, not permitted, a folder): parquet-wasm reads through a Blob, which
    // reports each of these as a generic error, or not at all. With the log's size it is asked only once the footer's
    // read fails, and a file whose size is not the log's (rewritten behind it) is read at its own.
    let statted = !(logSize && logSize > 0);
    size = statted ? (await storage.stat(path)).size : logSize!;
    for (let attempt = 0; ; attempt++) {
      try {
        opened = await openOn(attempt === 0 ? wasmInstance() : privateInstance(), storage, path, size);
        [rowGroupRows, schema] = guarded(opened.instance, () => {
          const meta = opened.file.metadata();
          const rows = meta.rowGroups().map((rg) => rg.numRows());
          meta.free();
          return [rows, tableFromIPC(opened.file.schema().intoIPCStream()).schema] as const;
        });
        break;
      } catch (err) {
        if (!statted) {
          statted = true;
          const actual = (await storage.stat(path)).size;
          if (actual !== size) {
            size = actual;
            // Read anew as the first time: a trap at the wrong size was not this file's.
            attempt = -1;
            continue;
          }
        }
        if (!(isTrap(err) && attempt < TRAP_RETRIES)) throw err;
      }
    }
    int96 = await int96Columns(schema, rangeBuffer(storage, path, size), footer);
  } catch (err) {
    return fail(err);
  }
  const crossing = batchCrossing(schema);
  // A handle whose instance trapped (its own file's trap or another's) reopens its file on an instance of its own.
  const current = async (): Promise<Opened> => {
    if (opened.instance.broken) opened = await openOn(privateInstance(), storage, path, size);
    return opened;
  };
  return {
    path,
    numRows: rowGroupRows.reduce((a, b) => a + b, 0),
    rowGroupRows,
    schema,
    async read(request: ReadRequest = {}): Promise<Table> {
      const exact = exactInt96(int96, rowGroupRows, request);
      for (let attempt = 0; ; attempt++) {
        try {
          const { instance, file } = await current();
          const decoded = await untilTrap(instance, () => file.read({ ...request, batchSize: request.batchSize ?? LARGE_BATCH }));
          const table = tableFromIPC(guarded(instance, () => decoded.intoIPCStream()));
          return exact ? await exact(table) : table;
        } catch (err) {
          if (!(isTrap(err) && attempt < TRAP_RETRIES)) return fail(err, request);
        }
      }
    },
    async *stream({ scratch, ...request }: StreamRequest): AsyncGenerator<Table> {
      const exact = exactInt96(int96, rowGroupRows, request);
      const cross = crossing(request.columns);
      let delivered = 0;
      for (let attempt = 0; ; attempt++) {
        // After a trap, the read goes on from the rows already delivered, on a fresh instance.
        const rest = {
          ...request,
          offset: (request.offset ?? 0) + delivered,
          limit: request.limit === undefined ? undefined : request.limit - delivered,
        };
        let instance: WasmInstance;
        let reader: ReadableStreamDefaultReader<ParquetWasm.RecordBatch>;
        try {
          const now = await current();
          instance = now.instance;
          reader = ((await untilTrap(instance, () => now.file.stream(rest))) as ReadableStream<ParquetWasm.RecordBatch>).getReader();
        } catch (err) {
          if (isTrap(err) && attempt < TRAP_RETRIES) continue;
          return await fail(err, request);
        }
        let done = false;
        try {
          for (;;) {
            let table: Table | null = null;
            try {
              const next = await untilTrap(instance, () => reader.read());
              done = next.done;
              if (!next.done) table = guarded(instance, () => cross(instance, next.value, scratch));
              if (table && exact) table = await exact(table);
            } catch (err) {
              done = true;
              if (isTrap(err) && attempt < TRAP_RETRIES) break;
              await fail(err, request);
            }
            if (!table) return;
            delivered += table.numRows;
            yield table;
          }
        } finally {
          // A consumer that stops early (a cancel) leaves row groups undecoded: the stream is told so it drops them.
          if (!done && !instance.broken) await reader.cancel().catch(() => undefined);
        }
      }
    },
    footer,
    async pageStarts(group: number, columns?: string[]): Promise<number[] | null> {
      try {
        const chunks = (await footer()).row_groups[group].columns;
        if (!chunks.every((c) => c.offset_index_offset !== undefined && c.offset_index_length !== undefined)) return null;
        const read = chunks.filter((c) => !columns || columns.some((name) => isColumnOf(c.meta_data!.path_in_schema, name)));
        // The largest chunk's pages: a read that cuts another column's page decodes that page twice, and this one's
        // cost the most to decode again.
        const largest = read.reduce<ColumnChunk | null>(
          (most, c) => (most && most.meta_data!.total_uncompressed_size >= c.meta_data!.total_uncompressed_size ? most : c),
          null,
        );
        if (!largest) return null;
        const bytes = await storage.readRange(path, Number(largest.offset_index_offset), largest.offset_index_length!);
        // Loaded by footer() already.
        const { readOffsetIndex } = await import('hyparquet');
        const index = readOffsetIndex({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 });
        return index.page_locations.map((page) => Number(page.first_row_index));
      } catch {
        // Neither the footer nor an offset index that hyparquet cannot read stops a read: parquet-wasm's own reads of
        // the file report what matters, and the group is read whole.
        return null;
      }
    },
    close(): void {
      // A broken instance is dropped whole; freeing into it would run it again.
      if (!opened.instance.broken) opened.file.free();
    },
  };
}

/** Whether a column chunk's path in the schema is the column `name` (a top-level name or a dotted path) or inside it. */
function isColumnOf(path: string[], name: string): boolean {
  const dotted = path.join('.');
  return dotted === name || dotted.startsWith(`${name}.`);
}

type Crossing = (instance: WasmInstance, batch: ParquetWasm.RecordBatch, scratch?: ColumnScratch) => Table;

/** How a stream's decoded batches of the given columns (absent: all) cross into JavaScript: through the C data
 * interface (arrow-ffi.ts) where it reads their types, else as an IPC stream. */
function batchCrossing(schema: Schema): (columns: string[] | undefined) => Crossing {
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  const types = new Map(schema.fields.filter((f) => ffiReadable(f.type)).map((f) => [f.name, f.type]));
  const ipc: Crossing = (_, batch) => tableFromIPC(batch.intoIPCStream());
  const ffi: Crossing = (instance, batch, scratch) => {
    const exported = batch.intoFFI();
    try {
      const memory = instance.api.wasmMemory().buffer as ArrayBuffer;
      const { length, columns } = decodedColumns(memory, exported.arrayAddr(), exported.schemaAddr(), types, scratch);
      const read = [...columns.keys()].map((name) => fields.get(name)!);
      const data = arrow.makeData({ type: new arrow.Struct(read), length, nullCount: 0, children: [...columns.values()] });
      return new arrow.Table([new arrow.RecordBatch(new arrow.Schema(read, schema.metadata), data)]);
    } finally {
      exported.free();
    }
  };
  return (columns) => ((columns ?? [...fields.keys()]).every((name) => types.has(name)) ? ffi : ipc);
}

/** For a read that includes INT96 columns: a function that gives each decoded table of the read, in order, those
 * columns' exact microseconds in place of parquet-wasm's wrapped nanoseconds (int96-columns.ts). */
function exactInt96(int96: Int96Columns | null, rowGroupRows: number[], request: ReadRequest): ((table: Table) => Promise<Table>) | null {
  const columns = int96
    ? [...new Set(int96.paths.map((p) => p[0]))].filter((name) => !request.columns || request.columns.includes(name))
    : [];
  if (!int96 || columns.length === 0) return null;
  const ranges = selectedRows(rowGroupRows, request);
  let decoded: Promise<DecodedInt96> | null = null;
  let at = 0;
  return async (table) => {
    decoded ??= int96.read(columns, ranges);
    const exact = await decoded;
    const batches = table.batches.map((batch) => {
      const out = withExactInt96(batch, exact, at);
      at += batch.numRows;
      return out;
    });
    return batches.length > 0 ? new arrow.Table(batches) : table;
  };
}

/** The file rows a request reads, as [from, to) ranges in read order: its row groups, then offset and limit. */
function selectedRows(rowGroupRows: number[], request: ReadRequest): [number, number][] {
  const starts: number[] = [];
  rowGroupRows.reduce((start, rows) => (starts.push(start), start + rows), 0);
  let skip = request.offset ?? 0;
  let left = request.limit ?? Infinity;
  const ranges: [number, number][] = [];
  for (const group of request.rowGroups ?? rowGroupRows.map((_, g) => g)) {
    let from = starts[group];
    const to = from + rowGroupRows[group];
    const skipped = Math.min(skip, to - from);
    from += skipped;
    skip -= skipped;
    const taken = Math.min(left, to - from);
    if (taken > 0) ranges.push([from, from + taken]);
    left -= taken;
  }
  return ranges;
}

async function openOn(instance: WasmInstance, storage: Storage, path: string, size: number): Promise<Opened> {
  const blob = await storage.blob(path, size);
  return { instance, file: await untilTrap(instance, () => instance.api.ParquetFile.fromFile(blob)) };
}

const FILE_CAUSES: Partial<Record<StorageFailure, string>> = {
  denied: 'permission denied',
  'is-folder': 'it is a folder, not a file',
  truncated: 'the file is shorter than its footer says',
};

async function parquetError(
  storage: Storage,
  path: string,
  role: ParquetRole,
  err: unknown,
  size: number,
  request?: ReadRequest,
): Promise<DeltaportError> {
  if (err instanceof StorageError) {
    if (err.reason === 'not-found') return new DeltaportError('MISSING_FILE', `${role} is missing: ${path}`);
    // A cloud failure (access denied, unreachable) is the store's, not the file's: it keeps its code and message.
    if (isCloudLocation(path) && err.reason !== 'truncated') return err;
    return new DeltaportError('CORRUPT_DATA', `cannot read ${role} ${path}: ${FILE_CAUSES[err.reason] ?? err.message}`);
  }
  if (err instanceof DeltaportError) return err;
  if (isTrap(err)) {
    // A read the store fails inside the decoder (access taken away mid-file, a credential the catalog no longer
    // renews) shows only as a trap: a read of the footer's last bytes outside it tells that from a corrupt file.
    const failed = await storage.readRange(path, Math.max(0, size - 8), Math.min(8, size)).then(
      () => null,
      (e: unknown) => e,
    );
    if (failed !== null && !isTrap(failed)) return parquetError(storage, path, role, failed, size, request);
  }
  let cause: string;
  if (isTrap(err)) cause = await trapCause(storage, path, size, request);
  else cause = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new DeltaportError('CORRUPT_DATA', `cannot read ${role} ${path}: ${cause}`);
}

/** The decoder trapped reading `request` (or opening the file, without one): which column holds the bad page is
 * found by reading the requested columns one at a time, each on a working instance. */
async function trapCause(storage: Storage, path: string, size: number, request: ReadRequest | undefined): Promise<string> {
  if (!request) return 'corrupt file metadata (the footer cannot be decoded)';
  let columns = request.columns;
  try {
    if (!columns) {
      const { instance, file } = await openOn(privateInstance(), storage, path, size);
      columns = guarded(instance, () => tableFromIPC(file.schema().intoIPCStream()).schema.fields.map((f) => f.name));
      file.free();
    }
    for (const column of columns) {
      // Each probe on an instance of its own: its trap must not fail the reads of other files.
      const { instance, file } = await openOn(privateInstance(), storage, path, size);
      try {
        await untilTrap(instance, () => file.read({ ...request, columns: [column], batchSize: LARGE_BATCH }));
      } catch (err) {
        if (isTrap(err)) return `corrupt page in column '${column}'`;
        return `column '${column}': ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
      }
      file.free();
    }
  } catch {
    // The file cannot even be opened again: the general cause below is all there is to say.
  }
  return 'corrupt data (the Parquet decoder failed)';
}
