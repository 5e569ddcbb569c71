// Variants at any depth (in arrays, structs, maps, arrays of structs) are JSON values in every output that writes
// JSON: JSON Lines, the grid's rows (the preview task), PostgreSQL jsonb. Expected values come from DuckDB's reading
// of the variant structs' raw bytes, decoded here by the Variant spec for the one shape the table uses: an object
// with one int8 field "key" (value 02 01 00 00 02 0C nn, metadata 01 01 00 03 "key").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../shared/api.js';
import { previewTask } from '../../../electron/jobs/tasks.js';
import { scratchFolders } from '../delta/log-files.js';
import { dataFile, liveFiles } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { cli } from '../cli/run-cli.js';
import { tablePath } from '../../support/tables.js';
import { useTestDatabase } from '../../support/test-database.js';
import { taskTables } from '../../support/task-tables.js';

const tables = taskTables();

const NESTED = [
  'v',
  'array_of_variants',
  'struct_of_variants',
  'map_of_variants',
  'array_of_struct_of_variants',
  'struct_of_array_of_variants',
];
const scratch = scratchFolders('variants');
afterAll(() => scratch.removeAll());
const db = useTestDatabase('variants');

/** "\x02\x01..." (DuckDB's JSON of a blob) -> bytes. */
function blobBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length;) {
    if (text.startsWith('\\x', i)) {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 4;
    } else bytes.push(text.charCodeAt(i++));
  }
  return bytes;
}

/** A variant struct {value, metadata} -> its value, for the object-with-one-int8-"key" shape only. */
function decodeVariant(value: string, metadata: string): JsonValue {
  const v = blobBytes(value);
  expect(blobBytes(metadata)).toEqual([1, 1, 0, 3, ...Buffer.from('key')]);
  expect(v.slice(0, 6)).toEqual([0x02, 0x01, 0x00, 0x00, 0x02, 0x0c]);
  expect(v).toHaveLength(7);
  return { key: (v[6] << 24) >> 24 };
}

function decodeAll(x: unknown): JsonValue {
  if (x === null || typeof x !== 'object') return x as JsonValue;
  if (Array.isArray(x)) return x.map(decodeAll);
  const o = x as Record<string, unknown>;
  if (Object.keys(o).sort().join() === 'metadata,value') return decodeVariant(o.value as string, o.metadata as string);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, decodeAll(v)]));
}

/** Each row's id and nested columns, as the Variant spec reads DuckDB's bytes, in a canonical text (sorted keys:
 * jsonb orders them its own way), sorted: the table has rows that repeat. */
async function expectedRows(table: string): Promise<string[]> {
  // The live files by the log's own JSON commits.
  const files = (await liveFiles(table)).map((add) => sqlText(dataFile(table, add)));
  const rows = await duck(
    `select id::integer as id, ${NESTED.map((c) => `to_json(${c})::varchar as ${c}`).join(', ')} from read_parquet([${files.join(',')}])`,
  );
  return rows
    .map((r) => canonical([r.id as number, ...NESTED.map((c) => decodeAll(JSON.parse((r[c] as string | null) ?? 'null')))]))
    .sort();
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** Our rows (objects by column name) in the same form. */
function ours(rows: Record<string, JsonValue>[]): string[] {
  return rows.map((r) => canonical([Number(r.id), ...NESTED.map((c) => r[c])])).sort();
}

function gridRows(preview: { columns: { name: string }[]; rows: JsonValue[][] }): Record<string, JsonValue>[] {
  return preview.rows.map((row) => Object.fromEntries(preview.columns.map((c, i) => [c.name, row[i]])));
}

const TABLE = tablePath('spark-variant-checkpoint');

describe('nested variants', () => {
  it('are JSON values in JSON Lines', async () => {
    const out = path.join(scratch.make(), 'v.jsonl');
    expect((await cli('export', TABLE, '--sink', `jsonl:${out}`)).code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, JsonValue>);
    expect(ours(lines)).toEqual(await expectedRows(TABLE));
  });

  it("are JSON values in the grid's rows", async () => {
    const preview = await previewTask(tables, { source: { tablePath: TABLE }, limit: 1000 }, new AbortController().signal);
    expect(ours(gridRows(preview))).toEqual(await expectedRows(TABLE));
  });

  it('are JSON values in PostgreSQL jsonb', async () => {
    const run = await cli('export', TABLE, '--sink', db.url, '--target', 'variants');
    expect(run.stderr).toBe('');
    const { rows } = await db.client.query<Record<string, JsonValue>>(`SELECT id, ${NESTED.join(', ')} FROM variants`);
    expect(ours(rows)).toEqual(await expectedRows(TABLE));
  });

  it('read the same from the shredded table (spark-shredded-variant-preview-delta)', async () => {
    const shredded = await previewTask(
      tables,
      { source: { tablePath: tablePath('spark-shredded-variant-preview-delta') }, limit: 1000 },
      new AbortController().signal,
    );
    expect(ours(gridRows(shredded))).toEqual(await expectedRows(TABLE));
  });
});
