import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeltaType, StructType } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import { dataFileSchema, dataTable } from './data-columns.js';
import { DeltaTableWriter } from './table-writer.js';
import { loadDeletionVector } from '../../../electron/delta/scan/deletion-vectors.js';
import { LocalStorage } from '../../../electron/storage/local-storage.js';
import { commitFile, commitInfo, commitVersions, dataFile, type Json, liveFiles, readCommit } from '../delta-oracle.js';
import { duck, sqlText } from '../duckdb.js';

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'id', type: 'long', nullable: false },
    { name: 'name', type: 'string', nullable: true },
    { name: 'score', type: 'double', nullable: true },
    { name: 'at', type: 'timestamp', nullable: true },
    { name: 'day', type: 'date', nullable: true },
    { name: 'flag', type: 'boolean', nullable: true },
    { name: 'part', type: 'string', nullable: true },
  ],
};
const fileSchema = dataFileSchema(SCHEMA, ['part']);

function rows(ids: number[]) {
  return dataTable(fileSchema, {
    id: ids.map(BigInt),
    name: ids.map((i) => `n${i}`),
    score: ids.map((i) => i / 2),
    at: ids.map((i) => Date.UTC(2024, 0, 1) + i * 1000),
    day: ids.map((i) => Date.UTC(2024, 0, 1 + i)),
    flag: ids.map((i) => i % 2 === 0),
  });
}

let root: string;

beforeEach(async () => {
  root = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'table-writer-')), 't');
});

afterEach(async () => {
  await fs.rm(path.dirname(root), { recursive: true, force: true });
});

describe('DeltaTableWriter statistics', () => {
  it('writes numRecords, min, max and nullCount that match what DuckDB finds in the file', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, partitionColumns: ['part'] });
    const table = dataTable(fileSchema, {
      id: [5n, -3n, 12n, 7n],
      // UTF-8 byte order puts 'é' (0xC3 0xA9) after 'z', unlike a locale-aware comparison.
      name: ['zebra', null, 'été', 'apple'],
      score: [1.5, null, -2.25, 8],
      at: [Date.UTC(2024, 5, 1, 12), Date.UTC(2023, 0, 2, 3, 4, 5, 678), null, Date.UTC(2025, 1, 1)],
      day: [Date.UTC(2024, 1, 29), null, Date.UTC(2020, 0, 1), null],
      flag: [true, null, false, null],
    });
    await writer.append([{ data: table, partitionValues: { part: 'a' } }]);
    const [add] = readCommit(root, 1)
      .filter((a) => a.add)
      .map((a) => a.add);
    const stats = JSON.parse(add.stats);
    expect(stats).toEqual({
      numRecords: 4,
      minValues: { id: -3, name: 'apple', score: -2.25, at: '2023-01-02T03:04:05.678Z', day: '2020-01-01' },
      maxValues: { id: 12, name: 'été', score: 8, at: '2025-02-01T00:00:00.000Z', day: '2024-02-29' },
      nullCount: { id: 0, name: 1, score: 1, at: 1, day: 2, flag: 2 },
    });
    const [oracle] = await duck(
      `SELECT count(*) AS n, min(id) AS min_id, max(id) AS max_id, count(*) - count(name) AS null_names,
              max(name COLLATE "binary") AS max_name, min(score) AS min_score
       FROM read_parquet(${sqlText(dataFile(root, add))}, hive_partitioning = false)`,
    );
    expect(oracle).toEqual({ n: 4n, min_id: -3n, max_id: 12n, null_names: 1n, max_name: 'été', min_score: -2.25 });
  });

  it('gives the data file the Delta types: long, string, double, UTC timestamp in microseconds, date, boolean', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, partitionColumns: ['part'] });
    await writer.append([{ data: rows([1, 2]), partitionValues: { part: 'x' } }]);
    const [add] = writer.files();
    const types = await duck(
      `SELECT name, "type", logical_type, repetition_type FROM parquet_schema(${sqlText(dataFile(root, add))}) WHERE "type" IS NOT NULL`,
    );
    expect(types.map((t) => [t.name, t.type, t.repetition_type])).toEqual([
      ['id', 'INT64', 'REQUIRED'],
      ['name', 'BYTE_ARRAY', 'OPTIONAL'],
      ['score', 'DOUBLE', 'OPTIONAL'],
      ['at', 'INT64', 'OPTIONAL'],
      ['day', 'INT32', 'OPTIONAL'],
      ['flag', 'BOOLEAN', 'OPTIONAL'],
    ]);
    expect(String(types[3].logical_type)).toMatch(/isAdjustedToUTC=1.*MICROS|MICROS.*isAdjustedToUTC=1/i);
    const [row] = await duck(`SELECT "at", "day" FROM read_parquet(${sqlText(dataFile(root, add))}) WHERE id = 2`);
    expect((row.at as Date).toISOString()).toBe('2024-01-01T00:00:02.000Z');
    expect((row.day as Date).toISOString()).toBe('2024-01-03T00:00:00.000Z');
  });
});

describe('DeltaTableWriter partitions', () => {
  it('escapes partition values in folder names and URI-encodes add.path', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, partitionColumns: ['part'] });
    await writer.append([
      { data: rows([1]), partitionValues: { part: 'a/b c%' } },
      { data: rows([2]), partitionValues: { part: null } },
    ]);
    const adds = readCommit(root, 1)
      .filter((a) => a.add)
      .map((a) => a.add);
    expect(adds[0].path.startsWith('part=a%252Fb%20c%2525/')).toBe(true);
    expect(adds[0].partitionValues).toEqual({ part: 'a/b c%' });
    expect(adds[1].path.startsWith('part=__HIVE_DEFAULT_PARTITION__/')).toBe(true);
    expect(adds[1].partitionValues).toEqual({ part: null });
    const folders = (await fs.readdir(root)).filter((n) => n.startsWith('part=')).sort();
    expect(folders).toEqual(['part=__HIVE_DEFAULT_PARTITION__', 'part=a%2Fb c%25']);
    const [row] = await duck(`SELECT id FROM read_parquet(${sqlText(dataFile(root, adds[0]))}, hive_partitioning = false)`);
    expect(row.id).toBe(1n);
  });

  it('refuses a partition column that is not in the schema', async () => {
    await expect(DeltaTableWriter.create(root, { schema: SCHEMA, partitionColumns: ['nope'] })).rejects.toThrow(
      /partition column 'nope' is not in the schema/,
    );
  });
});

describe('DeltaTableWriter commits', () => {
  it('keeps commit times strictly increasing and sets each commit file mtime to its commit time', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, timestamp: 1_700_000_000_000 });
    await writer.append([{ data: rows([1]) }], { timestamp: 1_700_000_000_000 });
    await writer.append([{ data: rows([2]) }], { timestamp: 1_600_000_000_000 });
    const times: number[] = [];
    for (const v of commitVersions(root)) {
      const info = commitInfo(root, v);
      const stat = await fs.stat(commitFile(root, v));
      expect(Math.floor(stat.mtimeMs)).toBe(info.timestamp);
      times.push(info.timestamp);
    }
    expect(times).toEqual([1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002]);
  });

  it('refuses to create a table where a log already exists, in one line', async () => {
    await DeltaTableWriter.create(root, { schema: SCHEMA });
    const err = await DeltaTableWriter.create(root, { schema: SCHEMA }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeltaportError);
    expect((err as DeltaportError).message).toMatch(/^commit 0 already exists in .*_delta_log$/);
  });

  it('records an UPDATE as remove plus add with metrics', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA });
    await writer.append([{ data: rows([1, 2, 3]) }]);
    const [old] = writer.files();
    await writer.replaceFile(old.path, rows([1, 2, 30]), { predicate: 'id = 3', updatedRows: 1 });
    const actions = readCommit(root, 2);
    const info = actions.find((a) => a.commitInfo)?.commitInfo;
    expect(info.operation).toBe('UPDATE');
    expect(info.operationMetrics).toMatchObject({ numUpdatedRows: '1', numCopiedRows: '2', numRemovedFiles: '1' });
    expect(actions.filter((a) => a.remove).map((a) => a.remove.path)).toEqual([old.path]);
    const live = await liveFiles(root);
    expect(live).toHaveLength(1);
    const ids = await duck(`SELECT id FROM read_parquet(${sqlText(dataFile(root, live[0]))}) ORDER BY id`);
    expect(ids.map((r) => r.id)).toEqual([1n, 2n, 30n]);
  });
});

describe('DeltaTableWriter deletion vectors', () => {
  it('adds a stored deletion vector, then merges a second delete into an inline one', async () => {
    const writer = await DeltaTableWriter.create(root, { schema: SCHEMA, deletionVectors: true });
    await writer.append([{ data: rows(Array.from({ length: 100 }, (_, i) => i)) }]);
    const [file] = writer.files();
    await writer.deleteRows(file.path, [10, 70, 3], { predicate: 'id IN (3, 10, 70)' });
    const first = (await liveFiles(root)).find((a) => a.path === file.path) as Json;
    expect(first.deletionVector).toMatchObject({ storageType: 'u', cardinality: 3, offset: 1 });
    expect(JSON.parse(first.stats)).toMatchObject({ numRecords: 100, tightBounds: false });
    expect([...(await loadDeletionVector(new LocalStorage(), root, first.deletionVector))]).toEqual([3, 10, 70]);

    await writer.deleteRows(file.path, [99, 10], { predicate: 'id IN (10, 99)', storage: 'i' });
    const actions = readCommit(root, 3);
    expect(actions.find((a) => a.remove)?.remove.deletionVector).toEqual(first.deletionVector);
    const info = actions.find((a) => a.commitInfo)?.commitInfo;
    expect(info.operationMetrics).toMatchObject({ numDeletedRows: '1', numDeletionVectorsRemoved: '1' });
    const second = (await liveFiles(root)).find((a) => a.path === file.path) as Json;
    expect(second.deletionVector).toMatchObject({ storageType: 'i', cardinality: 4 });
    expect([...(await loadDeletionVector(new LocalStorage(), root, second.deletionVector))]).toEqual([3, 10, 70, 99]);
  });

  it('refuses deletes on a table without the feature, and rows beyond the file', async () => {
    const plain = await DeltaTableWriter.create(root, { schema: SCHEMA });
    await plain.append([{ data: rows([1]) }]);
    await expect(plain.deleteRows(plain.files()[0].path, [0], { predicate: 'true' })).rejects.toThrow(
      /without the deletionVectors feature/,
    );
    const other = await DeltaTableWriter.create(`${root}2`, { schema: SCHEMA, deletionVectors: true });
    await other.append([{ data: rows([1, 2]) }]);
    await expect(other.deleteRows(other.files()[0].path, [2], { predicate: 'true' })).rejects.toThrow(/within the 2 rows/);
    expect(commitVersions(`${root}2`)).toEqual([0, 1]);
  });
});

describe('DeltaTableWriter checkpoints', () => {
  it('writes a Parquet checkpoint every N commits with the live files, and _last_checkpoint', async () => {
    const writer = await DeltaTableWriter.create(root, {
      schema: SCHEMA,
      partitionColumns: ['part'],
      deletionVectors: true,
      checkpointInterval: 3,
    });
    for (let i = 0; i < 4; i++) await writer.append([{ data: rows([i]), partitionValues: { part: `p${i % 2}` } }]);
    const [first] = writer.files();
    await writer.deleteRows(first.path, [0], { predicate: 'id = 0', storage: 'i' });
    const replaced = writer.files()[1];
    await writer.replaceFile(replaced.path, rows([100]), { predicate: 'id = 1', updatedRows: 1 });

    const logNames = await fs.readdir(path.join(root, '_delta_log'));
    expect(logNames.filter((n) => n.endsWith('.checkpoint.parquet')).sort()).toEqual([
      '00000000000000000003.checkpoint.parquet',
      '00000000000000000006.checkpoint.parquet',
    ]);
    const last = JSON.parse(await fs.readFile(path.join(root, '_delta_log', '_last_checkpoint'), 'utf8'));
    expect(last).toMatchObject({ version: 6, size: 7, numOfAddFiles: 4 });

    const checkpoint = sqlText(path.join(root, '_delta_log', '00000000000000000006.checkpoint.parquet'));
    const counts = await duck(
      `SELECT count(*) AS n, count(add) AS adds, count(remove) AS removes, count(metaData) AS meta, count(protocol) AS protocols
       FROM read_parquet(${checkpoint})`,
    );
    expect(counts).toEqual([{ n: 7n, adds: 4n, removes: 1n, meta: 1n, protocols: 1n }]);
    const removes = await duck(
      `SELECT remove.path AS path, remove.dataChange AS dc FROM read_parquet(${checkpoint}) WHERE remove IS NOT NULL`,
    );
    expect(removes).toEqual([{ path: replaced.path, dc: false }]);
    const expected = await liveFiles(root, 6);
    const adds = await duck(
      `SELECT add.path AS path, map_extract(add.partitionValues, 'part')[1] AS part, add.size AS size,
              add.stats AS stats, add.deletionVector.storageType AS dv, add.deletionVector.cardinality AS card
       FROM read_parquet(${checkpoint}) WHERE add IS NOT NULL ORDER BY path`,
    );
    const fromLog = expected.sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(adds.map((a) => [a.path, a.part, Number(a.size), a.stats, a.dv, a.card === null ? null : Number(a.card)])).toEqual(
      fromLog.map((a) => [
        a.path,
        a.partitionValues.part,
        a.size,
        a.stats,
        a.deletionVector?.storageType ?? null,
        a.deletionVector?.cardinality ?? null,
      ]),
    );
    const [meta] = await duck(
      `SELECT metaData.id AS id, metaData.schemaString AS schema, metaData.partitionColumns AS parts,
              map_extract(metaData.configuration, 'delta.enableDeletionVectors')[1] AS dv,
              protocol.minReaderVersion AS r
       FROM read_parquet(${checkpoint}) WHERE metaData IS NOT NULL OR protocol IS NOT NULL ORDER BY r NULLS FIRST`,
    );
    const metaData = readCommit(root, 0).find((a) => a.metaData)?.metaData;
    expect(meta).toEqual({ id: metaData.id, schema: metaData.schemaString, parts: ['part'], dv: 'true', r: null });
  });
});

describe('data file columns', () => {
  it('refuses types the writer cannot write and columns without values, by name', () => {
    const nested: StructType = {
      type: 'struct',
      fields: [{ name: 'tags', type: { type: 'array', elementType: 'string', containsNull: true }, nullable: true }],
    };
    expect(() => dataFileSchema(nested)).toThrow(/does not handle type .* of 'tags'/);
    // A name that is a property of every object, as an unchecked schema could hold it.
    const notAType = 'toString' as string as DeltaType;
    expect(() => dataFileSchema({ type: 'struct', fields: [{ name: 'x', type: notAType, nullable: true }] })).toThrow(/of 'x'/);
    expect(() => dataTable(fileSchema, { id: [1n] })).toThrow(/no values for column 'name'/);
  });
});
