// The DuckDB sink reading a snapshot's own data files (electron/sinks/duckdb/duckdb-own-files.ts) against the same
// export through the reader's batches: shared tables with deletion vectors, partitions, column mapping by name, a
// column added later, and a table the test writes with widened types (decimals, timestamps with and without a zone,
// dates, binary) land as the same rows (count and SHA-256 of the sorted canonical rows, read by Python's duckdb) in
// tables DESCRIBE gives the same columns, in every mode, and equal DuckDB's delta extension reading the table. The
// export through the files never reads a batch. Progress, a cancel and a failure on that path; which path runs when.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportProgress } from '../../../electron/export/run-export.js';
import { openRows } from '../../../electron/export/open-rows.js';
import type { RowSource } from '../../../electron/export/row-source.js';
import { runExport } from '../../../electron/export/run-export.js';
import type { ExportSource } from '../../../shared/change-source.js';
import { DeltaportError } from '../../../shared/errors.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { deltaCensus, duckdbFileCensus } from '../../support/delta-census.js';
import { wholeFileRows } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { TABLE_KEYS } from '../../support/table-keys.js';
import { localReads, openLocal } from '../../support/task-tables.js';
import { tablePath } from '../../support/tables.js';
import { scratchFolders } from '../delta/log-files.js';
import { duckdbSpec } from './sink-harness.js';

const run = promisify(execFile);
const scratch = scratchFolders('duckdb-own-files');
afterAll(() => scratch.removeAll());

type Path = 'files' | 'batches';

/** The rows a request names, as the export opens them; 'files': the sink must read the table's own files, and the
 * batches fail if read; 'batches': no files are offered, as for a source that cannot offer them. */
async function rowsOf(source: ExportSource & { tablePath: string }, way: Path): Promise<RowSource> {
  const rows = await openRows(source, { measure: true, openTable: openLocal });
  if (way === 'batches') return { ...rows, ownFiles: async () => null };
  expect(await rows.ownFiles?.(), 'the table offers its own files').not.toBeNull();
  return {
    ...rows,
    batches: () => {
      throw new Error('the batches were read');
    },
  };
}

function exportWay(source: ExportSource & { tablePath: string }, way: Path, sink: SinkSpec, onProgress?: (p: ExportProgress) => void) {
  return rowsOf(source, way).then((rows) => runExport(rows, sink, { storage: localReads.storage, ...(onProgress ? { onProgress } : {}) }));
}

/** DESCRIBE of a table in a DuckDB file, read by the tests' own DuckDB. */
async function describeTable(file: string, table: string): Promise<string[]> {
  await duck(`ATTACH ${sqlText(file)} AS described (READ_ONLY)`);
  try {
    const rows = await duck<{ column_name: string; column_type: string; null: string }>(`DESCRIBE described."${table}"`);
    return rows.map((r) => `${r.column_name} ${r.column_type} ${r.null}`);
  } finally {
    await duck('DETACH described');
  }
}

/** Every mode both ways into one file: tables `<mode>_files` and `<mode>_batches`. */
async function bothWays(source: ExportSource & { tablePath: string }, file: string, key: string | undefined): Promise<string[]> {
  const modes: string[] = [];
  for (const way of ['files', 'batches'] as const) {
    await exportWay(source, way, duckdbSpec(file, { table: `appended_${way}` }));
    // Overwritten over a first export: the second replaces it in one transaction.
    await exportWay(source, way, duckdbSpec(file, { table: `overwritten_${way}`, mode: 'overwrite' }));
    await exportWay(source, way, duckdbSpec(file, { table: `overwritten_${way}`, mode: 'overwrite' }));
    const once = duckdbSpec(file, { table: `once_${way}`, exactlyOnce: true });
    const first = await exportWay(source, way, once);
    // The finished job run again writes nothing.
    expect((await exportWay(source, way, once)).rows).toBe(0);
    expect(first.rows).toBeGreaterThanOrEqual(0);
    if (key) {
      // Upserted twice: the same table.
      const upsert = duckdbSpec(file, { table: `upserted_${way}`, mode: 'upsert', keyColumns: [key] });
      await exportWay(source, way, upsert);
      await exportWay(source, way, upsert);
    }
  }
  modes.push('appended', 'overwritten', 'once');
  if (key) modes.push('upserted');
  return modes;
}

const SHARED: [string, string[] | undefined][] = [
  ['simple_table', undefined],
  ['table-with-dv-small', undefined],
  ['table_with_deletion_logs', undefined],
  ['cdf-table-with-cdc-and-dvs', undefined],
  ['partition-type-primitives', undefined],
  ['delta-2.2.0-partitioned-types', undefined],
  ['delta-0.8.0-special-partition', undefined],
  ['delta-0.8.0-null-partition', undefined],
  ['table_with_column_mapping', undefined],
  ['table_with_partitioning_mapping', undefined],
  ['table_with_edge_timestamps', undefined],
  ['checkpoint-v2-table', undefined],
  ['http_requests', undefined],
  ['delta-0.8-empty', undefined],
  // Its flat columns (decimal, binary, date, timestamp), and one added after the first files were written.
  [
    'delta-1.2.1-only-struct-stats',
    ['integer', 'null', 'boolean', 'double', 'decimal', 'string', 'binary', 'date', 'timestamp', 'new_column'],
  ],
];

describe('the same shared tables into DuckDB through their own files and through the batches', () => {
  it.each(SHARED)('%s', { timeout: 300_000 }, async (name, columnNames) => {
    const location = tablePath(name);
    const source = { tablePath: location, ...(columnNames ? { columnNames } : {}) };
    const file = path.join(scratch.make(), 'both.duckdb');
    const modes = await bothWays(source, file, columnNames ? undefined : TABLE_KEYS[name]);
    const tables = modes.flatMap((mode) => [`${mode}_files`, `${mode}_batches`]);
    const census = await duckdbFileCensus(file, ...tables);
    for (const [i, mode] of modes.entries()) expect(census[2 * i], mode).toEqual(census[2 * i + 1]);
    if (!columnNames) expect(census[0]).toEqual(await deltaCensus(location));
    for (const mode of modes)
      expect(await describeTable(file, `${mode}_files`), mode).toEqual(await describeTable(file, `${mode}_batches`));
    expect(existsSync(`${file}.deltaport-parts`)).toBe(false);
  });

  it('a table with widened types: older files cast to the types the table has now, a column they lack as NULL', async () => {
    const location = await widenedTable(scratch.make());
    const file = path.join(scratch.make(), 'widened.duckdb');
    const modes = await bothWays({ tablePath: location }, file, 'n');
    const census = await duckdbFileCensus(file, ...modes.flatMap((mode) => [`${mode}_files`, `${mode}_batches`]));
    for (const [i, mode] of modes.entries()) expect(census[2 * i], mode).toEqual(census[2 * i + 1]);
    expect(await describeTable(file, 'appended_files')).toEqual([
      'n BIGINT YES',
      'x DOUBLE YES',
      't TIMESTAMP YES',
      'm DECIMAL(10,4) YES',
      'b BLOB YES',
      'ts TIMESTAMP WITH TIME ZONE YES',
      'added VARCHAR YES',
    ]);
    for (const mode of modes)
      expect(await describeTable(file, `${mode}_files`), mode).toEqual(await describeTable(file, `${mode}_batches`));
    // The values the test wrote, as the table's types now hold them.
    await duck(`ATTACH ${sqlText(file)} AS widened (READ_ONLY)`);
    try {
      const rows = await duck(
        'SELECT n, x, t::VARCHAR AS t, m::VARCHAR AS m, hex(b) AS b, ts::VARCHAR AS ts, added FROM widened.appended_files ORDER BY n',
      );
      expect(rows.map((r) => Object.values(r).map((v) => (typeof v === 'bigint' ? Number(v) : v)))).toEqual([
        [-7, -0.25, '1969-12-31 00:00:00', '-5.5000', null, null, null],
        [1, 1.5, '2020-01-02 00:00:00', '12.3400', '00FF', '2021-03-04 05:06:07.123456+00', null],
        [3_000_000_000, 2.5e300, '2022-02-02 02:02:02.5', '123456.7891', '616263', '1900-01-01 00:00:00+00', 'new'],
      ]);
    } finally {
      await duck('DETACH widened');
    }
  });
});

/** Writes a Delta table whose first file holds narrower types than the table declares now (type widening: integer to
 * long, float to double, date to timestamp_ntz, decimal(6,2) to decimal(10,4)) and lacks a column added since. */
async function widenedTable(dir: string): Promise<string> {
  const root = path.join(dir, 'widened');
  mkdirSync(path.join(root, '_delta_log'), { recursive: true });
  const old = path.join(root, 'part-0.parquet');
  const now = path.join(root, 'part-1.parquet');
  await duck(
    `COPY (SELECT * FROM (VALUES (1::INTEGER, 1.5::FLOAT, DATE '2020-01-02', 12.34::DECIMAL(6,2), '\\x00\\xFF'::BLOB, TIMESTAMPTZ '2021-03-04 05:06:07.123456+00'),
       (-7::INTEGER, -0.25::FLOAT, DATE '1969-12-31', -5.5::DECIMAL(6,2), NULL::BLOB, NULL::TIMESTAMPTZ)) v(n, x, t, m, b, ts)) TO ${sqlText(old)} (FORMAT parquet)`,
  );
  await duck(
    `COPY (SELECT 3000000000::BIGINT AS n, 2.5e300::DOUBLE AS x, TIMESTAMP '2022-02-02 02:02:02.5' AS t, 123456.7891::DECIMAL(10,4) AS m,
       'abc'::BLOB AS b, TIMESTAMPTZ '1900-01-01 00:00:00+00' AS ts, 'new' AS added) TO ${sqlText(now)} (FORMAT parquet)`,
  );
  const field = (name: string, type: string) => ({ name, type, nullable: true, metadata: {} });
  const schema = {
    type: 'struct',
    fields: [
      field('n', 'long'),
      field('x', 'double'),
      field('t', 'timestamp_ntz'),
      field('m', 'decimal(10,4)'),
      field('b', 'binary'),
      field('ts', 'timestamp'),
      field('added', 'string'),
    ],
  };
  const add = (file: string, rows: number) => ({
    add: {
      path: path.basename(file),
      partitionValues: {},
      size: statSync(file).size,
      modificationTime: 0,
      dataChange: true,
      stats: JSON.stringify({ numRecords: rows }),
    },
  });
  const features = ['typeWidening', 'timestampNtz'];
  const actions = [
    { protocol: { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: features, writerFeatures: features } },
    {
      metaData: {
        id: randomUUID(),
        format: { provider: 'parquet', options: {} },
        schemaString: JSON.stringify(schema),
        partitionColumns: [],
        configuration: { 'delta.enableTypeWidening': 'true' },
        createdTime: 0,
      },
    },
    add(old, 2),
    add(now, 1),
  ];
  writeFileSync(path.join(root, '_delta_log', '00000000000000000000.json'), actions.map((a) => JSON.stringify(a)).join('\n') + '\n');
  return root;
}

describe('progress, cancel and failure through the files', () => {
  const COVID = tablePath('COVID-19_NYT');

  it('reports rows, files and committed rows as each transaction of whole files commits', { timeout: 300_000 }, async () => {
    const file = path.join(scratch.make(), 'progress.duckdb');
    const steps: ExportProgress[] = [];
    const outcome = await exportWay({ tablePath: COVID }, 'files', duckdbSpec(file, { table: 'covid' }), (p) => steps.push(p));
    const expected = await deltaCensus(COVID);
    if (typeof expected === 'string') throw new Error(expected);
    expect(outcome.rows).toBe(expected.rows);
    const sums = await wholeFileRows(COVID);
    // More than one transaction, each of whole files: every report but the last is at a file boundary.
    const during = steps.slice(0, -1);
    expect(during.length).toBeGreaterThan(1);
    for (const p of during) {
      expect(sums).toContain(p.rows);
      expect(p.committedRows).toBe(p.rows);
      expect(p.files).toBe(sums.indexOf(p.rows));
    }
    expect(steps.map((p) => p.rows)).toEqual([...steps.map((p) => p.rows)].sort((a, b) => a - b));
    expect(steps.at(-1)).toMatchObject({ rows: expected.rows, files: 8, filesTotal: 8 });
    expect(await duckdbFileCensus(file, 'covid')).toEqual([expected]);
  });

  it(
    'a cancel after the first commit leaves whole files; the rerun of the exactly-once job goes on with the next',
    { timeout: 300_000 },
    async () => {
      const sums = await wholeFileRows(COVID);
      // At once after the first commit, and once the next transaction is under way (DuckDB's interrupt stops its
      // statement, never a COMMIT).
      for (const when of ['between', 'during'] as const) {
        const file = path.join(scratch.make(), `cancel-${when}.duckdb`);
        const sink = duckdbSpec(file, { table: 'covid', exactlyOnce: true });
        const controller = new AbortController();
        const rows = await rowsOf({ tablePath: COVID }, 'files');
        const cancel = () => (when === 'between' ? controller.abort() : setTimeout(() => controller.abort(), 0));
        const err = await runExport(rows, sink, { storage: localReads.storage, signal: controller.signal, onProgress: cancel }).then(
          () => null,
          (e: unknown) => e,
        );
        const [left] = await duckdbFileCensus(file, 'covid');
        if (err === null) {
          // The last transaction committed before the cancel came: the export is whole.
          expect(when).toBe('during');
          expect(left.rows).toBe(sums.at(-1));
          continue;
        }
        expect(err).toBeInstanceOf(DeltaportError);
        const message = (err as DeltaportError).message;
        expect(message).toMatch(/^export cancelled after (\d+) rows were committed; run it again to resume$/);
        const committed = Number(/after (\d+) rows/.exec(message)![1]);
        expect(committed).toBeGreaterThan(0);
        expect(sums).toContain(committed);
        expect(left.rows).toBe(committed);
        const resumed = await exportWay({ tablePath: COVID }, 'files', sink);
        expect(resumed.resumedAfterRows).toBe(committed);
        expect(resumed.rows + committed).toBe(sums.at(-1));
        expect(await duckdbFileCensus(file, 'covid')).toEqual([await deltaCensus(COVID)]);
      }
    },
  );

  it('a cancel before any commit leaves no file behind', async () => {
    const file = path.join(scratch.make(), 'nothing.duckdb');
    const controller = new AbortController();
    const rows = await rowsOf({ tablePath: tablePath('table-with-dv-small') }, 'files');
    // Cancelled as the sink takes the files, before its first transaction.
    const offered = { ...rows, ownFiles: () => rows.ownFiles!().finally(() => controller.abort()) };
    await expect(
      runExport(offered, duckdbSpec(file, { table: 't' }), { storage: localReads.storage, signal: controller.signal }),
    ).rejects.toThrow(/^export cancelled/);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.wal`)).toBe(false);
    expect(existsSync(`${file}.deltaport-parts`)).toBe(false);
  });

  it('a row the target refuses: one line, and the target as it was', async () => {
    const file = path.join(scratch.make(), 'refused.duckdb');
    await run('python3', [
      '-c',
      'import duckdb, sys; duckdb.connect(sys.argv[1]).execute(sys.argv[2])',
      file,
      'CREATE TABLE t (value INTEGER CHECK (value < 5))',
    ]);
    const err = await exportWay({ tablePath: tablePath('table-with-dv-small') }, 'files', duckdbSpec(file, { table: 't' })).then(
      () => null,
      (e: unknown) => e as DeltaportError,
    );
    expect(err?.code).toBe('SINK_WRITE');
    expect(err?.message).toMatch(/^rows 1-\d+ failed: .*CHECK constraint/);
    expect(err?.message).not.toContain('\n');
    expect(await duckdbFileCensus(file, 't')).toEqual([{ rows: 0, sha256: expect.any(String) }]);
    expect(existsSync(`${file}.deltaport-parts`)).toBe(false);
  });
});

describe('which way an export into DuckDB reads', () => {
  it('the files where DuckDB reads them as the reader does; the batches for a filter, nested columns, a change feed', async () => {
    const offer = async (source: ExportSource) => (await (await openRows(source, { openTable: openLocal })).ownFiles?.()) ?? null;
    expect(await offer({ tablePath: tablePath('table-with-dv-small') })).not.toBeNull();
    // The reader keeps only some rows of the files: DuckDB's view would read them all.
    expect(await offer({ tablePath: tablePath('table-with-dv-small'), filter: 'value > 2' })).toBeNull();
    // Nested values and variants are the reader's (JSON for variants).
    expect(await offer({ tablePath: tablePath('delta-1.2.1-only-struct-stats') })).toBeNull();
    expect(await offer({ tablePath: tablePath('spark-variant-checkpoint') })).toBeNull();
    // A change feed's rows are no snapshot's files.
    expect(await offer({ rows: 'changes', tablePath: tablePath('cdf-table'), from: 0, to: 3 })).toBeNull();
  });
});
