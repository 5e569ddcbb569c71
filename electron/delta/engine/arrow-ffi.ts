// Decoded columns copied out of parquet-wasm's memory as the Arrow C data interface lays them out (its intoFFI), for
// the scan's batches: an IPC stream costs a copy of every buffer inside WebAssembly (the stream written) and a parse
// in JavaScript (apache-arrow's reader), and here each buffer is copied once, straight into the Data that holds it.
// Types come from the file's schema, read once when it is opened; a type not listed in ffiReadable is read through
// IPC instead (parquet-file.ts). Structs are those of WebAssembly's 32-bit memory: pointers are 4 bytes, int64
// fields 8-byte aligned. A reader whose consumer keeps no view of a piece's batches once it asks for the next piece
// (ScanOptions.reuseBuffers: the scan thread, an export into a sink that copies what it holds) gives a ColumnScratch,
// and the columns are copied into its buffers instead of new ones.
import * as arrow from 'apache-arrow';
import { DeltaportError } from '../../../shared/errors.js';

const T = arrow.Type;

/** Whether a column of this type can be read here. */
export function ffiReadable(type: arrow.DataType): boolean {
  switch (type.typeId) {
    case T.Null:
    case T.Bool:
    case T.Int:
    case T.Float:
    case T.Decimal:
    case T.Date:
    case T.Time:
    case T.Timestamp:
    case T.Duration:
    case T.FixedSizeBinary:
    case T.Utf8:
    case T.Binary:
    case T.LargeUtf8:
    case T.LargeBinary:
      return true;
    case T.List:
    case T.LargeList:
    case T.Struct:
    case T.Map:
      return type.children.every((c) => ffiReadable(c.type));
    default:
      return false;
  }
}

/**
 * Buffers that one decoded batch's columns are copied into, and the next batch's over them. New ArrayBuffers for every
 * decoded piece (32k rows, 3 MB of the benchmark's wide table, 196 MB per 2M rows) drove the scan thread's full
 * (mark-compact) garbage collections: 20-22 per export of that table, 2 with the buffers reused (docs/benchmark.md).
 * The buffers are taken in the order the columns are copied, so each one keeps serving the same column.
 */
export class ColumnScratch {
  private readonly buffers: ArrayBuffer[] = [];
  private taken = 0;

  /** Starts a batch: every buffer may be written again. */
  reuse(): void {
    this.taken = 0;
  }

  /** `bytes` bytes, from the start of a buffer of their own until reuse(). */
  take(bytes: number): Uint8Array<ArrayBuffer> {
    let buffer = this.buffers[this.taken];
    if (!buffer || buffer.byteLength < bytes) {
      // A quarter more than asked, so that a column whose pieces vary a little in size (strings) does not grow every time.
      buffer = new ArrayBuffer(bytes + (bytes >> 2));
      this.buffers[this.taken] = buffer;
    }
    this.taken++;
    return new Uint8Array(buffer, 0, bytes);
  }
}

/** Where a batch's buffers are copied to (new ArrayBuffers, or a scratch's): a view from the start of its buffer, over
 * which the wider typed arrays are made. */
type Copier = (memory: ArrayBuffer, ptr: number, bytes: number) => Uint8Array<ArrayBuffer>;

const newBuffers: Copier = (memory, ptr, bytes) => new Uint8Array(memory.slice(ptr, ptr + bytes));

/** The columns of a decoded batch (a struct ArrowArray at `arrayPtr`, its ArrowSchema at `schemaPtr`), by name, each
 * of the type `types` gives for its name; copied into `scratch` when given, valid until its next batch. */
export function decodedColumns(
  memory: ArrayBuffer,
  arrayPtr: number,
  schemaPtr: number,
  types: Map<string, arrow.DataType>,
  scratch?: ColumnScratch,
): { length: number; columns: Map<string, arrow.Data> } {
  scratch?.reuse();
  const copy: Copier = scratch
    ? (from, ptr, bytes) => {
        const to = scratch.take(bytes);
        to.set(new Uint8Array(from, ptr, bytes));
        return to;
      }
    : newBuffers;
  const view = new DataView(memory);
  const array = arrayAt(view, arrayPtr);
  const names = Number(view.getBigInt64(schemaPtr + 24, true));
  const columns = new Map<string, arrow.Data>();
  for (let i = 0; i < names; i++) {
    const name = cString(memory, view.getUint32(view.getUint32(view.getUint32(schemaPtr + 32, true) + 4 * i, true) + 4, true));
    const type = types.get(name);
    if (!type) throw new DeltaportError('INTERNAL', `the decoder returned a column '${name}' that was not asked for`);
    columns.set(name, dataAt(memory, view, copy, array.child(i), type));
  }
  return { length: array.length, columns };
}

interface ArrayStruct {
  length: number;
  nullCount: number;
  offset: number;
  buffer(i: number): number;
  child(i: number): number;
}

function arrayAt(view: DataView, ptr: number): ArrayStruct {
  const buffers = view.getUint32(ptr + 40, true);
  const children = view.getUint32(ptr + 44, true);
  return {
    length: Number(view.getBigInt64(ptr, true)),
    nullCount: Number(view.getBigInt64(ptr + 8, true)),
    offset: Number(view.getBigInt64(ptr + 16, true)),
    buffer: (i) => view.getUint32(buffers + 4 * i, true),
    child: (i) => view.getUint32(children + 4 * i, true),
  };
}

function dataAt(memory: ArrayBuffer, view: DataView, copy: Copier, ptr: number, type: arrow.DataType): arrow.Data {
  const a = arrayAt(view, ptr);
  const { length, offset } = a;
  if (type.typeId === T.Null) return new arrow.Data(type, 0, length, length);
  // Buffer 0 is the validity bitmap, absent (a null pointer) where no row is null; a null count of -1 is unknown.
  const validity = a.nullCount !== 0 && a.buffer(0) !== 0 ? bits(memory, copy, a.buffer(0), offset, length) : undefined;
  const make = (buffers: { values?: arrow.Data['values']; offsets?: Int32Array | BigInt64Array }, children: arrow.Data[] = []) =>
    new arrow.Data(
      type,
      0,
      length,
      validity ? a.nullCount : 0,
      {
        [arrow.BufferType.OFFSET]: buffers.offsets as Int32Array,
        [arrow.BufferType.DATA]: buffers.values,
        [arrow.BufferType.VALIDITY]: validity,
      },
      children,
    );
  // Offsets keep their values: what they point into is copied from its start.
  const offsets = (wide: boolean) =>
    wide
      ? new BigInt64Array(copy(memory, a.buffer(1) + 8 * offset, 8 * (length + 1)).buffer, 0, length + 1)
      : new Int32Array(copy(memory, a.buffer(1) + 4 * offset, 4 * (length + 1)).buffer, 0, length + 1);
  const nested = (): void => {
    // arrow-rs exports a slice of a nested column with its children whole; the decoder's columns are never slices.
    if (offset !== 0) throw new DeltaportError('INTERNAL', `the decoder returned ${String(type)} at offset ${offset}`);
  };
  switch (type.typeId) {
    case T.Bool:
      return make({ values: bits(memory, copy, a.buffer(1), offset, length) });
    case T.Utf8:
    case T.Binary:
    case T.LargeUtf8:
    case T.LargeBinary: {
      const ends = offsets(type.typeId === T.LargeUtf8 || type.typeId === T.LargeBinary);
      return make({ offsets: ends, values: copy(memory, a.buffer(2), Number(ends[length])) });
    }
    case T.List:
    case T.LargeList:
    case T.Map:
      nested();
      return make({ offsets: offsets(type.typeId === T.LargeList) }, [dataAt(memory, view, copy, a.child(0), type.children[0].type)]);
    case T.Struct:
      nested();
      return make(
        {},
        type.children.map((c, i) => dataAt(memory, view, copy, a.child(i), c.type)),
      );
    default: {
      // Fixed width: Int, Float, Decimal, Date, Time, Timestamp, Duration, FixedSizeBinary.
      const Values = type.ArrayType as new (buffer: ArrayBuffer, byteOffset: number, length: number) => arrow.Data['values'];
      const elements = stride(type) * length;
      const width = (Values as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT * stride(type);
      return make({ values: new Values(copy(memory, a.buffer(1) + width * offset, width * length).buffer, 0, elements) });
    }
  }
}

/** Elements of the type's array per row. */
function stride(type: arrow.DataType): number {
  if (arrow.DataType.isDecimal(type)) return type.bitWidth / 32;
  if (arrow.DataType.isFixedSizeBinary(type)) return type.byteWidth;
  return 1;
}

/** `length` bits from bit `offset` of the bitmap at `ptr`, as a bitmap of their own from bit 0 (a boolean column's
 * values or validity at an offset, as arrow-rs exports a slice of one). */
function bits(memory: ArrayBuffer, copy: Copier, ptr: number, offset: number, length: number): Uint8Array {
  const bytes = (length + 7) >> 3;
  const shift = offset & 7;
  if (shift === 0) return copy(memory, ptr + (offset >> 3), bytes);
  const source = new Uint8Array(memory, ptr + (offset >> 3), (shift + length + 7) >> 3);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (source[i] >> shift) | ((source[i + 1] ?? 0) << (8 - shift));
  return out;
}

function cString(memory: ArrayBuffer, ptr: number): string {
  const bytes = new Uint8Array(memory, ptr);
  return Buffer.from(bytes.buffer, ptr, bytes.indexOf(0)).toString('utf8');
}
