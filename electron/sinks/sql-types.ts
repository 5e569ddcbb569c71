// Delta types to SQL column types, for every dialect, and the check that an existing table can take an export.
// SQLite has storage classes rather than types: what matters there is the declared type's affinity, which decides
// whether a value is converted on the way in (a decimal's exact text must not meet NUMERIC affinity).
import { decimalParts, isDecimal, type DecimalName, type PrimitiveName, type StructField } from '../../shared/delta-schema.js';
import { duckdbAccepts, duckdbType } from './duckdb/duckdb-types.js';
import { quoteIn, quoteListIn } from './sql-identifiers.js';

export type Dialect = 'sqlite' | 'postgres' | 'mysql' | 'duckdb';

/** How a column's values are written, decided by its Delta type. */
export type ValueKind =
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'real'
  | 'double'
  | 'decimal'
  | 'string'
  | 'binary'
  | 'date'
  | 'timestamp'
  | 'timestamp_ntz'
  | 'boolean'
  | 'json';

const PRIMITIVE_KINDS: Record<PrimitiveName, ValueKind> = {
  byte: 'smallint',
  short: 'smallint',
  integer: 'integer',
  long: 'bigint',
  float: 'real',
  double: 'double',
  string: 'string',
  binary: 'binary',
  date: 'date',
  timestamp: 'timestamp',
  timestamp_ntz: 'timestamp_ntz',
  boolean: 'boolean',
  // Variant values arrive from the reader as JSON text.
  variant: 'json',
  // A void column holds only nulls.
  void: 'string',
};

export function valueKind(field: StructField): ValueKind {
  const t = field.type;
  if (typeof t !== 'string') return 'json';
  return isDecimal(t) ? 'decimal' : PRIMITIVE_KINDS[t];
}

const PG_TYPES: Record<Exclude<ValueKind, 'decimal'>, string> = {
  smallint: 'smallint',
  integer: 'integer',
  bigint: 'bigint',
  real: 'real',
  double: 'double precision',
  string: 'text',
  binary: 'bytea',
  date: 'date',
  timestamp: 'timestamp with time zone',
  timestamp_ntz: 'timestamp without time zone',
  boolean: 'boolean',
  json: 'jsonb',
};

const SQLITE_TYPES: Record<ValueKind, string> = {
  smallint: 'INTEGER',
  integer: 'INTEGER',
  bigint: 'INTEGER',
  real: 'REAL',
  double: 'REAL',
  decimal: 'TEXT',
  string: 'TEXT',
  binary: 'BLOB',
  date: 'TEXT',
  timestamp: 'TEXT',
  timestamp_ntz: 'TEXT',
  boolean: 'INTEGER',
  json: 'TEXT',
};

/** MySQL and MariaDB: DATETIME(6) rather than TIMESTAMP, whose range ends in 2038; a `timestamp` is stored as its UTC
 * time. JSON is MariaDB's alias of LONGTEXT with a validity check, MySQL's own binary type. */
const MYSQL_TYPES: Record<Exclude<ValueKind, 'decimal'>, string> = {
  smallint: 'smallint',
  integer: 'int',
  bigint: 'bigint',
  real: 'float',
  double: 'double',
  string: 'longtext',
  binary: 'longblob',
  date: 'date',
  timestamp: 'datetime(6)',
  timestamp_ntz: 'datetime(6)',
  boolean: 'boolean',
  json: 'json',
};

/** A key column must have a length MySQL can index: 255 characters (1,020 bytes of utf8mb4) leaves room for three
 * such columns in InnoDB's 3,072-byte key. */
const MYSQL_KEY_TYPES: Partial<Record<ValueKind, string>> = { string: 'varchar(255)', binary: 'varbinary(255)' };

export function sqlType(field: StructField, dialect: Dialect, key = false): string {
  if (dialect === 'duckdb') return duckdbType(field.type);
  const kind = valueKind(field);
  if (dialect === 'sqlite') return SQLITE_TYPES[kind];
  if (kind === 'decimal') {
    const { precision, scale } = decimalParts(field.type as DecimalName);
    return `${dialect === 'mysql' ? 'decimal' : 'numeric'}(${precision},${scale})`;
  }
  if (dialect === 'mysql') return (key ? MYSQL_KEY_TYPES[kind] : undefined) ?? MYSQL_TYPES[kind];
  return PG_TYPES[kind];
}

/** MySQL: text compares byte for byte (utf8mb4_bin), as Delta's values do; the default collations would take 'a' and
 * 'A' for the same upsert key. */
const MYSQL_TABLE_OPTIONS = ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';

/** CREATE TABLE for the exported columns; key columns become the primary key (what ON CONFLICT needs). */
export function createTableSql(dialect: Dialect, table: string, fields: StructField[], keys: string[] = [], ifNotExists = false): string {
  const columns = fields.map(
    (f) => `${quoteIn(dialect, f.name)} ${sqlType(f, dialect, keys.includes(f.name))}${f.nullable ? '' : ' NOT NULL'}`,
  );
  if (keys.length > 0) columns.push(`PRIMARY KEY (${quoteListIn(dialect, keys)})`);
  const options = dialect === 'mysql' ? MYSQL_TABLE_OPTIONS : '';
  return `CREATE TABLE ${ifNotExists ? 'IF NOT EXISTS ' : ''}${quoteIn(dialect, table)} (${columns.join(', ')})${options}`;
}

/** A column of an existing target table, as its catalog describes it. */
export interface ExistingColumn {
  name: string;
  /** PostgreSQL: format_type() text, e.g. "numeric(10,2)"; MySQL: information_schema's COLUMN_TYPE, e.g.
   * "bigint(20)"; SQLite: the declared type; DuckDB: duckdb_columns()'s. */
  type: string;
  notNull: boolean;
  hasDefault: boolean;
}

/** Why an existing table cannot take the export, or null when it can. */
export function incompatibility(dialect: Dialect, table: string, fields: StructField[], existing: ExistingColumn[]): string | null {
  const problems: string[] = [];
  const matched = new Set<ExistingColumn>();
  for (const field of fields) {
    const column = findColumn(dialect, existing, field.name);
    if (!column) {
      problems.push(`has no column "${field.name}"`);
      continue;
    }
    matched.add(column);
    if (!accepts(dialect, field, column.type)) {
      problems.push(
        `column "${column.name}" is ${column.type || 'untyped'}, which cannot hold ${typeLabelOf(field)} (needs ${sqlType(field, dialect)})`,
      );
    }
  }
  for (const column of existing) {
    if (!matched.has(column) && column.notNull && !column.hasDefault) {
      problems.push(`column "${column.name}" is NOT NULL without a default and is not exported`);
    }
  }
  return problems.length === 0 ? null : `existing table ${quoteIn(dialect, table)} ${problems.join('; ')}`;
}

function findColumn(dialect: Dialect, existing: ExistingColumn[], name: string): ExistingColumn | undefined {
  // SQLite, MySQL and DuckDB compare column names without regard to case; PostgreSQL's quoted names are exact.
  return (
    existing.find((c) => c.name === name) ??
    (dialect !== 'postgres' ? existing.find((c) => c.name.toLowerCase() === name.toLowerCase()) : undefined)
  );
}

function typeLabelOf(field: StructField): string {
  return typeof field.type === 'string' ? field.type : field.type.type;
}

/** Target PostgreSQL types that hold every value of a kind without loss. */
const PG_ACCEPTS: Record<Exclude<ValueKind, 'decimal'>, RegExp> = {
  smallint: /^(smallint|integer|bigint|numeric(\(.*\))?|real|double precision)$/,
  integer: /^(integer|bigint|numeric(\(.*\))?|double precision)$/,
  bigint: /^(bigint|numeric)$/,
  real: /^(real|double precision)$/,
  double: /^double precision$/,
  string: /^(text|character varying)$/,
  binary: /^bytea$/,
  date: /^(date|timestamp (with|without) time zone)$/,
  timestamp: /^timestamp with time zone$/,
  timestamp_ntz: /^timestamp without time zone$/,
  boolean: /^boolean$/,
  json: /^(jsonb|json|text)$/,
};

/** Target MySQL types (COLUMN_TYPE without an integer's display width) that hold every value of a kind without loss;
 * an unsigned column cannot take negative values. */
const MYSQL_ACCEPTS: Record<Exclude<ValueKind, 'decimal'>, RegExp> = {
  smallint: /^(smallint|mediumint|int|bigint|float|double)$/,
  integer: /^(int|bigint|double)$/,
  bigint: /^bigint$/,
  real: /^(float|double)$/,
  double: /^double$/,
  string: /^(longtext|mediumtext|text|varchar\(\d+\))$/,
  binary: /^(longblob|mediumblob|blob|varbinary\(\d+\))$/,
  date: /^(date|datetime(\(\d\))?)$/,
  timestamp: /^datetime\(6\)$/,
  timestamp_ntz: /^datetime\(6\)$/,
  boolean: /^(tinyint|smallint|int|bigint)$/,
  json: /^(json|longtext|mediumtext|text)$/,
};

function accepts(dialect: Dialect, field: StructField, targetType: string): boolean {
  const kind = valueKind(field);
  if (dialect === 'sqlite') return sqliteAccepts(kind, sqliteAffinity(targetType));
  if (dialect === 'duckdb') return duckdbAccepts(field.type, targetType);
  const t =
    dialect === 'mysql'
      ? targetType.toLowerCase().replace(/^(tinyint|smallint|mediumint|int|bigint)\(\d+\)/, '$1')
      : targetType.toLowerCase();
  if (kind !== 'decimal') return (dialect === 'mysql' ? MYSQL_ACCEPTS : PG_ACCEPTS)[kind].test(t);
  if (t === 'numeric') return true;
  const m = /^(?:numeric|decimal)\((\d+),(\d+)\)$/.exec(t);
  if (!m) return false;
  const need = decimalParts(field.type as DecimalName);
  const [precision, scale] = [Number(m[1]), Number(m[2])];
  return scale >= need.scale && precision - scale >= need.precision - need.scale;
}

type Affinity = 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC';

/** SQLite's rules (datatype3.html, 3.1) for the affinity of a declared type. */
export function sqliteAffinity(declared: string): Affinity {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'TEXT';
  if (t.includes('BLOB') || t === '') return 'BLOB';
  if (/REAL|FLOA|DOUB/.test(t)) return 'REAL';
  return 'NUMERIC';
}

function sqliteAccepts(kind: ValueKind, affinity: Affinity): boolean {
  switch (kind) {
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'boolean':
      return affinity === 'INTEGER' || affinity === 'NUMERIC';
    case 'real':
    case 'double':
      return affinity === 'REAL' || affinity === 'NUMERIC';
    case 'binary':
      return affinity === 'BLOB';
    // Text must stay text: NUMERIC or INTEGER affinity would turn "0012" or "1.50" into numbers.
    case 'decimal':
    case 'string':
    case 'date':
    case 'timestamp':
    case 'timestamp_ntz':
    case 'json':
      return affinity === 'TEXT' || affinity === 'BLOB';
    default:
      return kind satisfies never;
  }
}
