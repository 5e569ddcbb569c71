// Row groups of a data file that cannot hold a row the filter keeps, from the Parquet footer's column statistics
// (parquet-wasm 0.8 does not expose them; hyparquet reads the footer, ParquetHandle.footer, with the statistics in
// the units of shared/delta-values.ts). The same decision as for files (file-skipping.ts), with each row group's min,
// max and null count; partition columns keep the file's value. Strings use only the exact-order min_value/max_value
// (the legacy min/max compared bytes as signed) and, as in the log, their max only as a prefix; a float's max is not
// used (NaN is not in the statistics); decimals are not used (hyparquet gives them as doubles).
import type { ColumnChunk, FileMetaData } from 'hyparquet';
import { isDecimal, isStruct, type StructField } from '../../../shared/delta-schema.js';
import type { DeltaValue } from '../../../shared/delta-values.js';
import type { Expr } from '../../../shared/expression/index.js';
import { physicalName } from '../column-mapping.js';
import type { LiveFile } from '../snapshot.js';
import { fileRanges, hasBounds, possible, type ColumnRange, type TableColumns } from './file-skipping.js';

/** Indexes of the row groups of `file`, whose footer is `footer`, that the filter rules out. */
export function skippedRowGroups(footer: FileMetaData, file: LiveFile, expr: Expr, table: TableColumns): Set<number> {
  const partitionRanges = fileRanges(file, null, table);
  const skipped = new Set<number>();
  footer.row_groups.forEach((group, index) => {
    const chunks = new Map(group.columns.map((c) => [c.meta_data?.path_in_schema.join('\u0000'), c]));
    const ranges = (path: string[]): ColumnRange | null => {
      if (path.length === 1 && table.partitionColumns.has(path[0])) return partitionRanges(path);
      const fields = fieldsAt(table.fields, path);
      if (!fields) return null;
      const chunk = chunks.get(fields.map((f) => physicalName(f, table.mode)).join('\u0000'));
      return chunk ? chunkRange(chunk, fields[fields.length - 1], Number(group.num_rows)) : null;
    };
    if (!possible(expr, true, ranges)) skipped.add(index);
  });
  return skipped;
}

function fieldsAt(fields: StructField[], path: string[]): StructField[] | null {
  const out: StructField[] = [];
  let level = fields;
  for (const name of path) {
    const field = level.find((f) => f.name === name);
    if (!field) return null;
    out.push(field);
    level = isStruct(field.type) ? field.type.fields : [];
  }
  return out;
}

function chunkRange(chunk: ColumnChunk, field: StructField, rows: number): ColumnRange | null {
  const stats = chunk.meta_data?.statistics;
  if (!stats) return null;
  const nullCount = stats.null_count === undefined ? undefined : Number(stats.null_count);
  const nulls = nullCount === undefined ? 'unknown' : nullCount === 0 ? 'none' : nullCount === rows ? 'all' : 'some';
  const string = field.type === 'string';
  const [min, max] = string ? [stats.min_value, stats.max_value] : [stats.min_value ?? stats.min, stats.max_value ?? stats.max];
  return { min: bound(min, field, 'min'), max: bound(max, field, 'max'), maxIsPrefix: string, nulls };
}

function bound(raw: unknown, field: StructField, side: 'min' | 'max'): DeltaValue | undefined {
  const isNumber = typeof raw === 'number' || typeof raw === 'bigint';
  const type = field.type;
  // A decimal's Parquet statistics are unscaled and typed by its physical form: not used.
  if (typeof type !== 'string' || isDecimal(type) || !hasBounds(type)) return undefined;
  switch (type) {
    case 'byte':
    case 'short':
    case 'integer':
    case 'date':
      return isNumber ? Number(raw) : undefined;
    case 'long':
    case 'timestamp':
    case 'timestamp_ntz':
      return typeof raw === 'bigint' ? raw : typeof raw === 'number' && Number.isInteger(raw) ? BigInt(raw) : undefined;
    case 'float':
    case 'double':
      return side === 'min' && typeof raw === 'number' && !Number.isNaN(raw) ? raw : undefined;
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    default:
      return type satisfies never;
  }
}
