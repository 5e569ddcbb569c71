// A transaction's rows reach SQLite as a database image of their own (sqlite-image.ts). The target must hold exactly
// what SQLite itself stores when the same values are bound one by one (SQLite applying the column's affinity is the
// oracle), for every affinity that accepts them, whether SQLite copies the image's records as they are (the target's
// own columns in their order) or rebuilds them (a column list); and the image must be a database SQLite checks as
// sound, long records on overflow pages and many pages included.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as arrow from 'apache-arrow';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { StructField } from '../../../shared/delta-schema.js';
import { ImageBuilder } from '../../../electron/sinks/sqlite-image.js';
import { createSqliteSink } from '../../../electron/sinks/sqlite-sink.js';
import { drive, sqliteSpec, streamOf } from './sink-harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'deltaport-image-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshFile = (): string => path.join(dir, `db${n++}.sqlite`);

const ROWS = 90;
const isNullRow = (i: number) => i % 11 === 5;
/** Cycles `values` over ROWS rows. */
const cycle = <T>(values: T[]): T[] => Array.from({ length: ROWS }, (_, i) => values[i % values.length]);

const LONGS = cycle([
  0n,
  1n,
  -1n,
  2n,
  127n,
  128n,
  -128n,
  -129n,
  32_767n,
  32_768n,
  -32_769n,
  8_388_607n,
  8_388_608n,
  -8_388_609n,
  2n ** 31n - 1n,
  2n ** 31n,
  -(2n ** 31n) - 1n,
  2n ** 32n,
  2n ** 47n - 1n,
  2n ** 47n,
  -(2n ** 47n) - 1n,
  2n ** 53n + 1n,
  -(2n ** 63n),
  2n ** 63n - 1n,
]);
const INTS = cycle([0, 1, -1, 127, -128, 128, 32_767, -32_768, 65_535, 8_388_607, -8_388_608, 2 ** 31 - 1, -(2 ** 31)]);
const SHORTS = cycle([0, 1, -1, 255, -256, 32_767, -32_768]);
const DOUBLES = cycle([
  NaN,
  Infinity,
  -Infinity,
  0,
  -0,
  1,
  1.5,
  -2.25,
  0.1,
  1e308,
  5e-324,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  -(2 ** 62),
  2 ** 63,
  -(2 ** 63),
  1e20,
  123_456_789.125,
  28_526.79,
]);
const FLOATS = cycle([NaN, Infinity, 0, -0, 1, 0.1, -1.5, 3.4e38, 16_777_216, 2 ** 40]);
const STRINGS = cycle(['', 'a', 'héllo', '日本語', '😀 emoji', 'x'.repeat(57), 'y'.repeat(58), 'z'.repeat(300), 'w'.repeat(70_000)]);
const BINARIES = cycle([new Uint8Array(0), Uint8Array.of(0, 255, 1), new Uint8Array(5_000).fill(7), new Uint8Array(66_000).fill(9)]);
const BOOLS = cycle([true, false]);

/** The scan's Arrow layouts of the values above, with a NULL every 11 rows; `bad` holds bytes that are not UTF-8. */
function valuesTable(): arrow.Table {
  const withNulls = <T>(values: T[]) => values.map((v, i) => (isNullRow(i) ? null : v));
  return new arrow.Table({
    l: arrow.vectorFromArray(withNulls(LONGS), new arrow.Int64()),
    i: arrow.vectorFromArray(withNulls(INTS), new arrow.Int32()),
    sh: arrow.vectorFromArray(withNulls(SHORTS), new arrow.Int16()),
    d: arrow.vectorFromArray(withNulls(DOUBLES), new arrow.Float64()),
    f: arrow.vectorFromArray(withNulls(FLOATS), new arrow.Float32()),
    s: arrow.vectorFromArray(withNulls(STRINGS), new arrow.Utf8()),
    bin: arrow.vectorFromArray(withNulls(BINARIES), new arrow.Binary()),
    bool: arrow.vectorFromArray(withNulls(BOOLS), new arrow.Bool()),
    // Every row's bytes, nulls included (not UTF-8 in the 3rd): what a null row spans is never read.
    bad: arrow.makeData({
      type: new arrow.Utf8(),
      length: ROWS,
      nullCount: ROWS - Array.from({ length: ROWS }, (_, i) => i).filter((i) => !isNullRow(i)).length,
      nullBitmap: Uint8Array.from({ length: Math.ceil(ROWS / 8) }, (_, b) =>
        Array.from({ length: 8 }, (_, k) => (b * 8 + k < ROWS && !isNullRow(b * 8 + k) ? 1 << k : 0)).reduce((x, y) => x | y, 0),
      ),
      valueOffsets: Int32Array.from({ length: ROWS + 1 }, (_, i) => 2 * i),
      data: Uint8Array.from({ length: 2 * ROWS }, (_, k) => (k === 4 ? 0xff : 0x61)),
    }),
  } as never);
}

const FIELDS: StructField[] = [
  { name: 'l', type: 'long', nullable: true },
  { name: 'i', type: 'integer', nullable: true },
  { name: 'sh', type: 'short', nullable: true },
  { name: 'd', type: 'double', nullable: true },
  { name: 'f', type: 'float', nullable: true },
  { name: 's', type: 'string', nullable: true },
  { name: 'bin', type: 'binary', nullable: true },
  { name: 'bool', type: 'boolean', nullable: true },
  { name: 'bad', type: 'string', nullable: true },
];

/** Row i's values as binding gives them to SQLite: NaN as its text (SQLite has none), booleans as 0 and 1, text
 * as the string its bytes decode to. */
function boundRow(i: number): unknown[] {
  if (isNullRow(i)) return FIELDS.map(() => null);
  const real = (v: number) => (Number.isNaN(v) ? 'NaN' : v);
  const bad = Buffer.from(i === 2 ? [0xff, 0x61] : [0x61, 0x61]).toString('utf8');
  return [
    LONGS[i],
    INTS[i],
    SHORTS[i],
    real(DOUBLES[i]),
    real(Math.fround(FLOATS[i])),
    STRINGS[i],
    Buffer.from(BINARIES[i]),
    BOOLS[i] ? 1 : 0,
    bad,
  ];
}

/** Each column of `table` as SQLite holds it: its storage class and value (a BLOB's in hex), row by row. */
function stored(db: Database.Database, table: string): Record<string, unknown>[] {
  const value = (name: string) => `CASE typeof("${name}") WHEN 'blob' THEN hex("${name}") ELSE "${name}" END`;
  const columns = FIELDS.map((f) => `typeof("${f.name}") AS "${f.name} type", ${value(f.name)} AS "${f.name}"`).join(', ');
  return db.prepare(`SELECT ${columns} FROM "${table}" ORDER BY rowid`).safeIntegers().all() as Record<string, unknown>[];
}

/** Declared types per field that sql-types.ts accepts, from the mapping's own to NUMERIC and untyped. */
const DECLARATIONS: Record<string, string[]> = {
  natural: ['INTEGER', 'INTEGER', 'INTEGER', 'REAL', 'REAL', 'TEXT', 'BLOB', 'INTEGER', 'TEXT'],
  numeric: ['NUMERIC', 'BIGINT', 'DECIMAL(5)', 'NUMERIC', 'NUMERIC', '', '', 'BOOLEAN', 'VARCHAR(9)'],
  spelled: ['INT8', 'MEDIUMINT', 'SMALLINT', 'DOUBLE PRECISION', 'FLOAT', 'CLOB', '', 'TINYINT', 'NVARCHAR(100)'],
};

describe('rows through their SQLite image', () => {
  for (const [name, types] of Object.entries(DECLARATIONS)) {
    for (const order of ['the target columns in order', 'a column list'] as const) {
      it(`store what binding stores, into ${name} types, as ${order}`, async () => {
        const file = freshFile();
        const db = new Database(file);
        const columns = FIELDS.map((f, c) => `"${f.name}" ${types[c]}`);
        // A reordered table with one more column makes the insert name its columns.
        const targetColumns = order === 'a column list' ? [...columns].reverse().concat(`"extra" TEXT DEFAULT 'x'`) : columns;
        db.exec(`CREATE TABLE expected (${columns.join(', ')}); CREATE TABLE target (${targetColumns.join(', ')})`);
        const insert = db.prepare(`INSERT INTO expected VALUES (${FIELDS.map(() => '?').join(', ')})`);
        for (let i = 0; i < ROWS; i++) insert.run(...boundRow(i));
        db.close();
        // Transactions of 20 rows over batches of 7: a transaction's rows come from several batches.
        await drive(createSqliteSink(sqliteSpec(file, { batchSize: 20 })), streamOf(valuesTable(), FIELDS, 7));
        const check = new Database(file, { readonly: true });
        try {
          expect(stored(check, 'target')).toEqual(stored(check, 'expected'));
          expect(check.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        } finally {
          check.close();
        }
      });
    }
  }

  it('hold NULLs to a NOT NULL target column: SQLite refuses the batch with its own message', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec('CREATE TABLE target (l INTEGER NOT NULL, i INTEGER, sh INTEGER, d REAL, f REAL, s TEXT, bin BLOB, bool INTEGER, bad TEXT)');
    db.close();
    // The first NULL of l is in row 6: the first transaction of 5 rows lands, the second fails.
    await expect(drive(createSqliteSink(sqliteSpec(file, { batchSize: 5 })), streamOf(valuesTable(), FIELDS, 7))).rejects.toMatchObject({
      code: 'SINK_WRITE',
      message: 'rows 6-10 failed: NOT NULL constraint failed: target.l',
    });
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT count(*) FROM target').pluck().get()).toBe(5);
    check.close();
  });

  it('upsert: the later row of a key repeated within a transaction wins', async () => {
    const file = freshFile();
    const keyed = new arrow.Table({
      id: arrow.vectorFromArray([1n, 2n, 1n, 3n, 2n], new arrow.Int64()),
      v: arrow.vectorFromArray(['a', 'b', 'c', 'd', 'e'], new arrow.Utf8()),
    });
    const fields: StructField[] = [
      { name: 'id', type: 'long', nullable: false },
      { name: 'v', type: 'string', nullable: true },
    ];
    await drive(createSqliteSink(sqliteSpec(file, { mode: 'upsert', keyColumns: ['id'] })), streamOf(keyed, fields, 2));
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT id, v FROM target ORDER BY id').raw().all()).toEqual([
      [1, 'c'],
      [2, 'e'],
      [3, 'd'],
    ]);
    check.close();
  });
});

describe('a SQLite image', () => {
  it('is a sound database: records of every length (on chains of overflow pages), over many leaf pages', () => {
    // Payloads around what a 64 KiB page holds in a cell (65,501 bytes), up to chains of several overflow pages, and
    // enough small rows for dozens of leaves.
    const long = [0, 1, 57, 58, 127, 128, 65_480, 65_490, 65_495, 65_500, 65_510, 65_531, 65_532, 100_000, 131_064, 300_001];
    const lengths = [...long, ...Array.from({ length: 120_000 }, (_, i) => i % 40)];
    const text = (i: number, length: number) => Array.from({ length }, (_, k) => String.fromCharCode(97 + ((i + k) % 26))).join('');
    const values = lengths.map((length, i) => text(i, length));
    const fields: StructField[] = [
      { name: 'id', type: 'long', nullable: false },
      { name: 's', type: 'string', nullable: true },
    ];
    const table = new arrow.Table({
      id: arrow.vectorFromArray(
        lengths.map((_, i) => BigInt(i) * 1_000_003n),
        new arrow.Int64(),
      ),
      s: arrow.vectorFromArray(values, new arrow.Utf8()),
    });
    const file = freshFile();
    writeFileSync(
      file,
      new ImageBuilder().build(table.batches, fields, [
        { type: 'INTEGER', notNull: true },
        { type: 'TEXT', notNull: false },
      ]),
    );
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'rows'").pluck().get()).toBe(
        'CREATE TABLE "rows" ("c0" INTEGER NOT NULL, "c1" TEXT)',
      );
      const rows = db.prepare('SELECT rowid, c0, c1 FROM rows ORDER BY rowid').raw().all() as [number, number, string][];
      expect(rows.length).toBe(lengths.length);
      const wrong = rows.filter(([rowid, id, s], i) => rowid !== i + 1 || id !== i * 1_000_003 || s !== values[i]);
      expect(wrong).toEqual([]);
      expect(db.pragma('page_count', { simple: true })).toBeGreaterThan(50);
    } finally {
      db.close();
    }
  });
});
