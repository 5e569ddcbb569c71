// How each exported column travels through a Spark job so that what lands equals what Deltaport's own sinks write
// (column-values.ts, the text formats): Spark's writers bind values by Spark type, which for times, decimals,
// nested values and NaN in SQLite is not what Deltaport writes, so those columns are turned into the same text
// first; a CSV or JSON Lines column becomes its finished field text (spark-text-columns.ts). Columns travel under
// positional names (c1, c2, ...): Spark's JDBC writer quotes a name without escaping the quotes inside it, and reads
// dots in a name as field access.
import type { StructField } from '../../shared/delta-schema.js';
import type { SinkKind } from '../../shared/sink-spec.js';
import { quoteName } from '../../shared/sql-quote.js';
import { quoteIn } from '../sinks/sql-identifiers.js';
import { valueKind } from '../sinks/sql-types.js';
import { pyString } from './python-text.js';
import { textFieldExpression } from './spark-text-columns.js';

/** One column of the DataFrame that is written: a Python expression over the positional column. */
export interface StagedColumn {
  /** PySpark expression, aliased. */
  expression: string;
  /** The staging table's column for it (SQL sinks). */
  field: StructField;
}

export interface ColumnPlan {
  staged: StagedColumn[];
  /** The SQL that reads the column's final value back from the staging table (SQL sinks). */
  select: string;
}

/** The positional name of column i (0-based). */
export function position(i: number): string {
  return `c${i + 1}`;
}

/** Names defined by the script body (python/spark_job.py) for the text forms of dates and times. */
const TIMESTAMP_UTC = 'TIMESTAMP_UTC';
const TIMESTAMP_NTZ = 'TIMESTAMP_NTZ';
const MYSQL_DATETIME = 'MYSQL_DATETIME';
const DATE = 'DATE';
const JSON_OPTIONS = 'JSON_OPTIONS';

export function columnPlan(field: StructField, i: number, sink: SinkKind): ColumnPlan {
  const name = position(i);
  const col = `F.col(${pyString(name)})`;
  // Parquet keeps the real names; staging tables and text lines are built from positional columns.
  const alias = sink === 'parquet' ? field.name : name;
  const one = (expression: string): ColumnPlan => ({
    staged: [{ expression: `${expression}.alias(${pyString(alias)})`, field: { name, type: field.type, nullable: field.nullable } }],
    select: sink === 'mysql' ? quoteIn('mysql', name) : quoteName(name),
  });
  if (sink === 'parquet') return one(col);
  if (sink === 'csv' || sink === 'jsonl') return one(textFieldExpression(field, col, sink));
  const kind = valueKind(field);
  switch (kind) {
    case 'date':
      return one(`F.date_format(${col}, ${DATE})`);
    // MySQL's DATETIME(6) takes neither the T nor the Z: Deltaport stores a timestamp's UTC time there, in UTC sessions.
    case 'timestamp':
      return one(`F.date_format(${col}, ${sink === 'mysql' ? MYSQL_DATETIME : TIMESTAMP_UTC})`);
    case 'timestamp_ntz':
      return one(`F.date_format(${col}, ${sink === 'mysql' ? MYSQL_DATETIME : TIMESTAMP_NTZ})`);
    case 'json':
      return one(typeof field.type === 'string' ? `F.to_json(${col})` : `F.to_json(${col}, ${JSON_OPTIONS})`);
    case 'decimal':
      // Exact text with every digit of the scale; PostgreSQL takes the decimal itself as numeric.
      return one(sink === 'postgres' ? col : `${col}.cast("string")`);
    case 'string':
      // A void column is all nulls, typed as text.
      return one(`${col}.cast("string")`);
    case 'binary':
      return one(col);
    case 'boolean':
      return one(sink === 'sqlite' ? `${col}.cast("int")` : col);
    case 'real':
    case 'double':
      return sink === 'sqlite' ? sqliteFloat(field, name, col) : one(col);
    case 'smallint':
    case 'integer':
    case 'bigint':
      return one(col);
    default:
      return kind satisfies never;
  }
}

/** SQLite stores a bound NaN as NULL; Deltaport writes the text 'NaN', so a second column carries it. */
function sqliteFloat(field: StructField, name: string, col: string): ColumnPlan {
  const nan = `${name}_nan`;
  return {
    staged: [
      { expression: `${col}.alias(${pyString(name)})`, field: { name, type: field.type, nullable: field.nullable } },
      {
        expression: `F.when(F.isnan(${col}), F.lit("NaN")).alias(${pyString(nan)})`,
        field: { name: nan, type: 'string', nullable: true },
      },
    ],
    select: `COALESCE(${quoteName(nan)}, ${quoteName(name)})`,
  };
}
