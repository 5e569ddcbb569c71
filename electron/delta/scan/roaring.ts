// Delta's RoaringBitmapArray in its "portable" serialization (PROTOCOL.md, Deletion Vector Format): a magic number, a
// 64-bit bucket count, then per bucket its high 32 bits and a standard 32-bit Roaring bitmap (the portable format of
// the Roaring spec: array, bitmap and run containers). Row indexes come back as a sorted Float64Array because indexes
// may exceed 32 bits and a flat typed array is the cheapest thing to walk alongside a scan.
import { DeltaportError } from '../../../shared/errors.js';

export const ROARING_ARRAY_MAGIC = 1681511377;
const COOKIE_NO_RUNS = 12346;
const COOKIE_WITH_RUNS = 12347;
const ARRAY_MAX = 4096;
const BITMAP_BYTES = 8192;
const TWO_POW_32 = 2 ** 32;

function corrupt(detail: string): DeltaportError {
  return new DeltaportError('CORRUPT_DATA', `invalid deletion vector bitmap: ${detail}`);
}

class Reader {
  private readonly view: DataView;
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  private need(n: number): void {
    if (this.offset + n > this.bytes.length) throw corrupt('truncated data');
  }
  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }
  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = Number(this.view.getBigUint64(this.offset, true));
    this.offset += 8;
    return v;
  }
  skip(n: number): void {
    this.need(n);
    this.offset += n;
  }
  take(n: number): Uint8Array {
    this.need(n);
    this.offset += n;
    return this.bytes.subarray(this.offset - n, this.offset);
  }
}

/** Parses a serialized RoaringBitmapArray (magic included) into its sorted row indexes. */
export function parseRoaringBitmapArray(bytes: Uint8Array): Float64Array {
  const r = new Reader(bytes);
  const magic = r.u32();
  if (magic !== ROARING_ARRAY_MAGIC) throw corrupt(`unknown magic number ${magic}`);
  const buckets = r.u64();
  const parts: Float64Array[] = [];
  let total = 0;
  let lastKey = -1;
  for (let b = 0; b < buckets; b++) {
    const key = r.u32();
    if (key <= lastKey) throw corrupt('bucket keys are not increasing');
    lastKey = key;
    const part = readBitmap32(r, key * TWO_POW_32);
    parts.push(part);
    total += part.length;
  }
  const out = new Float64Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function readBitmap32(r: Reader, base: number): Float64Array {
  const cookie = r.u32();
  let size: number;
  let runFlags: Uint8Array | null = null;
  if ((cookie & 0xffff) === COOKIE_WITH_RUNS) {
    size = (cookie >>> 16) + 1;
    runFlags = r.take(Math.ceil(size / 8));
  } else if (cookie === COOKIE_NO_RUNS) {
    size = r.u32();
  } else {
    throw corrupt(`unknown Roaring cookie ${cookie}`);
  }
  const keys = new Array<number>(size);
  const cards = new Array<number>(size);
  let total = 0;
  for (let i = 0; i < size; i++) {
    keys[i] = r.u16();
    cards[i] = r.u16() + 1;
    total += cards[i];
  }
  // The offset header only helps random access; containers follow one another anyway.
  if (!runFlags || size >= 4) r.skip(4 * size);
  const out = new Float64Array(total);
  let at = 0;
  for (let i = 0; i < size; i++) {
    const high = base + keys[i] * 0x10000;
    const isRun = runFlags !== null && (runFlags[i >> 3] & (1 << (i & 7))) !== 0;
    const before = at;
    if (isRun) {
      const runs = r.u16();
      for (let k = 0; k < runs; k++) {
        const start = r.u16();
        const length = r.u16() + 1;
        if (at + length > out.length) throw corrupt('run container exceeds its cardinality');
        for (let v = start; v < start + length; v++) out[at++] = high + v;
      }
    } else if (cards[i] <= ARRAY_MAX) {
      for (let k = 0; k < cards[i]; k++) out[at++] = high + r.u16();
    } else {
      for (let word = 0; word < BITMAP_BYTES / 4; word++) {
        let bits = r.u32();
        while (bits !== 0) {
          const low = bits & -bits;
          if (at >= out.length) throw corrupt('bitmap container exceeds its cardinality');
          out[at++] = high + word * 32 + (31 - Math.clz32(low));
          bits ^= low;
        }
      }
    }
    if (at - before !== cards[i]) throw corrupt('container cardinality does not match its contents');
  }
  return out;
}

/** Serializes sorted, distinct, non-negative row indexes as a portable RoaringBitmapArray (magic included). */
export function serializeRoaringBitmapArray(rows: ArrayLike<number>): Uint8Array {
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i];
    if (!Number.isSafeInteger(v) || v < 0 || (i > 0 && v <= rows[i - 1])) {
      throw new RangeError('row indexes must be sorted, distinct, non-negative integers');
    }
  }
  const chunks: Uint8Array[] = [];
  const header = new DataView(new ArrayBuffer(12));
  header.setUint32(0, ROARING_ARRAY_MAGIC, true);
  let buckets = 0;
  for (let i = 0; i < rows.length;) {
    const key = Math.floor(rows[i] / TWO_POW_32);
    let j = i;
    while (j < rows.length && Math.floor(rows[j] / TWO_POW_32) === key) j++;
    const keyBytes = new DataView(new ArrayBuffer(4));
    keyBytes.setUint32(0, key, true);
    chunks.push(new Uint8Array(keyBytes.buffer));
    const lows: number[] = [];
    for (let k = i; k < j; k++) lows.push(rows[k] - key * TWO_POW_32);
    chunks.push(serializeBitmap32(lows));
    buckets++;
    i = j;
  }
  header.setBigUint64(4, BigInt(buckets), true);
  return concat([new Uint8Array(header.buffer), ...chunks]);
}

type Container = { key: number; card: number; kind: 'array' | 'bitmap' | 'run'; body: Uint8Array };

function serializeBitmap32(values: number[]): Uint8Array {
  const containers: Container[] = [];
  for (let i = 0; i < values.length;) {
    const key = values[i] >>> 16;
    let j = i;
    while (j < values.length && values[j] >>> 16 === key) j++;
    containers.push(
      container(
        key,
        values.slice(i, j).map((v) => v & 0xffff),
      ),
    );
    i = j;
  }
  const size = containers.length;
  const hasRuns = containers.some((c) => c.kind === 'run');
  const withOffsets = !hasRuns || size >= 4;
  const headerBytes = (hasRuns ? 4 + Math.ceil(size / 8) : 8) + 4 * size + (withOffsets ? 4 * size : 0);
  const head = new Uint8Array(headerBytes);
  const view = new DataView(head.buffer);
  let at = 0;
  if (hasRuns) {
    view.setUint32(at, COOKIE_WITH_RUNS | ((size - 1) << 16), true);
    at += 4;
    containers.forEach((c, i) => {
      if (c.kind === 'run') head[at + (i >> 3)] |= 1 << (i & 7);
    });
    at += Math.ceil(size / 8);
  } else {
    view.setUint32(at, COOKIE_NO_RUNS, true);
    view.setUint32(at + 4, size, true);
    at += 8;
  }
  for (const c of containers) {
    view.setUint16(at, c.key, true);
    view.setUint16(at + 2, c.card - 1, true);
    at += 4;
  }
  if (withOffsets) {
    let offset = headerBytes;
    for (const c of containers) {
      view.setUint32(at, offset, true);
      at += 4;
      offset += c.body.length;
    }
  }
  return concat([head, ...containers.map((c) => c.body)]);
}

/** Picks the smallest of the three container kinds, as Roaring writers do. */
function container(key: number, lows: number[]): Container {
  const runs: [number, number][] = [];
  for (const v of lows) {
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === v) last[1]++;
    else runs.push([v, 1]);
  }
  const runBytes = 2 + 4 * runs.length;
  const arrayBytes = lows.length <= ARRAY_MAX ? 2 * lows.length : Infinity;
  if (runBytes < Math.min(arrayBytes, BITMAP_BYTES)) {
    const body = new DataView(new ArrayBuffer(runBytes));
    body.setUint16(0, runs.length, true);
    runs.forEach(([start, length], i) => {
      body.setUint16(2 + 4 * i, start, true);
      body.setUint16(4 + 4 * i, length - 1, true);
    });
    return { key, card: lows.length, kind: 'run', body: new Uint8Array(body.buffer) };
  }
  if (arrayBytes <= BITMAP_BYTES) {
    const body = new DataView(new ArrayBuffer(arrayBytes));
    lows.forEach((v, i) => body.setUint16(2 * i, v, true));
    return { key, card: lows.length, kind: 'array', body: new Uint8Array(body.buffer) };
  }
  const words = new Uint32Array(BITMAP_BYTES / 4);
  for (const v of lows) words[v >>> 5] |= 1 << (v & 31);
  const body = new DataView(new ArrayBuffer(BITMAP_BYTES));
  words.forEach((w, i) => body.setUint32(4 * i, w, true));
  return { key, card: lows.length, kind: 'bitmap', body: new Uint8Array(body.buffer) };
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
