// A checkpoint's Parquet file (a classic checkpoint, a part, a V2 top level or a sidecar) read column by column with
// hyparquet's page decoder, the rows put together here. Not parquet-wasm, the data files' reader: a checkpoint is read
// at every open of a long log, often in a fresh process (the CLI), and parquet-wasm's first read there pays for
// compiling its WebAssembly and apache-arrow's readers: 190 ms of CPU time for a checkpoint of 10,000 files, against
// 70 ms here, the import included. Checkpoint columns are structs of scalars, maps and lists of scalars
// (PROTOCOL.md "Checkpoint Schema"): that is what this puts together, a deeper nesting is refused.
import {
  parquetMetadataAsync,
  parquetSchema,
  type ColumnMetaData,
  type DecodedArray,
  type Encoding,
  type FileMetaData,
  type SchemaTree,
} from 'hyparquet';
import { isAscii } from 'node:buffer';
import { parquetHeader } from 'hyparquet/src/column.js';
import { convert, convertWithDictionary, DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { decompressPage, readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js';
import { readPlain } from 'hyparquet/src/plain.js';
import { DeltaportError } from '../../../shared/errors.js';
import { rangeBuffer } from '../../storage/ranged-file.js';
import { isCloudLocation, StorageError, type Storage } from '../../storage/storage.js';
import { corruptLog, missingFile } from '../errors.js';

type Decoder = Parameters<typeof readDataPage>[2];
type Compressors = NonNullable<Decoder['compressors']>;

/** A field's value by row: null where it, or a struct above it, is null. */
export type RowReader<T> = (row: number) => T | null;

// Column chunks read at once when the bytes between them are at most this many: in a bucket, a request costs more
// than reading a megabyte more.
const GAP_READ = 1 << 20;

/** The levels and values of one leaf column, all row groups one after the other. */
interface Leaf {
  /** Definition level of each field on the path from the top-level column down: how many of the optional and
   * repeated fields down to it are there, in a row where it is. */
  defAt: number[];
  /** Index on the path of the repeated field (a list's or map's entries), or -1. */
  repeated: number;
  /** One definition level per row, or per entry for a leaf in a list or map. */
  defs: ArrayLike<number>;
  /** Repetition levels (0: a new row), for a leaf in a list or map; else empty. */
  reps: ArrayLike<number>;
  /** The leaf's non-null values in order. */
  values: ArrayLike<unknown>;
  /** Per level, the index of its value in `values`, or -1 where it is null; null where that is the level itself
   * (no nulls) or -1 throughout (no values): the common columns, spared a pass over every level. */
  valueAt: Int32Array | null;
  /** For a leaf in a list or map, per row, the index of its first level, and the number of levels at the end: such a
   * row has one level per entry (an empty or null one has one level all the same). Null for other leaves, whose
   * rows and levels are one to one. */
  rowStart: Int32Array | null;
}

export class CheckpointParquet {
  private readonly root: SchemaTree;
  private readonly leaves = new Map<string, Leaf>();
  /** Converted once from the footer's BigInt: readers loop to it, a long log's checkpoint over tens of thousands of
   * rows. */
  readonly numRows: number;

  private constructor(
    private readonly storage: Storage,
    readonly file: string,
    private readonly metadata: FileMetaData,
  ) {
    this.root = parquetSchema(metadata);
    this.numRows = Number(metadata.num_rows);
  }

  static async open(storage: Storage, file: string): Promise<CheckpointParquet> {
    return asCheckpointError(file, async () => {
      const size = (await storage.stat(file)).size;
      return new CheckpointParquet(storage, file, await parquetMetadataAsync(rangeBuffer(storage, file, size)));
    });
  }

  /** The names of the fields of the struct at `path` (["add"], ["add", "stats_parsed"]); null when there is none. */
  fields(path: string[]): string[] | null {
    const node = this.node(path);
    return node && node.children.length > 0 ? node.children.map((c) => c.element.name) : null;
  }

  /** Whether the field at `path` is null (a map or list: null or empty) in every row, as the column statistics tell
   * without decoding: a leaf that must hold a value wherever the field has one (REQUIRED all the way below it; a
   * map's key) counts only nulls. A table without deletion vectors or partitions has such columns in every
   * checkpoint, as long as the file list. False when the statistics do not say. */
  allNull(path: string[]): boolean {
    let node: SchemaTree | undefined = this.node(path) ?? undefined;
    if (!node || this.metadata.row_groups.length === 0) return false;
    const leaf = [...path];
    while (node.children.length > 0) {
      node = node.children.find((c) => c.element.repetition_type !== 'OPTIONAL');
      if (!node) return false;
      leaf.push(node.element.name);
    }
    const key = leaf.join('.');
    return this.metadata.row_groups.every((group) => {
      const meta = group.columns.find((c) => c.meta_data?.path_in_schema.join('.') === key)?.meta_data;
      const nulls = meta?.statistics?.null_count;
      return meta !== undefined && nulls !== undefined && BigInt(nulls) === BigInt(meta.num_values);
    });
  }

  /** Decodes the columns under the given fields (structs, maps, lists or scalars; absent ones are passed over), in
   * as few reads as the file's layout allows. Readers of fields not read here see nothing. */
  async read(paths: string[][]): Promise<void> {
    const wanted = new Map<string, string[]>();
    for (const path of paths) {
      const node = this.node(path);
      if (node) for (const leaf of leafPaths(node, path)) wanted.set(leaf.join('.'), leaf);
    }
    await asCheckpointError(this.file, async () => {
      const compressors = await compressorsFor(this.metadata);
      const parts = new Map<string, Page[]>();
      for (const group of this.metadata.row_groups) {
        const chunks = group.columns
          .map((c) => c.meta_data)
          .filter((m): m is ColumnMetaData => !!m && wanted.has(m.path_in_schema.join('.')));
        for (const [bytes, start, metas] of await this.chunkBytes(chunks)) {
          for (const meta of metas) {
            const key = meta.path_in_schema.join('.');
            const from = Number(meta.dictionary_page_offset || meta.data_page_offset) - start;
            const pages = parts.get(key) ?? [];
            parts.set(key, pages);
            pages.push(...decodeChunk(bytes.subarray(from, from + Number(meta.total_compressed_size)), this.decoder(meta, compressors)));
          }
        }
      }
      for (const [key, pages] of parts) {
        const path = wanted.get(key)!;
        const nodes = this.nodesOn(path)!;
        const defAt: number[] = [];
        let def = 0;
        for (const n of nodes) defAt.push(n.element.repetition_type === 'REQUIRED' ? def : ++def);
        const repeated = nodes.findIndex((n) => n.element.repetition_type === 'REPEATED');
        if (nodes.filter((n) => n.element.repetition_type === 'REPEATED').length > 1) {
          throw new Error(`column ${key} nests lists or maps, which a checkpoint does not`);
        }
        this.leaves.set(key, leafOf(defAt, repeated, pages));
      }
    });
  }

  /** Whether the field at `path` (a struct, say) is there, by row; null when the file has no such field. */
  presence(path: string[]): ((row: number) => boolean) | null {
    const node = this.node(path);
    const leaf = node && this.leafUnder(node, path);
    if (!leaf) return null;
    const level = leaf.defAt[path.length - 1];
    const { rowStart } = leaf;
    return rowStart ? (row) => leaf.defs[rowStart[row]] >= level : (row) => leaf.defs[row] >= level;
  }

  /** A scalar field; INT64 as numbers (log counters and epoch-ms times fit in 2^53). */
  scalar<T = unknown>(path: string[]): RowReader<T> | null {
    const leaf = this.leaves.get(path.join('.'));
    if (!leaf || leaf.rowStart) return null;
    return (row) => valueOf(leaf, row) as T | null;
  }

  /** A list of scalars. */
  list(path: string[]): RowReader<unknown[]> | null {
    const node = this.node(path);
    const element = node && leafPaths(node, path)[0];
    const leaf = element && this.leaves.get(element.join('.'));
    const rowStart = leaf && leaf.rowStart;
    if (!leaf || !rowStart) return null;
    const at = path.length - 1;
    return (row) => {
      const [from, to] = entryLevels(leaf, rowStart, row, at);
      if (from < 0) return null;
      const out: unknown[] = [];
      for (let i = from; i < to; i++) out.push(valueOf(leaf, i));
      return out;
    };
  }

  /** A map of scalars, as an object by key. */
  map(path: string[]): RowReader<Record<string, unknown>> | null {
    const node = this.node(path);
    const [keyPath, valuePath] = node ? leafPaths(node, path) : [];
    const keys = keyPath && this.leaves.get(keyPath.join('.'));
    const values = valuePath && this.leaves.get(valuePath.join('.'));
    const rowStart = keys && keys.rowStart;
    if (!keys || !values || !rowStart) return null;
    const at = path.length - 1;
    return (row) => {
      const [from, to] = entryLevels(keys, rowStart, row, at);
      if (from < 0) return null;
      // The key and the value of an entry are at the same level in their columns.
      const out: Record<string, unknown> = {};
      for (let i = from; i < to; i++) out[String(valueOf(keys, i))] = valueOf(values, i);
      return out;
    };
  }

  /** Any field as a plain value, as it reads in a JSON commit: structs as objects, maps as objects, lists as arrays.
   * For the few rows of protocol, metaData and sidecar actions. */
  plain(path: string[]): RowReader<unknown> | null {
    const node = this.node(path);
    if (!node) return null;
    if (isMap(node)) return this.map(path);
    if (isList(node)) return this.list(path);
    if (node.children.length === 0) return this.scalar(path);
    const present = this.presence(path);
    const fields = node.children.map((c) => [c.element.name, this.plain([...path, c.element.name])] as const);
    return (row) => (present?.(row) ? Object.fromEntries(fields.map(([name, read]) => [name, read?.(row) ?? null])) : null);
  }

  private node(path: string[]): SchemaTree | null {
    const nodes = this.nodesOn(path);
    return nodes ? (nodes[nodes.length - 1] ?? this.root) : null;
  }

  /** The schema nodes on `path`, from the top-level column down; null when the file has no such field. */
  private nodesOn(path: string[]): SchemaTree[] | null {
    const nodes: SchemaTree[] = [];
    let node = this.root;
    for (const name of path) {
      const child = node.children.find((c) => c.element.name === name);
      if (!child) return null;
      nodes.push((node = child));
    }
    return nodes;
  }

  private leafUnder(node: SchemaTree, path: string[]): Leaf | null {
    for (const leaf of leafPaths(node, path)) {
      const read = this.leaves.get(leaf.join('.'));
      if (read) return read;
    }
    return null;
  }

  private decoder(meta: ColumnMetaData, compressors: Compressors | undefined): Decoder {
    const schemaPath = [this.root, ...this.nodesOn(meta.path_in_schema)!];
    const element = schemaPath[schemaPath.length - 1].element;
    return {
      pathInSchema: meta.path_in_schema,
      type: meta.type,
      element,
      schemaPath,
      codec: meta.codec,
      parsers: DEFAULT_PARSERS,
      compressors,
    };
  }

  /** The chunks' bytes, neighbours read together: [bytes, their offset in the file, the chunks in them]. */
  private async chunkBytes(chunks: ColumnMetaData[]): Promise<[Uint8Array, number, ColumnMetaData[]][]> {
    const spans = chunks
      .map((meta) => {
        const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
        return { start, end: start + Number(meta.total_compressed_size), metas: [meta] };
      })
      .sort((a, b) => a.start - b.start);
    const runs: typeof spans = [];
    for (const span of spans) {
      const last = runs[runs.length - 1];
      if (last && span.start - last.end <= GAP_READ) {
        last.end = Math.max(last.end, span.end);
        last.metas.push(...span.metas);
      } else {
        runs.push({ ...span });
      }
    }
    const storage = this.storage;
    return Promise.all(
      runs.map(
        async (run) =>
          [await storage.readRange(this.file, run.start, run.end - run.start), run.start, run.metas] as [
            Uint8Array,
            number,
            ColumnMetaData[],
          ],
      ),
    );
  }
}

/** The leaf columns under a field, as paths; a map's key before its value. */
function leafPaths(node: SchemaTree, path: string[]): string[][] {
  if (node.children.length === 0) return [path];
  return node.children.flatMap((c) => leafPaths(c, [...path, c.element.name]));
}

function isMap(node: SchemaTree): boolean {
  const { converted_type: converted, logical_type: logical } = node.element;
  return converted === 'MAP' || converted === 'MAP_KEY_VALUE' || logical?.type === 'MAP';
}

function isList(node: SchemaTree): boolean {
  return node.element.converted_type === 'LIST' || node.element.logical_type?.type === 'LIST';
}

function leafOf(defAt: number[], repeated: number, pages: Page[]): Leaf {
  const defs = joined(pages.map((p) => p.defs));
  const reps = joined(pages.map((p) => p.reps));
  const values = joined(pages.map((p) => p.values));
  const max = defAt[defAt.length - 1];
  let valueAt: Int32Array | null = null;
  if (values.length > 0 && values.length < defs.length) {
    valueAt = new Int32Array(defs.length);
    for (let i = 0, next = 0; i < defs.length; i++) valueAt[i] = defs[i] === max ? next++ : -1;
  }
  let rowStart: Int32Array | null = null;
  if (repeated >= 0) {
    let rows = 0;
    for (let i = 0; i < reps.length; i++) if (reps[i] === 0) rows++;
    rowStart = new Int32Array(rows + 1);
    for (let i = 0, row = 0; i < reps.length; i++) if (reps[i] === 0) rowStart[row++] = i;
    rowStart[rows] = reps.length;
  }
  return { defAt, repeated, defs, reps, values, valueAt, rowStart };
}

/** The value at a level (of a scalar leaf: at a row), or null. */
function valueOf(leaf: Leaf, level: number): unknown {
  const { valueAt, values } = leaf;
  const at = valueAt ? valueAt[level] : values.length > 0 ? level : -1;
  return at < 0 ? null : values[at];
}

/** The levels of a row's entries of the list or map at depth `at` on the leaf's path: [from, to), or [-1, -1] where
 * the list or map is null. */
function entryLevels(leaf: Leaf, rowStart: Int32Array, row: number, at: number): [number, number] {
  const from = rowStart[row];
  const def = leaf.defs[from];
  if (def < leaf.defAt[at]) return [-1, -1];
  // An empty list or map has one level, which holds no entry.
  return def < leaf.defAt[leaf.repeated] ? [from, from] : [from, rowStart[row + 1]];
}

type Page = Pick<Leaf, 'defs' | 'reps' | 'values'>;

/** The levels and values of a column chunk's data pages. */
function decodeChunk(bytes: Uint8Array, decoder: Decoder): Page[] {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const { codec, compressors, type, element, schemaPath } = decoder;
  let maxDef = 0;
  for (const { element: e } of schemaPath.slice(1)) if (e.repetition_type !== 'REQUIRED') maxDef++;
  const pages: Page[] = [];
  let dictionary: DecodedArray | undefined;
  while (reader.offset < bytes.length) {
    const header = parquetHeader(reader);
    const page = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    if (page.length < header.compressed_page_size) throw new Error(`column ${decoder.pathInSchema.join('.')} ends inside a page`);
    let decoded: ReturnType<typeof readDataPage>;
    let encoding: Encoding;
    let levels: number;
    if (header.type === 'DICTIONARY_PAGE' && header.dictionary_page_header) {
      const raw = decompressPage(page, header.uncompressed_page_size, codec, compressors);
      const count = header.dictionary_page_header.num_values;
      if (type === 'BYTE_ARRAY' && (element.converted_type === 'UTF8' || element.logical_type?.type === 'STRING')) {
        dictionary = plainStrings(raw, count);
      } else {
        const rawReader = { view: new DataView(raw.buffer, raw.byteOffset, raw.byteLength), offset: 0 };
        dictionary = asNumbers(convert(readPlain(rawReader, type, count, element.type_length), decoder));
      }
      continue;
    } else if (header.type === 'DATA_PAGE' && header.data_page_header) {
      decoded = readDataPage(decompressPage(page, header.uncompressed_page_size, codec, compressors), header.data_page_header, decoder);
      ({ encoding, num_values: levels } = header.data_page_header);
    } else if (header.type === 'DATA_PAGE_V2' && header.data_page_header_v2) {
      decoded = readDataPageV2(page, header, decoder);
      ({ encoding, num_values: levels } = header.data_page_header_v2);
    } else {
      continue; // an index page
    }
    // hyparquet leaves out the definition levels of a page without nulls: all of them are the maximum.
    const defs = decoded.definitionLevels ?? [];
    pages.push({
      defs: defs.length === levels ? defs : new Uint8Array(levels).fill(maxDef),
      reps: decoded.repetitionLevels,
      values: asNumbers(convertWithDictionary(decoded.dataPage, dictionary, encoding, decoder)),
    });
  }
  return pages;
}

/** INT64 values as numbers (log counters and epoch-ms times fit in 2^53), converted per page or dictionary: hyparquet's
 * BigInt64Array hands out a new BigInt for every value read, a checkpoint's size and modificationTime one per file. */
function asNumbers(values: DecodedArray): DecodedArray {
  if (values instanceof BigInt64Array) {
    // Each value as its two 32-bit halves, low first (typed arrays are little-endian on every platform Node runs on).
    const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2);
    const out = new Float64Array(values.length);
    for (let i = 0; i < out.length; i++) out[i] = halves[2 * i + 1] * 4294967296 + (halves[2 * i] >>> 0);
    return out;
  }
  // Unsigned INT64 and INT96 (never in a checkpoint's schema, but a column of any type reads): BigInts still.
  if (values instanceof BigUint64Array) return Float64Array.from(values, Number);
  return Array.isArray(values) && typeof values[0] === 'bigint' ? values.map(Number) : values;
}

/** `count` PLAIN-encoded strings (each a 4-byte length and its UTF-8 bytes): a checkpoint's add.path dictionary, one
 * string per file. Decoded straight from the page, where hyparquet makes a view of each value and then decodes each
 * alone: half of the time of that column. */
function plainStrings(raw: Uint8Array, count: number): string[] {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  // A page all ASCII (paths without escapes, lengths below 128) is decoded in one call, each value cut from it.
  const text = isAscii(bytes) ? bytes.toString('latin1') : null;
  const out = new Array<string>(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt32LE(at);
    at += 4;
    if (at + length > bytes.length) throw new Error('a dictionary page ends inside a value');
    out[i] = text !== null ? text.slice(at, at + length) : bytes.toString('utf8', at, at + length);
    at += length;
  }
  return out;
}

/** The pages' arrays one after the other; a single page's as it is. Arrays of one kind are joined whole (concat, a
 * typed array's set), not value by value: the checkpoint of a long log holds a row for each file it removed, tens of
 * thousands in several pages a column, and pushing each level and value alone took a tenth of opening it. */
function joined<T>(parts: ArrayLike<T>[]): ArrayLike<T> {
  if (parts.length === 1) return parts[0];
  if (parts.every((part) => Array.isArray(part))) return ([] as T[]).concat(...(parts as T[][]));
  let length = 0;
  for (const part of parts) length += part.length;
  const first = parts[0];
  if (ArrayBuffer.isView(first) && parts.every((part) => part.constructor === first.constructor)) {
    const out = new (first.constructor as new (length: number) => TypedArrayOf<T>)(length);
    for (let i = 0, at = 0; i < parts.length; at += parts[i].length, i++) out.set(parts[i], at);
    return out;
  }
  const out = new Array<T>(length);
  let at = 0;
  for (const part of parts) for (let i = 0; i < part.length; i++) out[at++] = part[i];
  return out;
}

/** What `joined` needs of a typed array holding values of type T. */
interface TypedArrayOf<T> extends ArrayLike<T> {
  set(values: ArrayLike<T>, offset: number): void;
}

/** hyparquet decodes snappy itself; the other codecs a writer may choose come from hyparquet-compressors, loaded
 * only for a file that uses one. */
async function compressorsFor(metadata: FileMetaData): Promise<Compressors | undefined> {
  const codecs = new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data?.codec)));
  if ([...codecs].every((c) => c === 'SNAPPY' || c === 'UNCOMPRESSED')) return undefined;
  const { compressors } = await import('hyparquet-compressors');
  const { SNAPPY: _ours, ...others } = compressors as Compressors;
  return others;
}

/** A failure names the checkpoint file: missing, or unreadable and why. A cloud failure (access denied,
 * unreachable) is the store's, not the file's: it keeps its code and message. */
async function asCheckpointError<T>(file: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StorageError) {
      if (err.reason === 'not-found') throw missingFile(`checkpoint file is missing: ${file}`);
      if (isCloudLocation(file) && err.reason !== 'truncated') throw err;
    } else if (err instanceof DeltaportError) {
      throw err;
    }
    throw corruptLog(`cannot read checkpoint file ${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}
