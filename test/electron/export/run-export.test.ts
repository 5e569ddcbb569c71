import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeData, makeVector, TimestampMicrosecond, Int64, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFileSchema, dataTable } from '../../support/delta-writer/data-columns.js';
import { DeltaTableWriter } from '../../support/delta-writer/table-writer.js';
import type { ExportProgress } from '../../../electron/export/run-export.js';
import { exportRequest } from '../../support/export-request.js';
import type { StructType } from '../../../shared/delta-schema.js';
import { tablePath } from '../../support/tables.js';
import { liveRowCount } from '../../support/delta-oracle.js';
import { columnTypes, duck, sqlText } from '../../support/duckdb.js';
import { failure } from '../../support/failure.js';

let out: string;
beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'deltaport-export-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const allTypes = tablePath('delta-1.2.1-only-struct-stats');
// The same projection for the source's data files and the export, so that DuckDB compares like with like. All of
// this table's commits are appends, so its data files are exactly its rows.
const NORMALIZED = `"integer", "null", "boolean", "double", CAST("decimal" AS VARCHAR) AS "decimal", "string", "binary",
  CAST("date" AS VARCHAR) AS "date", epoch_us("timestamp") AS "timestamp", "struct", "map", "array", nested_struct,
  struct_of_array_of_map, new_column`;

describe('parquet export', () => {
  it('keeps every value and type of a table with all kinds of columns', async () => {
    const target = path.join(out, 'all-types.parquet');
    const progress: ExportProgress[] = [];
    const result = await exportRequest({
      source: { tablePath: allTypes },
      sink: { kind: 'parquet', path: target },
      onProgress: (p) => progress.push(p),
    });
    const expectedRows = await liveRowCount(allTypes);
    expect(expectedRows).toBe(12);
    expect(result.rows).toBe(expectedRows);
    expect(progress.at(-1)).toMatchObject({ rows: expectedRows, files: 12, filesTotal: 12 });

    const exported = await duck(`SELECT ${NORMALIZED} FROM read_parquet(${sqlText(target)}) ORDER BY "integer"`);
    const source = await duck(
      `SELECT ${NORMALIZED} FROM read_parquet(${sqlText(`${allTypes}/*.parquet`)}, union_by_name=true) ORDER BY "integer"`,
    );
    expect(exported).toEqual(source);

    const types = await columnTypes(`read_parquet(${sqlText(target)})`);
    expect(types).toMatchObject({
      integer: 'INTEGER',
      boolean: 'BOOLEAN',
      double: 'DOUBLE',
      decimal: 'DECIMAL(8,5)',
      string: 'VARCHAR',
      binary: 'BLOB',
      date: 'DATE',
      timestamp: 'TIMESTAMP WITH TIME ZONE',
      struct: 'STRUCT(struct_element VARCHAR)',
      map: 'MAP(VARCHAR, VARCHAR)',
      array: 'VARCHAR[]',
      nested_struct: 'STRUCT(struct_element STRUCT(nested_struct_element VARCHAR))',
      struct_of_array_of_map: 'STRUCT(struct_element MAP(VARCHAR, VARCHAR)[])',
      new_column: 'INTEGER',
    });
    expect(readdirSync(out).filter((n) => n.includes('.partial-'))).toEqual([]);
  });

  it('exports the chosen columns of a chosen version, in the chosen order', async () => {
    const target = path.join(out, 'v3.parquet');
    // Versions 1..12 each append one row (operationMetrics.numOutputRows = 1); version 3 has three.
    const result = await exportRequest({
      source: { tablePath: allTypes, versionAsOf: 3, columnNames: ['string', 'integer'] },
      sink: { kind: 'parquet', path: target },
    });
    expect(result.rows).toBe(3);
    expect(Object.keys(await columnTypes(`read_parquet(${sqlText(target)})`))).toEqual(['string', 'integer']);
    expect(await duck(`SELECT "integer" FROM read_parquet(${sqlText(target)}) ORDER BY 1`)).toEqual([
      { integer: 0 },
      { integer: 1 },
      { integer: 2 },
    ]);
  });

  it('writes a valid file with the schema for an empty snapshot', async () => {
    const target = path.join(out, 'empty.parquet');
    // delta-0.8-empty: version 1 removes both files of version 0.
    const result = await exportRequest({ source: { tablePath: tablePath('delta-0.8-empty') }, sink: { kind: 'parquet', path: target } });
    expect(result.rows).toBe(0);
    expect(await columnTypes(`read_parquet(${sqlText(target)})`)).toEqual({ column: 'BIGINT' });
    expect(await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(target)})`)).toEqual([{ n: 0 }]);
  });

  it('spreads many batches over row groups and keeps the row count', async () => {
    const table = tablePath('table_with_edge_timestamps');
    const target = path.join(out, 'edge.parquet');
    await exportRequest({ source: { tablePath: table, options: { parquetBatchSize: 1 } }, sink: { kind: 'parquet', path: target } });
    const cols = 'epoch_us(BIG_DATE) AS big, epoch_us(NORMAL_DATE) AS normal, SOME_VALUE';
    expect(await duck(`SELECT ${cols} FROM read_parquet(${sqlText(target)}) ORDER BY SOME_VALUE`)).toEqual(
      await duck(`SELECT ${cols} FROM read_parquet(${sqlText(`${table}/*.parquet`)}) ORDER BY SOME_VALUE`),
    );
  });
});

// A table this test writes itself: longs beyond 2^53, timestamp_ntz beside timestamp, text that needs CSV quoting.
describe('exports of values that need care', () => {
  const schema: StructType = {
    type: 'struct',
    fields: [
      { name: 'id', type: 'long', nullable: true, metadata: {} },
      { name: 'local', type: 'timestamp_ntz', nullable: true, metadata: {} },
      { name: 'utc', type: 'timestamp', nullable: true, metadata: {} },
      { name: 'note', type: 'string', nullable: true, metadata: {} },
    ],
  };
  const ids = [2n ** 62n + 1n, -(2n ** 60n) - 3n, 7n, 9007199254740993n];
  const micros = [-1n, 0n, 1_645_678_500_001_002n, 253_402_300_799_999_999n];
  const notes = ['a,b', 'say "hi"\nbye', '', null];
  let table: string;

  beforeAll(async () => {
    table = path.join(out, 'careful');
    const writer = await DeltaTableWriter.create(table, { schema, timestamp: Date.UTC(2024, 0, 1) });
    const ts = (tz?: string) => makeVector(makeData({ type: new TimestampMicrosecond(tz), length: 4, data: new BigInt64Array(micros) }));
    await writer.append([
      {
        data: dataTable(dataFileSchema(schema), {
          id: vectorFromArray(ids, new Int64()),
          local: ts(),
          utc: ts('UTC'),
          note: vectorFromArray(notes, new Utf8()),
        }),
      },
    ]);
  });

  it('parquet keeps longs exact and timestamp vs timestamp_ntz apart', async () => {
    const target = path.join(out, 'careful.parquet');
    await exportRequest({ source: { tablePath: table }, sink: { kind: 'parquet', path: target } });
    expect(await columnTypes(`read_parquet(${sqlText(target)})`)).toEqual({
      id: 'BIGINT',
      local: 'TIMESTAMP',
      utc: 'TIMESTAMP WITH TIME ZONE',
      note: 'VARCHAR',
    });
    const rows = await duck(`SELECT id, epoch_us(local) AS local, epoch_us(utc) AS utc, note FROM read_parquet(${sqlText(target)})`);
    expect(rows).toEqual(ids.map((id, i) => ({ id, local: micros[i], utc: micros[i], note: notes[i] })));
  });

  it('jsonl writes one object per row by the JsonValue rules', async () => {
    const target = path.join(out, 'careful.jsonl');
    await exportRequest({ source: { tablePath: table }, sink: { kind: 'jsonl', path: target } });
    const lines = readFileSync(target, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual([
      { id: '4611686018427387905', local: '1969-12-31T23:59:59.999999', utc: '1969-12-31T23:59:59.999999Z', note: 'a,b' },
      { id: '-1152921504606846979', local: '1970-01-01T00:00:00.000000', utc: '1970-01-01T00:00:00.000000Z', note: 'say "hi"\nbye' },
      { id: 7, local: '2022-02-24T04:55:00.001002', utc: '2022-02-24T04:55:00.001002Z', note: '' },
      { id: '9007199254740993', local: '9999-12-31T23:59:59.999999', utc: '9999-12-31T23:59:59.999999Z', note: null },
    ]);
  });

  it('csv quotes by RFC 4180 and reads back through DuckDB with nulls and empty strings apart', async () => {
    const target = path.join(out, 'careful.csv');
    await exportRequest({ source: { tablePath: table }, sink: { kind: 'csv', path: target } });
    const text = readFileSync(target, 'utf8');
    expect(text.split('\n')[0]).toBe('id,local,utc,note');
    expect(text).toContain(',"a,b"\n');
    expect(text).toContain(',"say ""hi""\nbye"\n');
    expect(text).toContain(',""\n');
    const rows = await duck(
      `SELECT id, epoch_us(local) AS local, epoch_us(utc) AS utc, note FROM read_csv(${sqlText(target)}, header=true,
        allow_quoted_nulls=false, columns={'id': 'BIGINT', 'local': 'TIMESTAMP', 'utc': 'TIMESTAMPTZ', 'note': 'VARCHAR'})`,
    );
    expect(rows).toEqual(ids.map((id, i) => ({ id, local: micros[i], utc: micros[i], note: notes[i] })));
  });

  // Each style collides with the notes: a delimiter or quote they hold, a null text next to the empty string.
  it.each([
    { delimiter: ';', quote: "'", header: false, nullText: 'NULL', lineEnding: 'crlf' },
    { delimiter: ',', quote: '"', header: true, nullText: '\\N', lineEnding: 'crlf' },
    { delimiter: '\t', quote: '"', header: true, nullText: '', lineEnding: 'lf' },
    { delimiter: 'a', quote: 'y', header: true, nullText: 'b', lineEnding: 'lf' },
  ] as const)('csv in the style %j reads back through DuckDB with the same options', async (style) => {
    const target = path.join(out, 'careful-style.csv');
    await exportRequest({ source: { tablePath: table }, sink: { kind: 'csv', path: target, overwrite: true, ...style } });
    const lines = readFileSync(target, 'utf8').split(style.lineEnding === 'crlf' ? '\r\n' : '\n');
    // A line per row and the header, then nothing; with LF, one more inside the quoted note that holds one.
    expect(lines.length - 1).toBe(ids.length + (style.header ? 1 : 0) + (style.lineEnding === 'lf' ? 1 : 0));
    const read = `read_csv(${sqlText(target)}, header=${style.header}, delim=${sqlText(style.delimiter)},
      quote=${sqlText(style.quote)}, escape=${sqlText(style.quote)}, nullstr=${sqlText(style.nullText)}, allow_quoted_nulls=false`;
    if (style.header) expect(Object.keys(await columnTypes(`${read})`))).toEqual(['id', 'local', 'utc', 'note']);
    const rows = await duck(
      `SELECT id, epoch_us(local) AS local, epoch_us(utc) AS utc, note FROM ${read},
        columns={'id': 'BIGINT', 'local': 'TIMESTAMP', 'utc': 'TIMESTAMPTZ', 'note': 'VARCHAR'})`,
    );
    expect(rows).toEqual(ids.map((id, i) => ({ id, local: micros[i], utc: micros[i], note: notes[i] })));
  });
});

describe('csv and jsonl of a real table', () => {
  it('csv matches the data files row for row', async () => {
    const table = tablePath('table_with_edge_timestamps');
    const target = path.join(out, 'edge.csv');
    const result = await exportRequest({ source: { tablePath: table }, sink: { kind: 'csv', path: target } });
    expect(result.rows).toBe(await liveRowCount(table));
    const cols = 'epoch_us(BIG_DATE) AS big, epoch_us(NORMAL_DATE) AS normal, SOME_VALUE';
    expect(
      await duck(
        `SELECT ${cols} FROM read_csv(${sqlText(target)}, header=true,
          columns={'BIG_DATE': 'TIMESTAMPTZ', 'NORMAL_DATE': 'TIMESTAMPTZ', 'SOME_VALUE': 'INTEGER'}) ORDER BY SOME_VALUE`,
      ),
    ).toEqual(await duck(`SELECT ${cols} FROM read_parquet(${sqlText(`${table}/*.parquet`)}) ORDER BY SOME_VALUE`));
  });

  it('jsonl writes nested values as JSON, decimals exact, binary base64', async () => {
    const target = path.join(out, 'all-types.jsonl');
    await exportRequest({ source: { tablePath: allTypes }, sink: { kind: 'jsonl', path: target } });
    const rows = readFileSync(target, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .sort((a, b) => (a.integer as number) - (b.integer as number));
    const expected = await duck(
      `SELECT "integer", "null", "boolean", "double", CAST("decimal" AS VARCHAR) AS "decimal", "string",
        base64("binary") AS "binary", CAST("date" AS VARCHAR) AS "date",
        strftime("timestamp", '%Y-%m-%dT%H:%M:%S.%fZ') AS "timestamp", to_json("struct")::VARCHAR AS "struct",
        to_json("map")::VARCHAR AS "map", to_json("array")::VARCHAR AS "array",
        to_json(nested_struct)::VARCHAR AS nested_struct,
        to_json(struct_of_array_of_map)::VARCHAR AS struct_of_array_of_map,
        new_column
       FROM read_parquet(${sqlText(`${allTypes}/*.parquet`)}, union_by_name=true) ORDER BY "integer"`,
    );
    const nested = ['struct', 'map', 'array', 'nested_struct', 'struct_of_array_of_map'];
    expect(rows).toEqual(
      expected.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, nested.includes(k) && typeof v === 'string' ? JSON.parse(v) : v])),
      ),
    );
  });
});

describe('a failed or cancelled export leaves nothing behind', () => {
  const kinds = ['parquet', 'csv', 'jsonl'] as const;

  it.each(kinds)('%s: cancel after the first batch', async (kind) => {
    const dir = mkdtempSync(path.join(out, `cancel-${kind}-`));
    const target = path.join(dir, `out.${kind}`);
    const controller = new AbortController();
    const err = await failure(
      exportRequest({
        source: { tablePath: allTypes, options: { parquetBatchSize: 1 } },
        sink: { kind, path: target },
        signal: controller.signal,
        onProgress: () => controller.abort(),
      }),
    );
    expect(err.code).toBe('CANCELLED');
    expect(err.message).toBe('export cancelled');
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each(kinds)('%s: a data file missing mid-export', async (kind) => {
    const dir = mkdtempSync(path.join(out, `missing-${kind}-`));
    const table = path.join(dir, 'table');
    cpSync(allTypes, table, { recursive: true });
    const files = readdirSync(table)
      .filter((n) => n.endsWith('.parquet'))
      .sort();
    rmSync(path.join(table, files[files.length - 1]));
    const target = path.join(dir, `out.${kind}`);
    const err = await failure(exportRequest({ source: { tablePath: table }, sink: { kind, path: target } }));
    expect(err.code).toBe('MISSING_FILE');
    expect(readdirSync(dir)).toEqual(['table']);
  });

  it('keeps an older file at the target when the export fails', async () => {
    const dir = mkdtempSync(path.join(out, 'keep-'));
    const target = path.join(dir, 'out.csv');
    writeFileSync(target, 'old contents\n');
    const controller = new AbortController();
    await failure(
      exportRequest({
        source: { tablePath: allTypes, options: { parquetBatchSize: 1 } },
        sink: { kind: 'csv', path: target, overwrite: true },
        signal: controller.signal,
        onProgress: () => controller.abort(),
      }),
    );
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(target, 'utf8')).toBe('old contents\n');
  });

  it.each(kinds)('%s: refuses to replace an existing file unless asked to overwrite it', async (kind) => {
    const dir = mkdtempSync(path.join(out, `exists-${kind}-`));
    const target = path.join(dir, `out.${kind}`);
    writeFileSync(target, 'old contents\n');
    const err = await failure(exportRequest({ source: { tablePath: allTypes }, sink: { kind, path: target } }));
    expect(err.code).toBe('TARGET_EXISTS');
    expect(err.message).toBe(`the output file ${target} already exists`);
    expect(readdirSync(dir)).toEqual([`out.${kind}`]);
    expect(readFileSync(target, 'utf8')).toBe('old contents\n');
    const replaced = await exportRequest({ source: { tablePath: allTypes }, sink: { kind, path: target, overwrite: true } });
    expect(replaced.rows).toBe(await liveRowCount(allTypes));
    expect(readFileSync(target).subarray(0, 12).toString()).not.toBe('old contents');
  });

  it('writes nothing for bad input', async () => {
    const dir = mkdtempSync(path.join(out, 'bad-'));
    const badColumn = await failure(
      exportRequest({ source: { tablePath: allTypes, columnNames: ['nope'] }, sink: { kind: 'csv', path: path.join(dir, 'x.csv') } }),
    );
    expect(badColumn.code).toBe('VALIDATION');
    const badSink = await failure(exportRequest({ source: { tablePath: allTypes }, sink: { kind: 'csv', path: ' ' } }));
    expect(badSink.message).toBe('choose the output file to write');
    const noFolder = await failure(
      exportRequest({ source: { tablePath: allTypes }, sink: { kind: 'jsonl', path: path.join(dir, 'no', 'x.jsonl') } }),
    );
    expect(noFolder.code).toBe('SINK_WRITE');
    expect(noFolder.message).toBe(`the output folder does not exist: ${path.join(dir, 'no')}`);
    const cancelledFirst = new AbortController();
    cancelledFirst.abort();
    const early = await failure(
      exportRequest({
        source: { tablePath: allTypes },
        sink: { kind: 'csv', path: path.join(dir, 'x.csv') },
        signal: cancelledFirst.signal,
      }),
    );
    expect(early.code).toBe('CANCELLED');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('what a SQL export reports committed', () => {
  it('counts committed rows, and a rerun of an exactly-once job reports the rows it resumed after', async () => {
    const dir = mkdtempSync(path.join(out, 'committed-'));
    const sink = {
      kind: 'sqlite' as const,
      path: path.join(dir, 'out.db'),
      table: 't',
      mode: 'append' as const,
      execution: { batchSize: 3, batchIntervalMs: 0, maxRetries: 0 },
      exactlyOnce: true,
    };
    const rows = await liveRowCount(allTypes);
    const seen: ExportProgress[] = [];
    await exportRequest({ source: { tablePath: allTypes }, sink, onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ rows, committedRows: rows });
    expect(seen.every((p) => p.resumedFromRow === undefined)).toBe(true);
    // Committed never runs ahead of what was handed to the sink.
    expect(seen.every((p) => (p.committedRows ?? 0) <= p.rows)).toBe(true);

    const again: ExportProgress[] = [];
    await exportRequest({ source: { tablePath: allTypes }, sink, onProgress: (p) => again.push(p) });
    expect(again.at(-1)).toMatchObject({ rows: 0, committedRows: rows, resumedFromRow: rows });
  });
});
