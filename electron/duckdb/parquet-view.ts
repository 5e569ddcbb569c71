// A snapshot as a DuckDB view over its own Parquet files (read_parquet), for the snapshots DuckDB reads exactly as our
// reader does: copying the reader's batches into DuckDB from JS cost 12-40x DuckDB's own scan (docs/benchmark.md).
// The reader still decides what a row is: its snapshot gives the files (after its partition and statistics
// skipping), their partition values (parsed by its rules, joined to each file as constants), the rows each deletion
// vector removes (by row position in the file), the physical name of each column (column mapping) and the type each
// column has now (older files' narrower types are cast). What DuckDB might read otherwise is left to the feed
// (arrow-to-duckdb.ts): tables in the cloud, nested columns and variants (the feed writes them as our JSON text),
// column mapping by field id. A column the files do not hold (added to the table after they were written) reads as
// nulls, as in the reader. The SQL engine views a whole snapshot; the DuckDB sink views a range of its files at a time
// (export/snapshot-rows.ts offers them, a transaction's rows are whole files).
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { decimalParts, isDecimal, type DeltaType } from '../../shared/delta-schema.js';
import { scannedSnapshot, type DeltaSource } from '../delta/source.js';
import type { LiveFile } from '../delta/snapshot.js';
import type { OwnFiles } from './own-files.js';
import { columnMappingMode, physicalName } from '../delta/column-mapping.js';
import { numRecordsOf } from '../delta/log/checkpoint-reader.js';
import { loadDeletionVector } from '../delta/scan/deletion-vectors.js';
import { parsePartitionValue } from '../delta/scan/partition-values.js';
import { decimalText } from '../delta/scan/variant.js';
import type { Scalar } from '../delta/engine/arrow-data.js';
import { isCloudLocation } from '../storage/storage.js';
import { duckType } from './arrow-to-duckdb.js';
import { quoteName, quoteText } from '../../shared/sql-quote.js';

/** The data files a source's rows come from, when DuckDB reads them as the reader does; else null. */
export function parquetFiles(source: DeltaSource): string[] | null {
  const snapshot = scannedSnapshot(source);
  if (columnMappingMode(snapshot.metadata) === 'id') return null;
  const partitions = new Set(snapshot.partitionColumns);
  const plain = source.fields.every((f) => partitions.has(f.name) || (typeof f.type === 'string' && f.type !== 'variant'));
  if (!plain) return null;
  const files = snapshot.files.map((f) => f.absolutePath);
  return files.every((f) => !isCloudLocation(f) && path.isAbsolute(f)) ? files : null;
}

/** The source's files as a DuckDB sink takes them (own-files.ts), when DuckDB reads them as the reader does and every
 * one is there (the reader says which version lost which file). */
export async function ownFiles(source: DeltaSource): Promise<OwnFiles | null> {
  const paths = parquetFiles(source);
  if (!paths) return null;
  const there = await Promise.all(
    paths.map((file) =>
      access(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!there.every(Boolean)) return null;
  const files = scannedSnapshot(source).files;
  return {
    bytes: files.map((f) => f.add.size),
    deletionVectors: files.map((f) => Boolean(f.add.deletionVector)),
    rows: async (connection) => {
      const rows: number[] = [];
      for (const file of files) rows.push(liveRowsOf(file) ?? (await countedRows(connection, file)));
      return rows;
    },
    view: async (connection, view, range, ordered) => {
      // Timestamps without a zone in the files (INT96, or not adjusted to UTC) and partition values become a
      // timestamp's instant in the session's zone: UTC, as the reader reads them (the SQL engine's sessions are too).
      await connection.run("SET TimeZone = 'UTC'");
      await createParquetView(connection, view, source, { files: range, ordered });
    },
  };
}

/** A file's rows counted by DuckDB (from its footer), less those its deletion vector removes. */
async function countedRows(connection: DuckDBConnection, file: LiveFile): Promise<number> {
  const reader = await connection.runAndReadAll(`SELECT count(*)::DOUBLE FROM read_parquet(${quoteText(file.absolutePath)})`);
  return liveOf(file, Number(reader.getRows()[0][0]));
}

/** Which of the snapshot's files a view reads, and how. */
export interface ViewOptions {
  /** The files from index `from` up to `to` of the snapshot's (all of them when absent). */
  files?: { from: number; to: number };
  /** The rows in the reader's order: each file's in the file's order, the files in theirs, provided the files all
   * have deletion vectors or all have none (the two kinds are read apart). */
  ordered?: boolean;
}

/** Makes `view` read the source's rows from its files (parquetFiles), its helper tables named from `view`. */
export async function createParquetView(
  connection: DuckDBConnection,
  view: string,
  source: DeltaSource,
  options: ViewOptions = {},
): Promise<void> {
  const snapshot = scannedSnapshot(source);
  const chosen = options.files ? snapshot.files.slice(options.files.from, options.files.to) : snapshot.files;
  const mode = columnMappingMode(snapshot.metadata);
  const partitions = new Set(snapshot.partitionColumns);
  const partitionFields = source.fields.filter((f) => partitions.has(f.name));
  const types = new Map(source.fields.map((f, c) => [f, duckType(source.schema.fields[c])]));
  const withDv = chosen.filter((f) => f.add.deletionVector);
  const branches = [chosen.filter((f) => !f.add.deletionVector), withDv].filter((b) => b.length > 0);

  // Each file's partition values, by its branch and its index in that branch's file list.
  const filesTable = quoteName(`${view} files`);
  if (partitionFields.length > 0) {
    const rows = branches.flatMap((files, b) =>
      files.map((file, i) => {
        const values = partitionFields.map((f) =>
          literal(parsePartitionValue(file.add.partitionValues[physicalName(f, mode)], f.type, f.name), f.type, types.get(f)!),
        );
        return `(${b}, ${i}, ${values.join(', ')})`;
      }),
    );
    const names = ['branch', 'file', ...partitionFields.map((_, c) => `p${c}`)];
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${filesTable} AS SELECT * FROM (VALUES ${rows.join(', ')}) v(${names.join(', ')})`);
  }
  // The rows each deletion vector removes, by the file's index in the last branch (the files with one).
  const deletedTable = quoteName(`${view} deleted`);
  if (withDv.length > 0) {
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${deletedTable} (file INTEGER, row BIGINT)`);
    const storage = source.table.engine.storage(snapshot.tableRoot);
    for (const [i, file] of withDv.entries()) {
      const deleted = await loadDeletionVector(storage, snapshot.tableRoot, file.add.deletionVector!);
      // One text of positions and DuckDB splits it: a row per position from JS would cost as much as the feed.
      await connection.run(`INSERT INTO ${deletedTable} SELECT $1::INTEGER, unnest(string_split($2::VARCHAR, ','))::BIGINT`, [
        i,
        deleted.join(','),
      ]);
    }
  }

  const selects: string[] = [];
  for (const [b, files] of branches.entries()) {
    const list = files.map((f) => quoteText(f.absolutePath)).join(', ');
    const dv = files === withDv;
    const numbered = dv || options.ordered === true;
    const scan = `read_parquet([${list}], union_by_name = true${numbered ? ', file_row_number = true' : ''})`;
    const held = await columnsOf(connection, scan);
    const columns = source.fields.map((f) => {
      const type = types.get(f)!;
      if (partitions.has(f.name)) return `f.p${partitionFields.indexOf(f)} AS ${quoteName(f.name)}`;
      const name = physicalName(f, mode);
      if (f.type === 'void' || !held.has(name.toLowerCase())) return `NULL::${type} AS ${quoteName(f.name)}`;
      return `CAST(d.${quoteName(name)} AS ${type}) AS ${quoteName(f.name)}`;
    });
    let sql = `SELECT ${columns.join(', ')} FROM ${scan} d`;
    if (partitionFields.length > 0) sql += ` JOIN ${filesTable} f ON f.branch = ${b} AND f.file = d.file_index`;
    if (dv) sql += ` ANTI JOIN ${deletedTable} x ON x.file = d.file_index AND x.row = d.file_row_number`;
    if (options.ordered) sql += ' ORDER BY d.file_index, d.file_row_number';
    selects.push(branches.length > 1 ? `(${sql})` : sql);
  }
  // A snapshot without files still has its columns.
  if (selects.length === 0) {
    const empty = source.fields.map((f) => `NULL::${types.get(f)!} AS ${quoteName(f.name)}`);
    selects.push(`SELECT ${empty.join(', ')} WHERE false`);
  }
  await connection.run(`CREATE OR REPLACE TEMP VIEW ${quoteName(view)} AS ${selects.join(' UNION ALL ')}`);
}

/** The column names the files of a scan hold between them, in lower case: DuckDB matches names regardless of case. */
async function columnsOf(connection: DuckDBConnection, scan: string): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${scan}`);
  return new Set(reader.getRows().map((row) => String(row[0]).toLowerCase()));
}

/** The rows a file holds once its deletion vector is applied, by the log's numRecords; null where the log has none. */
function liveRowsOf(file: LiveFile): number | null {
  const records = numRecordsOf(file.add.stats);
  return records === null ? null : liveOf(file, records);
}

/** The file's `records` less the rows its deletion vector removes. */
function liveOf(file: LiveFile, records: number): number {
  return records - (file.add.deletionVector?.cardinality ?? 0);
}

/** The rows a view of the whole source (createParquetView) reads: the log's numRecords less the deleted rows, or
 * DuckDB's count of the view where the log has none. */
export async function viewRows(connection: DuckDBConnection, view: string, source: DeltaSource): Promise<number> {
  let rows = 0;
  for (const file of scannedSnapshot(source).files) {
    const live = liveRowsOf(file);
    if (live === null) {
      const reader = await connection.runAndReadAll(`SELECT count(*)::DOUBLE FROM ${quoteName(view)}`);
      return Number(reader.getRows()[0][0]);
    }
    rows += live;
  }
  return rows;
}

/** A partition value (parsed by the reader's rules) as a DuckDB constant of the column's type. */
function literal(value: Scalar, type: DeltaType, duck: string): string {
  if (value === null) return `NULL::${duck}`;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Uint8Array) return `from_hex('${Buffer.from(value).toString('hex')}')`;
  if (typeof value === 'string') return `${quoteText(value)}::${duck}`;
  if (isDecimal(type)) return `CAST('${decimalText(BigInt(value), decimalParts(type).scale)}' AS ${duck})`;
  if (type === 'date') return `(DATE '1970-01-01' + ${value})`;
  if (type === 'timestamp' || type === 'timestamp_ntz') return `CAST(make_timestamp(${value}::BIGINT) AS ${duck})`;
  if (type !== 'float' && type !== 'double') return `CAST('${value}' AS ${duck})`;
  // A float is the double the text reads as, then rounded to single precision, as the reader stores it.
  const text = Object.is(value, -0) ? '-0.0' : String(value);
  return `CAST(CAST('${text}' AS DOUBLE) AS ${duck})`;
}
