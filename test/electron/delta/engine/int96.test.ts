// INT96 timestamps outside 1677-2262 (where int64 nanoseconds wrap), in Parquet files written by pyarrow
// (test/fixtures/int96/make-files.py), inside Delta tables whose log is written here without file statistics: the
// values must be pyarrow's, whatever rows a read selects (offsets and limits across row groups, a resumed scan).
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as arrow from 'apache-arrow';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { StructType } from '../../../../shared/delta-schema.js';
import { compileFilter } from '../../../../shared/expression/index.js';
import { wasmInstance } from '../../../../electron/delta/engine/parquet-wasm-instance.js';
import { scan } from '../../../../electron/delta/scan/scan.js';
import type { ScanOptions } from '../../../../electron/delta/scan/scan-types.js';
import { DeltaTable } from '../../../../electron/delta/table.js';
import { jsonReader } from '../../../../electron/values/json-value.js';
import { cli } from '../../cli/run-cli.js';
import { scratchFolders } from '../log-files.js';
import { localReads } from '../../../support/task-tables.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/int96');
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, (string | null)[]> & {
  'int96-struct.parquet': { ts: string | null; 'inner.ts': string | null }[];
};
type Nested = Record<'l' | 'm' | 'ls' | 'ml', unknown>;
const nestedExpected = (expected as unknown as Record<string, Nested[]>)['int96-nested.parquet'];
const scratch = scratchFolders('int96');

/** Footers hyparquet has parsed: each of a file's three uses (INT96 columns, row-group statistics, page indexes) must
 * share one. */
const footers = vi.hoisted(() => ({ parsed: 0 }));
vi.mock('hyparquet', async (original) => {
  const hyparquet = await original<typeof import('hyparquet')>();
  return {
    ...hyparquet,
    parquetMetadataAsync: (...args: Parameters<typeof hyparquet.parquetMetadataAsync>) => {
      footers.parsed++;
      return hyparquet.parquetMetadataAsync(...args);
    },
  };
});
afterAll(() => scratch.removeAll());

const field = (name: string, type: unknown) => ({ name, type, nullable: true, metadata: {} });
const TOP_LEVEL = [field('id', 'integer'), field('ts', 'timestamp')];
const IN_STRUCTS = [
  field('id', 'integer'),
  field('s', {
    type: 'struct',
    fields: [field('n', 'integer'), field('inner', { type: 'struct', fields: [field('ts', 'timestamp')] }), field('ts', 'timestamp')],
  }),
];
const TS = 'timestamp';
const list = (elementType: unknown) => ({ type: 'array', elementType, containsNull: true });
const map = (valueType: unknown) => ({ type: 'map', keyType: 'string', valueType, valueContainsNull: true });
const IN_LISTS_AND_MAPS = [
  field('id', 'integer'),
  field('l', list(TS)),
  field('m', map(TS)),
  field('ls', list({ type: 'struct', fields: [field('ts', TS), field('l', list(TS))] })),
  field('ml', map(list(TS))),
];

/** Slot i of a column as make-files.py writes it: microseconds as text, maps as [key, value] pairs. */
function asText(data: arrow.Data, i: number): unknown {
  if (!data.getValid(i)) return null;
  const { type } = data;
  if (type.typeId === arrow.Type.Timestamp) return String((data.values as BigInt64Array)[i]);
  if (type.typeId === arrow.Type.Utf8)
    return new TextDecoder().decode(data.values.subarray(data.valueOffsets[i], data.valueOffsets[i + 1]));
  if (type.typeId === arrow.Type.Struct)
    return Object.fromEntries((type as arrow.Struct).children.map((f, k) => [f.name, asText(data.children[k], i)]));
  const out: unknown[] = [];
  for (let j = data.valueOffsets[i]; j < data.valueOffsets[i + 1]; j++) {
    const entry = data.children[0];
    out.push(type.typeId === arrow.Type.Map ? [asText(entry.children[0], j), asText(entry.children[1], j)] : asText(entry, j));
  }
  return out;
}

/** A one-file Delta table around a fixture file; the add has no stats. */
function tableOf(file: string, fields: unknown[] = TOP_LEVEL): string {
  const root = scratch.make();
  mkdirSync(path.join(root, '_delta_log'));
  copyFileSync(path.join(FIXTURES, file), path.join(root, file));
  const schema = { type: 'struct', fields };
  const actions = [
    { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
    {
      metaData: {
        id: 'int96',
        format: { provider: 'parquet', options: {} },
        schemaString: JSON.stringify(schema),
        partitionColumns: [],
        configuration: {},
        createdTime: 1,
      },
    },
    { add: { path: file, partitionValues: {}, size: statSync(path.join(root, file)).size, modificationTime: 1, dataChange: true } },
  ];
  writeFileSync(path.join(root, '_delta_log', '00000000000000000000.json'), actions.map((a) => JSON.stringify(a)).join('\n') + '\n');
  return root;
}

/** [id, microseconds as text] per row. */
async function read(root: string, options: Omit<ScanOptions, 'engine'> = {}): Promise<[number, string | null][]> {
  const snapshot = await (await DeltaTable.open(root, localReads)).snapshot();
  const rows: [number, string | null][] = [];
  for await (const { batch } of scan(snapshot, { engine: localReads, ...options })) {
    const ids = batch.getChild('id')!;
    const ts = batch.getChild('ts')!;
    expect(ts.data).toHaveLength(1);
    for (let i = 0; i < batch.numRows; i++) {
      const v = ts.get(i) as bigint | number | null;
      rows.push([ids.get(i) as number, v === null ? null : String(ts.data[0].values[i])]);
    }
  }
  return rows;
}

describe('INT96 timestamps', () => {
  for (const file of ['int96-snappy.parquet', 'int96-groups-zstd.parquet']) {
    it(`${file}: every value as pyarrow reads it`, async () => {
      const rows = await read(tableOf(file), { batchSize: 3 });
      expect(rows).toEqual(expected[file].map((v, i) => [i, v]));
    });
  }

  it('int96-paged.parquet: a 140,000-row group read in parts through its page index, whole and resumed anywhere', async () => {
    const root = tableOf('int96-paged.parquet');
    const cycle = expected['int96-paged.parquet'];
    const want = Array.from({ length: 140_000 }, (_, i): [number, string | null] => [i, cycle[i % cycle.length]]);
    const reads = vi.spyOn(wasmInstance().api.ParquetFile.prototype, 'stream');
    try {
      expect(await read(root)).toEqual(want);
      expect(reads.mock.calls.length).toBeGreaterThan(1);
    } finally {
      reads.mockRestore();
    }
    for (const from of [1, 70_001, 131_071, 139_999]) {
      expect(await read(root, { resumeFrom: { fileIndex: 0, rowsInFile: from } }), `from ${from}`).toEqual(want.slice(from));
    }
    // With a filter too, hyparquet parses the file's footer once for all it is asked (the INT96 columns, the row
    // groups' statistics, the pages' starts).
    const filter = compileFilter('id >= 0', { type: 'struct', fields: TOP_LEVEL } as StructType);
    if (!filter.ok) throw new Error(filter.message);
    footers.parsed = 0;
    expect(await read(root, { rowGroupFilter: filter.expr })).toEqual(want);
    expect(footers.parsed).toBe(1);
  });

  it('reads the rows a limit, a resumed scan and row groups select', async () => {
    const root = tableOf('int96-groups-zstd.parquet');
    const want = expected['int96-groups-zstd.parquet'].map((v, i): [number, string | null] => [i, v]);
    for (const [from, limit] of [
      [0, 5],
      [3, 6],
      [6, 2],
      [9, 100],
      [26, 1],
    ]) {
      const rows = await read(root, { resumeFrom: { fileIndex: 0, rowsInFile: from }, limit, batchSize: 2 });
      expect(rows, `rows ${from}.. limit ${limit}`).toEqual(want.slice(from, from + limit));
    }
  });

  it('inside structs (and a struct in a struct), null structs included', async () => {
    const snapshot = await (await DeltaTable.open(tableOf('int96-struct.parquet', IN_STRUCTS), localReads)).snapshot();
    const rows: { ts: string | null; 'inner.ts': string | null }[] = [];
    for await (const { batch } of scan(snapshot, { engine: localReads, batchSize: 5 })) {
      const s = batch.getChild('s')!.data;
      expect(s).toHaveLength(1);
      const [struct] = s;
      const [, inner, ts] = struct.children;
      const micros = (data: arrow.Data, i: number, ...parents: arrow.Data[]): string | null =>
        [...parents, data].every((d) => d.getValid(i)) ? String((data.values as BigInt64Array)[i]) : null;
      for (let i = 0; i < batch.numRows; i++)
        rows.push({ ts: micros(ts, i, struct), 'inner.ts': micros(inner.children[0], i, struct, inner) });
    }
    expect(rows).toEqual(expected['int96-struct.parquet']);
  });

  it('inside lists and maps, at any depth (lists of structs of lists, maps of lists), whatever rows a read selects', async () => {
    const snapshot = await (await DeltaTable.open(tableOf('int96-nested.parquet', IN_LISTS_AND_MAPS), localReads)).snapshot();
    for (const [from, limit] of [
      [0, 100],
      [3, 9],
      [12, 5],
    ]) {
      const rows: Nested[] = [];
      for await (const { batch } of scan(snapshot, {
        engine: localReads,
        resumeFrom: { fileIndex: 0, rowsInFile: from },
        limit,
        batchSize: 5,
      })) {
        const columns = (['l', 'm', 'ls', 'ml'] as const).map((name) => [name, batch.getChild(name)!.data] as const);
        for (const [, data] of columns) expect(data).toHaveLength(1);
        for (let i = 0; i < batch.numRows; i++)
          rows.push(Object.fromEntries(columns.map(([name, [data]]) => [name, asText(data, i)])) as Nested);
      }
      expect(rows, `rows ${from}.. limit ${limit}`).toEqual(nestedExpected.slice(from, from + limit));
    }
  });

  it('shows years 1000 and 9999 in the preview and the grid', async () => {
    const root = tableOf('int96-snappy.parquet');
    const run = await cli('preview', root, '--format', 'jsonl');
    const ts = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { ts: string | null }).ts);
    expect(ts.slice(0, 4)).toEqual([
      '1000-01-01T00:00:00.000000Z',
      '1500-06-15T12:30:45.123456Z',
      '9999-12-31T23:59:59.999999Z',
      '1800-01-01T07:52:58.000000Z',
    ]);
    const snapshot = await (await DeltaTable.open(root, localReads)).snapshot();
    for await (const { batch } of scan(snapshot, { engine: localReads, limit: 1 }))
      expect(jsonReader(batch.getChild('ts')!)(0)).toBe('1000-01-01T00:00:00.000000Z');
  });
});
