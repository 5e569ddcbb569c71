// Binary COPY against the real server: every mapped type, edge values and random ones land exactly as the same
// rows sent as COPY text land (the text encoder is the reference) and as the Arrow values say; the sink picks binary
// only for targets whose column types read it.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StructField } from '../../../shared/delta-schema.js';
import { binaryCopyFits } from '../../../electron/sinks/copy-binary.js';
import { SlabPool } from '../../../electron/sinks/copy-output.js';
import { CopyRows } from '../../../electron/sinks/copy-rows.js';
import { CopyIn } from '../../../electron/sinks/copy-in.js';
import { createPostgresSink } from '../../../electron/sinks/postgres-sink.js';
import { copySql } from '../../../electron/sinks/sql-statements.js';
import { createTableSql } from '../../../electron/sinks/sql-types.js';
import { useTestDatabase } from '../../support/test-database.js';
import { ALL_TYPES_FIELDS, allTypesTable, decimalWords, EXPECTED } from './all-types.js';
import { drive, pgSpec, streamOf } from './sink-harness.js';

const db = useTestDatabase('copy_binary');

const field = (name: string, type: StructField['type']): StructField => ({ name, type, nullable: true });

/** A fixed-width column from its raw values; rows listed in `nulls` are NULL. */
function raw<T extends arrow.DataType>(type: T, values: ArrayLike<unknown> & { length: number }, nulls: number[] = []): arrow.Vector<T> {
  const length = type.typeId === arrow.Type.Decimal ? values.length / 4 : values.length;
  const nullBitmap = new Uint8Array(Math.ceil(length / 8)).fill(0xff);
  for (const i of nulls) nullBitmap[i >> 3] &= ~(1 << (i & 7));
  return arrow.makeVector(arrow.makeData({ type, length, nullCount: nulls.length, nullBitmap, data: values } as never) as arrow.Data<T>);
}

/** Lands the batches into a fresh table of the mapped types through one COPY of the given format. */
async function land(table: string, fields: StructField[], batches: arrow.RecordBatch[], binary: boolean): Promise<void> {
  await db.client.query(`DROP TABLE IF EXISTS "${table}"`);
  await db.client.query(createTableSql('postgres', table, fields));
  const rows = new CopyRows(binary, fields, new SlabPool());
  await rows.add(batches);
  const copy = new CopyIn(copySql(table, fields, binary), rows.finish());
  db.client.query(copy);
  await copy.done;
}

/** Every column as the server's text output, in row order. */
async function landedText(table: string, fields: StructField[]): Promise<(string | null)[][]> {
  await db.client.query("SET TimeZone = 'UTC'");
  const columns = fields.map((f) => `"${f.name}"::text`).join(', ');
  const { rows } = await db.client.query({ text: `SELECT ${columns} FROM "${table}" ORDER BY ctid`, rowMode: 'array' });
  return rows as (string | null)[][];
}

/** Lands the rows both ways and returns what binary landed, having checked that text landed the same. */
async function landedBothWays(fields: StructField[], batches: arrow.RecordBatch[]): Promise<(string | null)[][]> {
  await land('by_text', fields, batches, false);
  await land('by_binary', fields, batches, true);
  const binary = await landedText('by_binary', fields);
  expect(binary).toEqual(await landedText('by_text', fields));
  return binary;
}

const columnOf = (rows: (string | null)[][], c: number) => rows.map((r) => r[c]);

/** The exact text of unscaled / 10^scale, as PostgreSQL prints a numeric of that scale. */
function decimalText(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return unscaled < 0n ? `-${text}` : text;
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const DAY_MICROS = 86_400_000_000n;
const PG_EPOCH_DAYS = 10_957;

describe('binary COPY, value by value', () => {
  it('lands every Delta type of all-types.ts as text COPY does and as the Arrow values say', async () => {
    const batches = allTypesTable().batches;
    const rows = await landedBothWays(ALL_TYPES_FIELDS, batches);
    ALL_TYPES_FIELDS.forEach((f, c) => {
      const expected = EXPECTED[f.name as keyof typeof EXPECTED];
      if (!expected || ['bool', 'dt', 'ts', 'ntz', 'bin', 'st', 'arr', 'm'].includes(f.name)) return;
      expect(columnOf(rows, c), f.name).toEqual(expected);
    });
  });

  it('keeps edge values of every type: int64 and int extremes, 38-digit decimals, old and far dates and times, empty text, unicode jsonb, NULL everywhere', async () => {
    const last = 11; // the all-NULL row
    const decimals = (scale: number, values: bigint[]) => raw(new arrow.Decimal(scale, 38, 128), decimalWords(values), [last]);
    const nines = 10n ** 38n - 1n;
    const dec0 = [nines, -nines, 1n, -1n, 0n, 10n ** 37n, 2n ** 53n, -(2n ** 53n) - 1n, 9999n, 10000n, 123456789n, 0n];
    const dec38 = [nines, -nines, 1n, -1n, 0n, 10n ** 37n, 5n, -50n, 10n ** 34n, 123400000n, 99990000n, 0n];
    const dec5 = [-5000n, 1234567891n, -1n, 0n, 100000n, 2n ** 53n - 1n, 2n ** 53n + 1n, -(10n ** 20n), 99999n, 100001n, 10n, 0n];
    const dec18 = [10n ** 18n, -(10n ** 18n) + 1n, 1n, -1n, 0n, 2n ** 63n, nines, 123n * 10n ** 14n, 5n * 10n ** 17n, -7n, 10n ** 36n, 0n];
    // Days and microseconds since 1970: year 1, 1969-12-31, 1999-12-31, 2000-01-01, 2000-01-02, 1970-01-01, 9999-12-31, 1900-03-01...
    const days = [-719_162, -1, PG_EPOCH_DAYS - 1, PG_EPOCH_DAYS, PG_EPOCH_DAYS + 1, 0, 2_932_896, -25_508, 19_000, -100_000, 1_000_000, 0];
    const micros = [
      -62_135_596_800_000_000n, // 0001-01-01
      253_402_300_799_999_999n, // 9999-12-31 23:59:59.999999
      -1n,
      0n,
      946_684_800_000_000n - 1n, // just before PostgreSQL's epoch
      946_684_800_000_000n,
      946_684_800_000_001n,
      -2_208_988_800_000_001n, // 1899-12-31 23:59:59.999999
      4_102_444_800_000_000n, // 2100-01-01
      2n ** 53n + 7n, // beyond a double's integers: the words are subtracted, not the number
      -(2n ** 32n) + 5n, // a low word that borrows
      0n,
    ];
    const fields = [
      field('b', 'byte'),
      field('sh', 'short'),
      field('i', 'integer'),
      field('l', 'long'),
      field('f', 'float'),
      field('d', 'double'),
      field('dec0', 'decimal(38,0)'),
      field('dec38', 'decimal(38,38)'),
      field('dec5', 'decimal(25,5)'),
      field('dec18', 'decimal(38,18)'),
      field('s', 'string'),
      field('bin', 'binary'),
      field('dt', 'date'),
      field('ts', 'timestamp'),
      field('ntz', 'timestamp_ntz'),
      field('bool', 'boolean'),
      field('doc', {
        type: 'struct',
        fields: [field('title', 'string'), field('tags', { type: 'array', elementType: 'string', containsNull: true }), field('n', 'long')],
      }),
      field('v', 'variant'),
      field('nothing', 'void'),
    ];
    const docType = new arrow.Struct([
      new arrow.Field('title', new arrow.Utf8(), true),
      new arrow.Field('tags', new arrow.List(new arrow.Field('element', new arrow.Utf8(), true)), true),
      new arrow.Field('n', new arrow.Int64(), true),
    ]);
    const docs = Array.from({ length: 12 }, (_, k) =>
      k === last
        ? null
        : { title: ['ü ✓ 𝄞', '', 'tab\t"q"\\', '日本語'][k % 4], tags: k % 3 === 0 ? [] : ['ä', null, `t${k}`], n: BigInt(k) * 2n ** 60n },
    );
    const texts = [
      '',
      'héllo wörld ✓ 𝄞',
      'tab\there\nnew\\line\r',
      'x'.repeat(1000),
      ' ',
      'NULL',
      '\\N',
      'a,b;"c"',
      'ß'.repeat(30),
      'é',
      'z',
      null,
    ];
    const table = new arrow.Table({
      b: raw(new arrow.Int8(), Int8Array.from([-128, 127, 0, -1, 1, 5, -5, 100, -100, 2, 3, 0]), [last]),
      sh: raw(new arrow.Int16(), Int16Array.from([-32768, 32767, 0, -1, 1, 256, -256, 255, -255, 2, 3, 0]), [last]),
      i: raw(new arrow.Int32(), Int32Array.from([-2147483648, 2147483647, 0, -1, 1, 65536, -65536, 16777216, -16777217, 2, 3, 0]), [last]),
      l: raw(
        new arrow.Int64(),
        BigInt64Array.from([I64_MIN, I64_MAX, 0n, -1n, 1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 2n ** 32n, -(2n ** 32n), 2n, 3n, 0n]),
        [last],
      ),
      f: raw(
        new arrow.Float32(),
        Float32Array.from([NaN, Infinity, -Infinity, 1.5, -1.5, 3.4028234663852886e38, 1.401298464324817e-45, 0.1, 1e10, 2, 3, 0]),
        [last],
      ),
      d: raw(
        new arrow.Float64(),
        Float64Array.from([NaN, Infinity, -Infinity, Number.MAX_VALUE, 5e-324, 0.1, 0.30000000000000004, 1e21, -1e-7, 2 ** 53, 3, 0]),
        [last],
      ),
      dec0: decimals(0, dec0),
      dec38: decimals(38, dec38),
      dec5: decimals(5, dec5),
      dec18: decimals(18, dec18),
      s: arrow.vectorFromArray(texts, new arrow.Utf8()),
      bin: arrow.vectorFromArray(
        Array.from({ length: 12 }, (_, k) =>
          k === last ? null : Uint8Array.from({ length: k === 0 ? 0 : 17 * k }, (_, j) => (j * 37 + k) & 0xff),
        ),
        new arrow.Binary(),
      ),
      dt: raw(new arrow.DateDay(), Int32Array.from(days), [last]),
      ts: raw(new arrow.TimestampMicrosecond('UTC'), BigInt64Array.from(micros), [last]),
      ntz: raw(new arrow.TimestampMicrosecond(), BigInt64Array.from(micros), [last]),
      bool: arrow.vectorFromArray([true, false, true, false, true, false, true, false, true, false, true, null], new arrow.Bool()),
      doc: arrow.vectorFromArray(docs, docType),
      v: arrow.vectorFromArray(
        Array.from({ length: 12 }, (_, k) => (k === last ? null : JSON.stringify({ k, ü: ['✓', { '𝄞': null, deep: [[k]] }], s: 'a\tb' }))),
        new arrow.Utf8(),
      ),
      nothing: new arrow.Vector([arrow.makeData({ type: new arrow.Null(), length: 12 })]),
    });
    const rows = await landedBothWays(fields, table.batches);
    const at = (name: string) =>
      columnOf(
        rows,
        fields.findIndex((f) => f.name === name),
      );
    expect(rows[last]).toEqual(fields.map(() => null));
    expect(at('l').slice(0, 7)).toEqual([I64_MIN, I64_MAX, 0n, -1n, 1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n].map(String));
    expect(at('f').slice(0, 3)).toEqual(['NaN', 'Infinity', '-Infinity']);
    expect(at('d').slice(0, 5)).toEqual(['NaN', 'Infinity', '-Infinity', '1.7976931348623157e+308', '5e-324']);
    expect(at('dec0').slice(0, last)).toEqual(dec0.slice(0, last).map((v) => decimalText(v, 0)));
    expect(at('dec38').slice(0, last)).toEqual(dec38.slice(0, last).map((v) => decimalText(v, 38)));
    expect(at('dec5').slice(0, last)).toEqual(dec5.slice(0, last).map((v) => decimalText(v, 5)));
    expect(at('dec18').slice(0, last)).toEqual(dec18.slice(0, last).map((v) => decimalText(v, 18)));
    expect(at('s')).toEqual(texts);
    expect(at('dt').slice(0, 7)).toEqual([
      '0001-01-01',
      '1969-12-31',
      '1999-12-31',
      '2000-01-01',
      '2000-01-02',
      '1970-01-01',
      '9999-12-31',
    ]);
    expect(at('ts').slice(0, 4)).toEqual([
      '0001-01-01 00:00:00+00',
      '9999-12-31 23:59:59.999999+00',
      '1969-12-31 23:59:59.999999+00',
      '1970-01-01 00:00:00+00',
    ]);
    expect(at('ntz').slice(4, 7)).toEqual(['1999-12-31 23:59:59.999999', '2000-01-01 00:00:00', '2000-01-01 00:00:00.000001']);
    expect(JSON.parse(at('doc')[0]!)).toEqual({ title: 'ü ✓ 𝄞', tags: [], n: 0 });
    expect(JSON.parse(at('doc')[1]!)).toEqual({ title: '', tags: ['ä', null, 't1'], n: String(2n ** 60n) });
    expect(JSON.parse(at('v')[3]!)).toEqual({ k: 3, ü: ['✓', { '𝄞': null, deep: [[3]] }], s: 'a\tb' });
  });

  it('lands random decimals of every scale, int64s, dates and timestamps as text COPY does', async () => {
    let seed = 12345n;
    const next = (bits: number) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) & (2n ** 64n - 1n);
      return seed >> BigInt(64 - bits);
    };
    const rows = 600;
    const scales = [0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 18, 19, 37, 38];
    const columns: Record<string, arrow.Vector> = {};
    const fields: StructField[] = [];
    for (const scale of scales) {
      const values = Array.from({ length: rows }, (_, k) => {
        // Short values (the number path) and long ones up to 38 digits (the BigInt path).
        const digits = 1n + (next(6) % (k % 2 === 0 ? 15n : 38n));
        const v = (next(64) * next(64) * next(64)) % 10n ** digits;
        return next(1) === 1n ? -v : v;
      });
      columns[`dec${scale}`] = raw(new arrow.Decimal(scale, 38, 128), decimalWords(values));
      fields.push(field(`dec${scale}`, `decimal(38,${scale})`));
    }
    const ticks = Array.from(
      { length: rows },
      () => -62_135_596_800_000_000n + (next(64) % (253_402_300_799_999_999n + 62_135_596_800_000_000n)),
    );
    columns.ts = raw(new arrow.TimestampMicrosecond('UTC'), BigInt64Array.from(ticks));
    columns.dt = raw(
      new arrow.DateDay(),
      Int32Array.from(ticks, (t) => Number((t - (((t % DAY_MICROS) + DAY_MICROS) % DAY_MICROS)) / DAY_MICROS)),
    );
    columns.l = raw(
      new arrow.Int64(),
      BigInt64Array.from({ length: rows }, () => BigInt.asIntN(64, next(64))),
    );
    fields.push(field('ts', 'timestamp'), field('dt', 'date'), field('l', 'long'));
    const landed = await landedBothWays(fields, new arrow.Table(columns).batches);
    expect(landed).toHaveLength(rows);
  });

  it('is refused by the server for a timestamp outside int64 after the shift, never landing as -infinity', async () => {
    const fields = [field('ts', 'timestamp')];
    const table = new arrow.Table({ ts: raw(new arrow.TimestampMicrosecond('UTC'), BigInt64Array.from([I64_MIN])) });
    await expect(land('by_binary', fields, table.batches, true)).rejects.toThrow(/out of range/);
  });
});

describe('binary COPY, chosen by the target', () => {
  const numbered: StructField[] = [
    field('id', 'long'),
    field('n', 'integer'),
    field('day', 'date'),
    field('doc', 'variant'),
    field('s', 'string'),
  ];
  const described = (types: string[]) => types.map((type, k) => ({ name: numbered[k].name, type, notNull: false, hasDefault: false }));

  it('fits the mapped types, any numeric and varchar; not wider or other types', () => {
    expect(binaryCopyFits(numbered, described(['bigint', 'integer', 'date', 'jsonb', 'text']))).toBe(true);
    expect(binaryCopyFits(numbered, described(['bigint', 'integer', 'date', 'jsonb', 'character varying']))).toBe(true);
    expect(binaryCopyFits([field('x', 'decimal(10,2)')], [{ name: 'x', type: 'numeric(20,4)', notNull: false, hasDefault: false }])).toBe(
      true,
    );
    expect(binaryCopyFits(numbered, described(['bigint', 'bigint', 'date', 'jsonb', 'text']))).toBe(false);
    expect(binaryCopyFits(numbered, described(['bigint', 'integer', 'timestamp without time zone', 'jsonb', 'text']))).toBe(false);
    expect(binaryCopyFits(numbered, described(['bigint', 'integer', 'date', 'json', 'text']))).toBe(false);
    expect(binaryCopyFits(numbered, described(['bigint', 'integer', 'date', 'jsonb']))).toBe(false);
  });

  /** Records the statement of every COPY into the table (a row trigger sees the query that fired it). */
  async function watchStatements(table: string): Promise<() => Promise<string[]>> {
    await db.client.query('CREATE TABLE IF NOT EXISTS seen (query text)');
    await db.client.query('TRUNCATE seen');
    await db.client.query(
      `CREATE OR REPLACE FUNCTION note_query() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO seen VALUES (current_query()); RETURN NEW; END $$`,
    );
    await db.client.query(`CREATE TRIGGER note BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION note_query()`);
    return async () => (await db.client.query<{ query: string }>('SELECT DISTINCT query FROM seen')).rows.map((r) => r.query);
  }

  const rowsOf = () =>
    new arrow.Table({
      id: raw(new arrow.Int64(), BigInt64Array.from([1n, 2n ** 62n, -3n])),
      n: raw(new arrow.Int32(), Int32Array.from([7, -8, 0]), [2]),
      day: raw(new arrow.DateDay(), Int32Array.from([-1, 10_957, 20_000])),
      doc: arrow.vectorFromArray(['{"a": "ü"}', '[1, 2]', null], new arrow.Utf8()),
      s: arrow.vectorFromArray(['x', '', null], new arrow.Utf8()),
    });

  it('an export into a table of the mapped types goes binary, with or without exactly-once', async () => {
    await db.client.query(createTableSql('postgres', 'mapped', numbered));
    const statements = await watchStatements('mapped');
    await drive(createPostgresSink(pgSpec({ url: db.url }, { table: 'mapped' })), streamOf(rowsOf(), numbered, 2));
    const queries = await statements();
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q.includes('(FORMAT binary)'))).toBe(true);
    await db.client.query('TRUNCATE seen');
    await drive(createPostgresSink(pgSpec({ url: db.url }, { table: 'mapped', exactlyOnce: true })), streamOf(rowsOf(), numbered, 2));
    const exactlyOnce = await statements();
    expect(exactlyOnce.length).toBeGreaterThan(0);
    expect(exactlyOnce.every((q) => q.includes('(FORMAT binary)'))).toBe(true);
    await db.client.query(`DELETE FROM mapped WHERE ctid IN (SELECT ctid FROM mapped ORDER BY ctid OFFSET 3)`);
    expect(await landedText('mapped', numbered)).toEqual([
      ['1', '7', '1969-12-31', '{"a": "ü"}', 'x'],
      [String(2n ** 62n), '-8', '2000-01-01', '[1, 2]', ''],
      ['-3', null, '2024-10-04', null, null],
    ]);
  });

  it('an export into wider columns (numeric, timestamp, json, varchar) goes as text and lands the same values', async () => {
    await db.client.query('CREATE TABLE wider (id numeric, n bigint, day timestamp without time zone, doc json, s character varying)');
    const statements = await watchStatements('wider');
    await drive(createPostgresSink(pgSpec({ url: db.url }, { table: 'wider' })), streamOf(rowsOf(), numbered, 2));
    const queries = await statements();
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.some((q) => q.includes('FORMAT binary'))).toBe(false);
    const { rows } = await db.client.query({
      text: 'SELECT id::text, n::text, day::date::text, doc::text, s FROM wider ORDER BY id',
      rowMode: 'array',
    });
    expect(rows).toEqual([
      ['-3', null, '2024-10-04', null, null],
      ['1', '7', '1969-12-31', '{"a": "ü"}', 'x'],
      [String(2n ** 62n), '-8', '2000-01-01', '[1, 2]', ''],
    ]);
  });
});
