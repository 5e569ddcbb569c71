// A snapshot as a DuckDB view over its own Parquet files (read_parquet), for the snapshots DuckDB reads exactly as our
// reader does: copying the reader's batches into DuckDB from JS cost 12-40x DuckDB's own scan (docs/benchmark.md).
// The reader still decides what a row is: its snapshot gives the files (after its partition and statistics
// skipping), their partition values (parsed by its rules, joined to each file as constants), the rows each deletion
// vector removes (by row position in the file), the physical name of each column (column mapping) and the type each
// column has now (older files' narrower types are cast). What DuckDB might read otherwise is left to the feed
// (arrow-to-duckdb.ts): tables in the cloud, nested columns and variants (the feed writes them as our JSON text),
// column mapping by field id, and any view DuckDB cannot bind (a column no file holds yet).
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { decimalParts, isDecimal, type DeltaType } from '../../shared/delta-schema.js';
import type { DeltaSource } from '../delta/source.js';
import { columnMappingMode, physicalName } from '../delta/column-mapping.js';
import { numRecordsOf } from '../delta/log/checkpoint-reader.js';
import { loadDeletionVector } from '../delta/scan/deletion-vectors.js';
import { parsePartitionValue } from '../delta/scan/partition-values.js';
import { decimalText } from '../delta/scan/variant.js';
import type { Scalar } from '../delta/engine/arrow-data.js';
import { isCloudLocation } from '../storage/storage.js';
import { duckType } from '../duckdb/arrow-to-duckdb.js';
import { quoteName, quoteText } from '../../shared/sql-quote.js';

/** The data files a source's rows come from, when DuckDB reads them as the reader does; else null. */
export function parquetFiles(source: DeltaSource): string[] | null {
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  if (columnMappingMode(snapshot.metadata) === 'id') return null;
  const partitions = new Set(snapshot.partitionColumns);
  const plain = source.fields.every((f) => partitions.has(f.name) || (typeof f.type === 'string' && f.type !== 'variant'));
  if (!plain) return null;
  const files = snapshot.files.map((f) => f.absolutePath);
  return files.every((f) => !isCloudLocation(f) && path.isAbsolute(f)) ? files : null;
}

/** Makes `view` read the source's rows from its files (parquetFiles), its helper tables named from `view`, and
 * returns the snapshot's rows that the view reads. */
export async function createParquetView(connection: DuckDBConnection, view: string, source: DeltaSource): Promise<number> {
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  const mode = columnMappingMode(snapshot.metadata);
  const partitions = new Set(snapshot.partitionColumns);
  const partitionFields = source.fields.filter((f) => partitions.has(f.name));
  const types = new Map(source.fields.map((f, c) => [f, duckType(source.schema.fields[c])]));
  const withDv = snapshot.files.filter((f) => f.add.deletionVector);
  const branches = [snapshot.files.filter((f) => !f.add.deletionVector), withDv].filter((b) => b.length > 0);

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

  const selects = branches.map((files, b) => {
    const columns = source.fields.map((f) => {
      const type = types.get(f)!;
      if (partitions.has(f.name)) return `f.p${partitionFields.indexOf(f)} AS ${quoteName(f.name)}`;
      if (f.type === 'void') return `NULL::${type} AS ${quoteName(f.name)}`;
      return `CAST(d.${quoteName(physicalName(f, mode))} AS ${type}) AS ${quoteName(f.name)}`;
    });
    const list = files.map((f) => quoteText(f.absolutePath)).join(', ');
    const dv = files === withDv;
    let sql = `SELECT ${columns.join(', ')} FROM read_parquet([${list}], union_by_name = true${dv ? ', file_row_number = true' : ''}) d`;
    if (partitionFields.length > 0) sql += ` JOIN ${filesTable} f ON f.branch = ${b} AND f.file = d.file_index`;
    if (dv) sql += ` ANTI JOIN ${deletedTable} x ON x.file = d.file_index AND x.row = d.file_row_number`;
    return sql;
  });
  // A snapshot without files still has its columns.
  if (selects.length === 0) {
    const empty = source.fields.map((f) => `NULL::${types.get(f)!} AS ${quoteName(f.name)}`);
    selects.push(`SELECT ${empty.join(', ')} WHERE false`);
  }
  await connection.run(`CREATE OR REPLACE TEMP VIEW ${quoteName(view)} AS ${selects.join(' UNION ALL ')}`);
  return liveRows(source, connection, view);
}

/** The rows the view reads: the log's numRecords less the deleted rows, or DuckDB's count where the log has none. */
async function liveRows(source: DeltaSource, connection: DuckDBConnection, view: string): Promise<number> {
  const snapshot = source.filter?.snapshot ?? source.snapshot;
  let rows = 0;
  for (const file of snapshot.files) {
    const records = numRecordsOf(file.add.stats);
    if (records === null) {
      const reader = await connection.runAndReadAll(`SELECT count(*)::DOUBLE FROM ${quoteName(view)}`);
      return Number(reader.getRows()[0][0]);
    }
    rows += records - (file.add.deletionVector?.cardinality ?? 0);
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
