// Every table of the shared corpus is scanned, or refused by name. Expected row counts come from the log, replayed by
// test/support/delta-oracle.ts (JSON commits, checkpoints through DuckDB): numRecords of live files (DuckDB's count where a file has
// no stats) minus deletion vector cardinality. Sample values are compared with DuckDB reading the data files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { decimalParts, isArray, isDecimal, isMap, isStruct, type DeltaType, type StructField } from '../../../shared/delta-schema.js';
import { decimalText } from '../../../electron/delta/scan/variant.js';
import { scan } from '../../../electron/delta/scan/scan.js';
import type { ScanOptions } from '../../../electron/delta/scan/scan-types.js';
import type { Snapshot } from '../../../electron/delta/snapshot.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { dataFile, type Json, liveFiles, liveRowCount } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { TABLES_ROOT, tablePath } from '../../support/tables.js';
import { localReads } from '../../support/task-tables.js';

/** The shared corpus, then tables written by delta-rs (test/fixtures/delta-rs, made by its make-tables.py). */
const DELTA_RS_ROOT = path.resolve(import.meta.dirname, '../../fixtures/delta-rs');
const folders = (root: string): string[] =>
  readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
const TABLES: [string, string][] = [
  ...folders(TABLES_ROOT).map((name): [string, string] => [name, tablePath(name)]),
  ...folders(DELTA_RS_ROOT).map((name): [string, string] => [`delta-rs/${name}`, path.join(DELTA_RS_ROOT, name)]),
];

async function collect(snapshot: Snapshot, options: Omit<ScanOptions, 'engine'> = {}): Promise<arrow.RecordBatch[]> {
  const batches: arrow.RecordBatch[] = [];
  for await (const b of scan(snapshot, { engine: localReads, ...options })) batches.push(b.batch);
  return batches;
}

function rowsOf(batches: arrow.RecordBatch[]): Json[] {
  return batches.flatMap((b) => [...b].map((r) => r.toJSON() as Json));
}

const physical = (f: StructField): string => (f.metadata?.['delta.columnMapping.physicalName'] as string | undefined) ?? f.name;

/** DuckDB expression and our value's text for a column, so both sides meet in one comparable form. */
function comparable(f: StructField): { sql: string; ours: (v: unknown) => unknown } | null {
  const c = `"${physical(f).replace(/"/g, '""')}"`;
  const t: DeltaType = f.type;
  if (typeof t === 'string') {
    if (['byte', 'short', 'integer', 'long'].includes(t)) return { sql: `${c}::varchar`, ours: (v) => (v === null ? null : String(v)) };
    if (t === 'float' || t === 'double') return { sql: `${c}::double`, ours: (v) => v };
    if (t === 'boolean' || t === 'string') return { sql: c, ours: (v) => v };
    if (t === 'binary')
      return {
        sql: `hex(${c})`,
        ours: (v) =>
          v === null
            ? null
            : Buffer.from(v as Uint8Array)
                .toString('hex')
                .toUpperCase(),
      };
    if (t === 'date')
      return { sql: `(${c} - DATE '1970-01-01')::varchar`, ours: (v) => (v === null ? null : String((v as number) / 86400000)) };
    if (t === 'timestamp' || t === 'timestamp_ntz') {
      return { sql: `epoch_us(${c})::varchar`, ours: (v) => (v === null ? null : String(Math.round((v as number) * 1000))) };
    }
    if (isDecimal(t)) {
      const d = decimalParts(t);
      return {
        sql: `${c}::varchar`,
        ours: (v) => (v === null ? null : decimalText(BigInt(arrow.util.bigNumToBigInt(v as never)), d.scale)),
      };
    }
    return null;
  }
  if (plainLeaves(t)) {
    return {
      sql: `to_json(${c})::varchar`,
      ours: (v) =>
        v === null ? null : JSON.stringify(JSON.parse(JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)))),
    };
  }
  return null;
}

function plainLeaves(t: DeltaType): boolean {
  if (typeof t === 'string') return ['string', 'integer', 'long', 'boolean'].includes(t);
  if (isStruct(t)) return t.fields.every((f) => plainLeaves(f.type));
  if (isArray(t)) return plainLeaves(t.elementType);
  if (isMap(t)) return plainLeaves(t.keyType) && plainLeaves(t.valueType);
  return false;
}

/** Partition values as the log writes them, from a scanned value, for the types whose text form is unambiguous. */
function partitionText(t: DeltaType, v: unknown): string | null | undefined {
  if (v === null) return null;
  if (t === 'string' || t === 'integer' || t === 'long' || t === 'short' || t === 'byte' || t === 'boolean') return String(v);
  if (t === 'date') return new Date(v as number).toISOString().slice(0, 10);
  return undefined;
}

const REFUSED: Record<string, RegExp> = { simple_table_features: /blahabl/ };

describe('every table of the corpus', () => {
  for (const [name, root] of TABLES) {
    it(name, async () => {
      if (!existsSync(path.join(root, '_delta_log'))) {
        await expect(DeltaTable.open(root, localReads)).rejects.toThrow(/_delta_log/);
        return;
      }
      const table = await DeltaTable.open(root, localReads);
      if (REFUSED[name]) {
        await expect(table.snapshot()).rejects.toThrow(REFUSED[name]);
        return;
      }
      const snapshot = await table.snapshot();
      const adds = await liveFiles(root);
      const missing = adds.find((a) => !existsSync(dataFile(root, a)));
      if (missing) {
        // The corpus keeps only the log of some tables: a clear one-line error naming the file.
        await expect(collect(snapshot)).rejects.toMatchObject({
          code: 'MISSING_FILE',
          message: expect.stringMatching(/^data file is missing: \/\S+$/),
        });
        return;
      }
      expect(snapshot.files).toHaveLength(adds.length);
      const batches = await collect(snapshot, { batchSize: 4096 });
      const total = batches.reduce((n, b) => n + b.numRows, 0);
      expect(total).toBe(await liveRowCount(root, adds));
      for (const b of batches) expect(b.schema.fields.map((f) => f.name)).toEqual(snapshot.schema.fields.map((f) => f.name));

      // Sample values: the first rows of the first file without deletion vector, against DuckDB.
      const index = snapshot.files.findIndex((f) => !f.add.deletionVector && f.add.size > 0);
      if (index < 0) return;
      const file = snapshot.files[index];
      const [{ n: fileRows }] = await duck(`select count(*)::integer as n from read_parquet(${sqlText(file.absolutePath)})`);
      const limit = Math.min(5, fileRows as number);
      const sample = rowsOf(await collect(snapshot, { resumeFrom: { fileIndex: index, rowsInFile: 0 }, limit }));
      expect(sample).toHaveLength(limit);
      const partitions = new Set(snapshot.partitionColumns);
      const dataFields = snapshot.schema.fields.filter((f) => !partitions.has(f.name));
      const compared = dataFields.map((f) => [f, comparable(f)] as const).filter(([, c]) => c !== null);
      const fileColumns = (await duck(`select name from parquet_schema(${sqlText(file.absolutePath)})`)).map((r) => r.name as string);
      const present = compared.filter(([f]) => fileColumns.includes(physical(f)));
      if (present.length > 0 && limit > 0) {
        const sql = `select ${present.map(([, c], i) => `${c!.sql} as c${i}`).join(', ')} from read_parquet(${sqlText(file.absolutePath)}, file_row_number=true) order by file_row_number limit ${limit}`;
        const expected = await duck(sql);
        sample.forEach((row, r) => {
          present.forEach(([f, c], i) => expect(c!.ours(row[f.name]), `${f.name} row ${r}`).toEqual(expected[r][`c${i}`]));
        });
      }
      for (const column of snapshot.partitionColumns) {
        const field = snapshot.schema.fields.find((f) => f.name === column)!;
        const raw = file.add.partitionValues[physical(field)];
        const text = partitionText(field.type, sample[0]?.[column]);
        if (text !== undefined) expect(text, column).toBe(raw === '' ? null : raw);
      }
    });
  }
});

describe('tables written by delta-rs (test/fixtures/delta-rs/make-tables.py)', () => {
  const expected = JSON.parse(readFileSync(path.join(DELTA_RS_ROOT, 'expected.json'), 'utf8')) as Record<
    string,
    { version: number; files: number; rows: number; idSum: number; checkpoints: string[] }
  >;
  for (const name of ['six-appends', '105-commits']) {
    it(`${name}: files, rows and ids as delta-rs reads them, from its checkpoint`, async () => {
      const root = path.join(DELTA_RS_ROOT, name);
      const want = expected[name];
      // The checkpoint holds rows of other actions, whose whole add struct is null (what the reader once took for
      // files with an empty path).
      const checkpoint = path.join(root, '_delta_log', want.checkpoints[0]);
      const [{ others }] = await duck(`select count(*)::integer as others from read_parquet(${sqlText(checkpoint)}) where "add" is null`);
      expect(others).toBeGreaterThan(0);
      const snapshot = await (await DeltaTable.open(root, localReads)).snapshot();
      expect(snapshot.version).toBe(want.version);
      expect(snapshot.files).toHaveLength(want.files);
      const ids = rowsOf(await collect(snapshot, { columns: ['id'] })).map((r) => Number(r.id));
      expect(ids).toHaveLength(want.rows);
      expect(ids.reduce((a, b) => a + b, 0)).toBe(want.idSum);
    });
  }
});

describe('specific tables', () => {
  async function rows(name: string, options: Omit<ScanOptions, 'engine'> = {}, version?: number): Promise<Json[]> {
    const table = await DeltaTable.open(tablePath(name), localReads);
    return rowsOf(await collect(await table.snapshot({ version }), options));
  }

  it('table-with-dv-small: the DELETE of 0 and 9 hides them (deletion vector)', async () => {
    expect((await rows('table-with-dv-small')).map((r) => r.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Version 0, before the DELETE, still has all ten.
    expect((await rows('table-with-dv-small', {}, 0)).map((r) => r.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('table_with_column_mapping: logical names, physical partition keys', async () => {
    const all = await rows('table_with_column_mapping', { columns: ['Super Name', 'Company Very Short'] });
    expect(Object.keys(all[0])).toEqual(['Super Name', 'Company Very Short']);
    // The log: partitionValues {col-173b…: 'BMS'} with numRecords 4, {col-173b…: 'BME'} with 1.
    expect(all.map((r) => r['Company Very Short']).sort()).toEqual(['BME', 'BMS', 'BMS', 'BMS', 'BMS']);
  });

  it('delta-0.8.0-special-partition: partition values from the log, not from escaped folder names', async () => {
    const all = await rows('delta-0.8.0-special-partition');
    expect(all.map((r) => r.x).sort()).toEqual(['A/A', 'B B']);
  });

  it('delta-0.8.0-null-partition: null partition values', async () => {
    const all = await rows('delta-0.8.0-null-partition');
    expect(all.map((r) => r.k).sort()).toEqual(['A', null]);
  });

  it('table_with_edge_timestamps: INT96 timestamps far from 1970', async () => {
    const all = await rows('table_with_edge_timestamps', { columns: ['BIG_DATE', 'NORMAL_DATE'] });
    // add.stats minValues: 9999-12-31 and 9999-12-30, 2022-01-01 and 2022-02-01.
    const iso = (ms: number): string => new Date(ms).toISOString();
    expect(all.map((r) => iso(r.BIG_DATE as number)).sort()).toEqual(['9999-12-30T00:00:00.000Z', '9999-12-31T00:00:00.000Z']);
    expect(all.map((r) => iso(r.NORMAL_DATE as number)).sort()).toEqual(['2022-01-01T00:00:00.000Z', '2022-02-01T00:00:00.000Z']);
  });

  it('spark-variant-checkpoint: variants as JSON text (value bytes 02 01 00 00 02 0c 00 = {"key":0})', async () => {
    const table = await DeltaTable.open(tablePath('spark-variant-checkpoint'), localReads);
    const snapshot = await table.snapshot();
    const [bytes] = await duck(`select hex(v.value) as h from read_parquet(${sqlText(snapshot.files[0].absolutePath)}) where id = 0`);
    expect(bytes?.h).toBe('02010000020C00');
    const all = rowsOf(await collect(snapshot, { columns: ['id', 'v', 'struct_of_variants'] }));
    const zero = all.find((r) => r.id === 0n)!;
    expect(zero.v).toBe('{"key":0}');
    expect(JSON.parse(JSON.stringify(zero.struct_of_variants))).toEqual({ v: '{"key":0}' });
  });

  it('delta-1.2.1-only-struct-stats: nested struct, map, array and struct-of-array-of-map values', async () => {
    const [row] = await rows('delta-1.2.1-only-struct-stats', {
      columns: ['struct', 'map', 'array', 'nested_struct', 'struct_of_array_of_map'],
      limit: 1,
    });
    expect(JSON.parse(JSON.stringify(row))).toEqual({
      struct: { struct_element: 'struct_value' },
      map: { map_key: 'map_value' },
      array: ['array_value'],
      nested_struct: { struct_element: { nested_struct_element: 'nested_struct_value' } },
      struct_of_array_of_map: { struct_element: [{ map_key: 'map_value' }] },
    });
  });

  it('simple_table: time travel through older versions (expected ids from each commit)', async () => {
    const ids = async (version: number): Promise<number[]> =>
      (await rows('simple_table', {}, version)).map((r) => Number(r.id)).sort((a, b) => a - b);
    expect(await ids(0)).toEqual([0, 1, 2, 3, 4]);
    expect(await ids(4)).toEqual([5, 7, 9]);
  });

  it('COVID-19_NYT: a preview reads only what it shows', async () => {
    const table = await DeltaTable.open(tablePath('COVID-19_NYT'), localReads);
    const batches = await collect(await table.snapshot(), { columns: ['county', 'cases'], limit: 7, batchSize: 3 });
    expect(batches.map((b) => b.numRows)).toEqual([3, 3, 1]);
    expect(rowsOf(batches)[0]).toEqual({ county: 'Snohomish', cases: 1 });
  });
});
