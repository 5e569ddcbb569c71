import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeltaTable } from '../../../electron/delta/table.js';
import { TABLES_ROOT, tablePath } from '../../support/tables.js';
import { scratchFolders, v } from './log-files.js';
import { commitVersions, oracleRecordCount, oracleSnapshot } from '../../support/delta-oracle.js';
import { localReads } from '../../support/task-tables.js';

const REFUSED = 'simple_table_features';
const allTables = readdirSync(TABLES_ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(TABLES_ROOT, d.name, '_delta_log')) && d.name !== REFUSED)
  .map((d) => d.name);

/** The newest classic checkpoint at or below `version`, found by listing, for tables whose early commits are gone. */
function oracleCheckpoint(root: string, version: number): number | undefined {
  if (existsSync(path.join(root, '_delta_log', `${v(0)}.json`))) return undefined;
  return readdirSync(path.join(root, '_delta_log'))
    .filter((n) => /^\d{20}\.checkpoint\.parquet$/.test(n))
    .map((n) => Number(n.slice(0, 20)))
    .filter((v) => v <= version)
    .sort((a, b) => b - a)[0];
}

async function expectMatchesOracle(name: string, version?: number): Promise<void> {
  const root = tablePath(name);
  const table = await DeltaTable.open(root, localReads);
  const snapshot = await table.snapshot(version === undefined ? {} : { version });
  const atVersion = snapshot.version;
  const oracle = await oracleSnapshot(root, atVersion, oracleCheckpoint(root, atVersion));
  const schema = JSON.parse(oracle.metaData.schemaString as string) as { fields: { name: string }[] };

  expect(snapshot.tableRoot).toBe(root);
  expect(snapshot.files.map((f) => path.relative(root, f.absolutePath))).toEqual(
    [...oracle.adds.values()].map((a) => decodeURIComponent(a.path as string)).sort(),
  );
  expect(snapshot.partitionColumns).toEqual(oracle.metaData.partitionColumns);
  expect(snapshot.schema.fields.map((f) => f.name)).toEqual(schema.fields.map((f) => f.name));
  // Every type as the log writes it, metadata and all: the schema's parsing keeps what it reads.
  expect(snapshot.schema).toEqual(schema);
  expect(snapshot.metadata.id).toBe(oracle.metaData.id);
  expect(snapshot.protocol.minReaderVersion).toBe(oracle.protocol.minReaderVersion);
  expect(snapshot.protocol.readerFeatures ?? []).toEqual(oracle.protocol.readerFeatures ?? []);
  const info = await table.tableInfo(snapshot);
  expect(info.numFiles).toBe(oracle.adds.size);
  expect(info.sizeBytes).toBe([...oracle.adds.values()].reduce((s, a) => s + Number(a.size), 0));
  expect(info.numRecords).toBe(oracleRecordCount(oracle));
  expect(info.version).toBe(atVersion);
  expect(info.partitionColumns).toEqual(oracle.metaData.partitionColumns);
  expect(info.configuration).toEqual(oracle.metaData.configuration ?? {});
}

describe('DeltaTable snapshots match an independent replay of the log', () => {
  it.each(allTables)('%s at its latest version', async (name) => {
    await expectMatchesOracle(name);
  });

  it.each([
    ['simple_table', 0],
    ['simple_table', 2],
    ['delta-0.2.0', 1],
    ['delta-0.2.0', 2],
    ['checkpoints_vacuumed', 5],
    ['checkpoints_vacuumed', 7],
    ['checkpoints_vacuumed', 10],
    ['checkpoint-cdf-table', 3],
    ['checkpoint-cdf-table', 4],
    ['checkpoint-v2-table', 5],
    ['checkpoint-v2-table', 6],
    ['checkpoint-v2-table', 7],
    ['checkpoint-v2-table', 8],
    ['table_failed_last_checkpoint_update', 1],
    ['table_failed_last_checkpoint_update', 2],
    ['with_checkpoint_no_last_checkpoint', 2],
    ['table_with_deletion_logs', 10],
    ['table_with_deletion_logs', 15],
    ['cdf-table-with-cdc-and-dvs', 12],
    ['delta-1.2.1-only-struct-stats', 9],
    ['simple_table_with_checkpoint', 10],
    ['table_with_partitioning_mapping', 2],
  ])('%s at version %i', async (name, version) => {
    await expectMatchesOracle(name, version);
  });
});

describe('DeltaTable.open and versions', () => {
  it('resolves a relative path to the absolute table folder', async () => {
    const relative = path.relative(process.cwd(), tablePath('simple_table'));
    expect((await DeltaTable.open(relative, localReads)).root).toBe(tablePath('simple_table'));
  });

  it('refuses a missing folder and a folder without a log', async () => {
    await expect(DeltaTable.open(tablePath('no-such-table'), localReads)).rejects.toMatchObject({
      code: 'TABLE_NOT_FOUND',
      message: `no such folder: ${tablePath('no-such-table')}`,
    });
    await expect(DeltaTable.open(tablePath('checkpoints_tombstones'), localReads)).rejects.toMatchObject({
      code: 'NOT_A_DELTA_TABLE',
      message: expect.stringContaining('has no _delta_log folder') as string,
    });
  });

  it('refuses the unknown reader feature blahabl by name', async () => {
    const table = await DeltaTable.open(tablePath(REFUSED), localReads);
    const error = await table.snapshot().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' });
    expect((error as Error).message).toMatch(
      /^This table uses the reader feature 'blahabl', which Deltaport cannot read; it reads tables with column mapping, /,
    );
    await expect(table.snapshot({ version: 0 })).rejects.toMatchObject({ code: 'UNSUPPORTED_PROTOCOL' });
  });

  it.each([
    ['simple_table', 0, 4],
    ['checkpoints_vacuumed', 5, 12],
    ['checkpoint-cdf-table', 3, 5],
    ['table-with-domain-metadata', 108, 108],
    ['checkpoint_with_partitions', 2, 2],
    ['checkpoint-v2-table', 0, 9],
  ])('%s has versions %i to %i', async (name, earliest, latest) => {
    // Expected from the folder: JSON commits and checkpoints present (see delta-tables/README.md).
    const versions = commitVersions(tablePath(name));
    expect(versions.at(-1) ?? latest).toBe(latest);
    const table = await DeltaTable.open(tablePath(name), localReads);
    expect(await table.versionRange()).toEqual({ earliest, latest });
    expect((await table.snapshot()).version).toBe(latest);
    expect((await table.snapshot({ version: earliest })).version).toBe(earliest);
  });

  it('names the readable range for a version outside it', async () => {
    const vacuumed = await DeltaTable.open(tablePath('checkpoints_vacuumed'), localReads);
    await expect(vacuumed.snapshot({ version: 4 })).rejects.toMatchObject({
      code: 'VERSION_NOT_FOUND',
      message: 'no version 4: this table has versions 5 to 12',
    });
    await expect(vacuumed.snapshot({ version: 13 })).rejects.toThrow('no version 13: this table has versions 5 to 12');
    const simple = await DeltaTable.open(tablePath('simple_table'), localReads);
    await expect(simple.snapshot({ version: 99 })).rejects.toThrow('no version 99: this table has versions 0 to 4');
    await expect(simple.snapshot({ version: -1 })).rejects.toThrow('no version -1: this table has versions 0 to 4');
    const single = await DeltaTable.open(tablePath('table-with-domain-metadata'), localReads);
    await expect(single.snapshot({ version: 107 })).rejects.toThrow('no version 107: this table has only version 108');
  });

  it('decodes percent-encoded paths to files that exist on disk', async () => {
    for (const name of [
      'delta-0.8.0-special-partition',
      'table_with_column_mapping',
      'delta-0.8.0-partitioned',
      'delta-2.2.0-partitioned-types',
      'partition-type-primitives',
      'table_with_partitioning_mapping',
    ]) {
      const snapshot = await (await DeltaTable.open(tablePath(name), localReads)).snapshot();
      expect(snapshot.files.length).toBeGreaterThan(0);
      for (const file of snapshot.files) expect(existsSync(file.absolutePath), file.absolutePath).toBe(true);
    }
  });

  it('sorts live files by absolute path', async () => {
    const snapshot = await (await DeltaTable.open(tablePath('checkpoints_vacuumed'), localReads)).snapshot();
    const paths = snapshot.files.map((f) => f.absolutePath);
    expect(paths).toEqual([...paths].sort());
  });
});

describe("a schema's types", () => {
  const scratch = scratchFolders('schema-types');
  afterEach(() => scratch.removeAll());

  /** A table of one commit whose schema has one column of the given type (as JSON, the way the log writes it). */
  async function snapshotWith(type: unknown, field: Record<string, unknown> = { name: 'c', type, nullable: true, metadata: {} }) {
    const root = scratch.make();
    mkdirSync(path.join(root, '_delta_log'));
    const schemaString = JSON.stringify({ type: 'struct', fields: [field] });
    const actions = [
      { protocol: { minReaderVersion: 1, minWriterVersion: 2 } },
      { metaData: { id: 'types', format: { provider: 'parquet', options: {} }, schemaString, partitionColumns: [], configuration: {} } },
    ];
    writeFileSync(path.join(root, '_delta_log', `${v(0)}.json`), actions.map((a) => JSON.stringify(a)).join('\n'));
    return (await DeltaTable.open(root, localReads)).snapshot();
  }

  it('refuses a type the reader does not know, at any depth, by its name', async () => {
    await expect(snapshotWith('timestampNanos')).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL',
      message: "unsupported Delta type 'timestampNanos'",
    });
    await expect(snapshotWith('decimal(39,0)')).rejects.toMatchObject({ message: "unsupported Delta type 'decimal(39,0)'" });
    await expect(snapshotWith('decimal(5,6)')).rejects.toMatchObject({ message: "unsupported Delta type 'decimal(5,6)'" });
    const geometry = { type: 'geometry', srid: 'OGC:CRS84' };
    await expect(snapshotWith({ type: 'map', keyType: 'string', valueType: geometry, valueContainsNull: true })).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL',
      message: `unsupported Delta type ${JSON.stringify(geometry)}`,
    });
  });

  it('reads a decimal written with spaces as decimal(p,s), and calls a field without a type a broken log', async () => {
    const snapshot = await snapshotWith({ type: 'array', elementType: 'decimal( 10 , 2 )', containsNull: true });
    expect(snapshot.schema.fields[0].type).toEqual({ type: 'array', elementType: 'decimal(10,2)', containsNull: true });
    await expect(snapshotWith(undefined, { name: 'c', nullable: true })).rejects.toMatchObject({
      code: 'CORRUPT_LOG',
      message: 'cannot read version 0: its metaData.schemaString is not a valid schema',
    });
  });
});
