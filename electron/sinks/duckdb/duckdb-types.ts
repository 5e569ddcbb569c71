// Delta types to DuckDB column types, kept native: decimals with their precision and scale, timestamps with and
// without a time zone, structs, arrays and maps as DuckDB's STRUCT, LIST and MAP; a variant is JSON (DuckDB has no
// variant of Delta's kind), and a void column, which holds only nulls, VARCHAR. Also whether an existing column
// holds every value of a Delta type.
import { decimalParts, isDecimal, type DeltaType, type PrimitiveName } from '../../../shared/delta-schema.js';
import { quoteName } from '../../../shared/sql-quote.js';

const PRIMITIVES: Record<PrimitiveName, string> = {
  byte: 'TINYINT',
  short: 'SMALLINT',
  integer: 'INTEGER',
  long: 'BIGINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  string: 'VARCHAR',
  binary: 'BLOB',
  date: 'DATE',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  timestamp_ntz: 'TIMESTAMP',
  boolean: 'BOOLEAN',
  variant: 'JSON',
  void: 'VARCHAR',
};

export function duckdbType(t: DeltaType): string {
  if (isDecimal(t)) {
    const { precision, scale } = decimalParts(t);
    return `DECIMAL(${precision},${scale})`;
  }
  if (typeof t === 'string') return PRIMITIVES[t];
  switch (t.type) {
    case 'struct':
      return `STRUCT(${t.fields.map((f) => `${quoteName(f.name)} ${duckdbType(f.type)}`).join(', ')})`;
    case 'array':
      return `${duckdbType(t.elementType)}[]`;
    case 'map':
      return `MAP(${duckdbType(t.keyType)}, ${duckdbType(t.valueType)})`;
    default:
      return t satisfies never;
  }
}

/** Integer types, narrowest first: each holds every value of those before it. */
const INTEGERS = ['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT'];

/** Whether a column of DuckDB type `target` (as duckdb_columns() spells it) holds every value of Delta type `t`. */
export function duckdbAccepts(t: DeltaType, target: string): boolean {
  if (sameDuckdbType(t, target)) return true;
  const want = spelling(duckdbType(t));
  const have = spelling(target);
  const [wantInt, haveInt] = [INTEGERS.indexOf(want), INTEGERS.indexOf(have)];
  if (wantInt >= 0) return haveInt >= wantInt || (have === 'DOUBLE' && wantInt <= 2);
  if (want === 'FLOAT') return have === 'DOUBLE';
  // JSON is text: a VARCHAR column takes it as it is.
  if (want === 'JSON') return have === 'VARCHAR';
  if (isDecimal(t)) {
    const m = /^DECIMAL\((\d+),(\d+)\)$/.exec(have);
    const need = decimalParts(t);
    return m !== null && Number(m[2]) >= need.scale && Number(m[1]) - Number(m[2]) >= need.precision - need.scale;
  }
  return false;
}

/** A type's text without what DuckDB spells in more than one way (quotes around names, spaces, case). */
function spelling(type: string): string {
  return type
    .toUpperCase()
    .replaceAll('"', '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .replace(/^TIMESTAMPTZ$/, 'TIMESTAMP WITH TIME ZONE');
}

/** Whether a column of DuckDB type `target` is of exactly the type an export creates for `t`. */
export function sameDuckdbType(t: DeltaType, target: string): boolean {
  return spelling(duckdbType(t)) === spelling(target);
}
