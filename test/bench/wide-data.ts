// The wide benchmark table's rows, generated column-wise into typed arrays (no row objects), chunk by chunk and
// deterministically: chunk k is the same whoever asks for it, so the Delta table and the limits' inputs agree.
import { Bool, TimestampMicrosecond, Utf8, makeData, makeVector, type Table } from 'apache-arrow';
import { dataFileSchema, dataTable } from '../support/delta-writer/data-columns.js';
import type { StructType } from '../../shared/delta-schema.js';
import { seededRandom, type Random } from './random.js';

export const WIDE_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false, metadata: {} },
    { name: 'code', type: 'string', nullable: true, metadata: {} },
    { name: 'amount', type: 'double', nullable: true, metadata: {} },
    { name: 'event_time', type: 'timestamp', nullable: true, metadata: {} },
    { name: 'active', type: 'boolean', nullable: true, metadata: {} },
    { name: 'category', type: 'string', nullable: true, metadata: {} },
    { name: 'quantity', type: 'integer', nullable: true, metadata: {} },
    { name: 'comment', type: 'string', nullable: true, metadata: {} },
  ],
};

/** Strings as Arrow keeps them: offsets into one byte buffer, and an optional validity bitmap. */
export interface TextColumn {
  offsets: Int32Array;
  bytes: Uint8Array;
  validity: Uint8Array | null;
  nullCount: number;
}

export interface WideChunk {
  length: number;
  id: BigInt64Array;
  code: TextColumn;
  amount: Float64Array;
  /** Microseconds since the epoch. */
  eventTime: BigInt64Array;
  /** Bit-packed, least significant bit first (Arrow's layout). */
  active: Uint8Array;
  category: TextColumn;
  quantity: Int32Array;
  comment: TextColumn;
}

const CATEGORIES = ['books', 'garden', 'kitchen', 'toys', 'music', 'sports', 'office', 'health', 'games', 'tools', 'pets', 'travel'];
const WORDS = (
  'delta lake table snapshot version commit parquet column export preview history schema partition ' +
  'vector deletion checkpoint timestamp reader writer stream batch arrow row group footer metadata ' +
  'protocol feature sqlite postgres copy insert index value null string double boolean integer long'
).split(' ');
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const START_MICROS = BigInt(Date.UTC(2024, 0, 1)) * 1000n;
const COMMENT_NULL_RATE = 0.1;

/** Rows [start, start + length) of the table; `seed` and `start` together fix every value. */
export function wideChunk(start: number, length: number, seed: number): WideChunk {
  const random = seededRandom(seed ^ Math.imul(start + 1, 0x9e3779b1));
  const id = new BigInt64Array(length);
  const amount = new Float64Array(length);
  const eventTime = new BigInt64Array(length);
  const active = new Uint8Array((length + 7) >> 3);
  const quantity = new Int32Array(length);
  for (let i = 0; i < length; i++) {
    const row = start + i;
    id[i] = BigInt(row);
    amount[i] = Math.round(random() * 1e8) / 100;
    eventTime[i] = START_MICROS + BigInt(row) * 1_700_000n + BigInt(Math.floor(random() * 1e6));
    if (random() < 0.5) active[i >> 3] |= 1 << (i & 7);
    quantity[i] = Math.floor(random() * 1000) - 100;
  }
  return {
    length,
    id,
    code: textColumn(length, random, 0, (r) => {
      let s = 'c';
      for (let k = 0; k < 7; k++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
      return s;
    }),
    amount,
    eventTime,
    active,
    category: textColumn(length, random, 0, (r) => CATEGORIES[Math.floor(r() * CATEGORIES.length)]),
    quantity,
    comment: textColumn(length, random, COMMENT_NULL_RATE, (r) => {
      const n = 4 + Math.floor(r() * 7);
      const words: string[] = [];
      for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(r() * WORDS.length)]);
      return words.join(' ');
    }),
  };
}

/** Builds a column of ASCII strings straight into bytes. */
function textColumn(length: number, random: Random, nullRate: number, make: (r: Random) => string): TextColumn {
  const offsets = new Int32Array(length + 1);
  let bytes = new Uint8Array(length * 16);
  const validity = nullRate > 0 ? new Uint8Array((length + 7) >> 3) : null;
  let nullCount = 0;
  let at = 0;
  for (let i = 0; i < length; i++) {
    if (validity && random() < nullRate) {
      nullCount++;
    } else {
      if (validity) validity[i >> 3] |= 1 << (i & 7);
      const s = make(random);
      if (at + s.length > bytes.length) {
        const grown = new Uint8Array(bytes.length * 2 + s.length);
        grown.set(bytes);
        bytes = grown;
      }
      for (let k = 0; k < s.length; k++) bytes[at++] = s.charCodeAt(k);
    }
    offsets[i + 1] = at;
  }
  return { offsets, bytes: bytes.subarray(0, at), validity, nullCount };
}

export function textAt(column: TextColumn, i: number): string | null {
  if (column.validity && (column.validity[i >> 3] & (1 << (i & 7))) === 0) return null;
  return latin1.decode(column.bytes.subarray(column.offsets[i], column.offsets[i + 1]));
}

export function activeAt(chunk: WideChunk, i: number): boolean {
  return (chunk.active[i >> 3] & (1 << (i & 7))) !== 0;
}

const latin1 = new TextDecoder('latin1');

const fileSchema = dataFileSchema(WIDE_SCHEMA);

function utf8Vector(column: TextColumn, length: number) {
  return makeVector(
    makeData({
      type: new Utf8(),
      length,
      valueOffsets: column.offsets,
      data: column.bytes,
      nullBitmap: column.validity ?? undefined,
      nullCount: column.nullCount,
    }),
  );
}

/** The chunk as an Arrow table, sharing its buffers. */
export function wideArrowTable(chunk: WideChunk): Table {
  const { length } = chunk;
  return dataTable(fileSchema, {
    id: makeVector(chunk.id),
    code: utf8Vector(chunk.code, length),
    amount: makeVector(chunk.amount),
    event_time: makeVector(makeData({ type: new TimestampMicrosecond('UTC'), length, data: chunk.eventTime })),
    active: makeVector(makeData({ type: new Bool(), length, data: chunk.active })),
    category: utf8Vector(chunk.category, length),
    quantity: makeVector(chunk.quantity),
    comment: utf8Vector(chunk.comment, length),
  });
}
