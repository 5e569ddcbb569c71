// Expected rows of a read, from DuckDB: read_parquet over each data file the log lists (delta-oracle.ts's replay),
// with partition values from the log and physical names mapped to logical ones from the log's schema, then DuckDB's
// own WHERE. Deleted rows are out of its reach: a table with deletion vectors needs them applied by the caller.
import { deletedRows } from './delta-oracle-deletion-vectors.js';
import { dataFile, liveFiles, oracleSnapshot, type Json } from './delta-oracle.js';
import { duck, sqlName, sqlText } from './duckdb.js';

const DUCK_TYPES: Record<string, string> = {
  string: 'VARCHAR',
  integer: 'INTEGER',
  long: 'BIGINT',
  short: 'SMALLINT',
  byte: 'TINYINT',
  boolean: 'BOOLEAN',
  double: 'DOUBLE',
  float: 'FLOAT',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  timestamp_ntz: 'TIMESTAMP',
};

/** A DuckDB SELECT of one data file's rows as the table's logical columns: physical names mapped, partition values
 * from the action, columns the file lacks as NULL; `extra` names file columns to keep besides (a change file's
 * _change_type). */
export async function fileSelect(root: string, metaData: Json, action: Json, extra: string[] = []): Promise<string> {
  const mapped = (metaData.configuration?.['delta.columnMapping.mode'] ?? 'none') !== 'none';
  const fields = (JSON.parse(metaData.schemaString as string) as Json).fields as Json[];
  const partitions = new Set(metaData.partitionColumns as string[]);
  const file = sqlText(dataFile(root, action));
  const present = new Set((await duck(`DESCRIBE SELECT * FROM read_parquet(${file})`)).map((r) => r.column_name as string));
  const select = fields.map((f) => {
    const physical = mapped ? (f.metadata['delta.columnMapping.physicalName'] as string) : (f.name as string);
    if (partitions.has(f.name as string)) {
      const raw = (action.partitionValues as Record<string, string | null>)[physical];
      const value = raw === null || raw === undefined || raw === '' ? 'NULL' : sqlText(raw);
      return `CAST(${value} AS ${DUCK_TYPES[f.type as string]}) AS ${sqlName(f.name as string)}`;
    }
    return present.has(physical) ? `${sqlName(physical)} AS ${sqlName(f.name as string)}` : `NULL AS ${sqlName(f.name as string)}`;
  });
  return `SELECT ${[...select, ...extra.map(sqlName)].join(', ')} FROM read_parquet(${file})`;
}

/** Rows of a query as `columns` cast to VARCHAR ('NULL' for null) joined by '|'. */
export async function duckCells(from: string, columns: string[], where = 'true'): Promise<string[]> {
  const cells = columns.map((name) => `coalesce(CAST(${sqlName(name)} AS VARCHAR), 'NULL')`).join(` || '|' || `);
  return (await duck(`SELECT ${cells} AS row FROM (${from}) WHERE ${where}`)).map((r) => r.row as string);
}

/** Each kept row as its `columns` cast to VARCHAR ('NULL' for null) joined by '|', sorted; also the files listed. */
export async function duckdbRows(
  root: string,
  version: number,
  where: string,
  columns: string[],
  fromCheckpoint?: number,
): Promise<{ rows: string[]; files: Json[] }> {
  const snapshot = await oracleSnapshot(root, version, fromCheckpoint);
  const files = [...snapshot.adds.values()];
  const parts = await Promise.all(files.map((add) => fileSelect(root, snapshot.metaData, add)));
  const rows = await duckCells(parts.join(' UNION ALL BY NAME '), columns, where);
  return { rows: rows.sort(), files };
}

/** One column's live values at a version, file by file in the log's order and row by row in the file's, minus the rows
 * each file's deletion vector deletes (a column stored in the data files, not a partition column). */
export async function liveColumnValues(root: string, column: string, version?: number): Promise<unknown[]> {
  const values: unknown[] = [];
  for (const add of await liveFiles(root, version)) {
    const rows = await duck(
      `SELECT ${sqlName(column)} AS v FROM read_parquet(${sqlText(dataFile(root, add))}, file_row_number = true) ORDER BY file_row_number`,
    );
    const deleted = add.deletionVector ? new Set(await deletedRows(root, add.deletionVector)) : new Set();
    rows.forEach((r, i) => {
      if (!deleted.has(i)) values.push(r.v);
    });
  }
  return values;
}
