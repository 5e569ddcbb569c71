// A checked filter (shared/expression/) as the Spark SQL condition that keeps the same rows: names back-quoted as
// resolved, literals typed as the checker typed them (a string beside a date column is already a date), times in
// UTC (the job's session time zone), LIKE patterns re-escaped for Spark's own escape character. Spark's SQL logic
// is three-valued like Deltaport's, NaN equals NaN and sorts above every number in both, and strings compare by
// code point in both.
import { decimalParts, isDecimal, type DeltaType } from '../../shared/delta-schema.js';
import type { DeltaValue } from '../../shared/delta-values.js';
import type { Expr } from '../../shared/expression/index.js';
import { formatDays } from '../../shared/timestamp.js';
import { withScale } from '../values/decimal-text.js';
import { timestampFormatter } from '../values/time-text.js';

const MICROSECOND = 2;

export function sparkCondition(expr: Expr): string {
  switch (expr.op) {
    case 'literal':
      return literal(expr.type, expr.value);
    case 'column':
      return column(expr.path, expr.type);
    case 'compare':
      return `(${sparkCondition(expr.left)} ${expr.cmp} ${sparkCondition(expr.right)})`;
    case 'and':
    case 'or':
      return `(${expr.args.map(sparkCondition).join(` ${expr.op.toUpperCase()} `)})`;
    case 'not':
      return `(NOT ${sparkCondition(expr.arg)})`;
    case 'in':
      return `(${sparkCondition(expr.arg)} IN (${expr.list.map(sparkCondition).join(', ')}))`;
    case 'isNull':
      return `(${sparkCondition(expr.arg)} IS NULL)`;
    case 'like':
      return `(${sparkCondition(expr.arg)} LIKE ${stringLiteral(likePattern(expr.pattern, expr.escape))})`;
  }
}

function column(path: string[], type: DeltaType): string {
  const name = path.map((part) => `\`${part.replaceAll('`', '``')}\``).join('.');
  // Spark would compare a float with a long or a decimal as floats; Deltaport compares the float's exact value.
  return type === 'float' ? `CAST(${name} AS DOUBLE)` : name;
}

function literal(type: DeltaType, value: DeltaValue): string {
  if (value === null) return 'NULL';
  if (isDecimal(type)) return signed(`${withScale(value as bigint, decimalParts(type).scale)}BD`);
  if (typeof type !== 'string') return stringLiteral(String(value));
  switch (type) {
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    case 'long':
      return signed(`${String(value)}L`);
    case 'double': {
      const n = value as number;
      // JavaScript's shortest text reads back as the same double.
      return Number.isFinite(n) ? signed(`${String(n)}D`) : `CAST(${stringLiteral(String(n))} AS DOUBLE)`;
    }
    case 'date':
      return `DATE${stringLiteral(formatDays(value as number))}`;
    case 'timestamp':
      return `TIMESTAMP${stringLiteral(timestampFormatter(MICROSECOND, true)(value as bigint))}`;
    case 'timestamp_ntz':
      return `TIMESTAMP_NTZ${stringLiteral(timestampFormatter(MICROSECOND, false)(value as bigint))}`;
    // A string as it is; a filter's literals have none of the other types (its numbers are long, double or decimal).
    case 'byte':
    case 'short':
    case 'integer':
    case 'float':
    case 'string':
    case 'binary':
    case 'variant':
    case 'void':
      return stringLiteral(String(value));
    default:
      return type satisfies never;
  }
}

/** A negative literal in parentheses: -9223372036854775808L is a minus applied to a long that does not exist. */
function signed(text: string): string {
  if (!text.startsWith('-')) return text;
  return text === '-9223372036854775808L' ? '(-9223372036854775807L - 1L)' : `(${text})`;
}

/** Spark reads backslash escapes in a string literal. */
function stringLiteral(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** The pattern in Spark's LIKE, whose escape is always the backslash and may only precede %, _ or itself; Deltaport's
 * escape (any character, or none) makes any next character literal. */
function likePattern(pattern: string, escape: string | null): string {
  const chars = [...pattern];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (escape !== null && c === escape && i + 1 < chars.length) out += literalChar(chars[++i]);
    else if (c === '%' || c === '_') out += c;
    else out += literalChar(c);
  }
  return out;
}

function literalChar(c: string): string {
  return c === '%' || c === '_' || c === '\\' ? `\\${c}` : c;
}
