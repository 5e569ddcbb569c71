// Whether a data file can hold a row the filter keeps, from what the log says about the file without reading it:
// partition values (exact) and statistics (bounds). "Can" is decided for true and for false separately, since NOT
// turns one into the other; a comparison with null is neither, so a file whose column is all null matches no
// comparison on it. Unknown always means "can": a file is skipped only when no row of it can be kept.
//
// Bounds are used where they are safe: a string's max may be a truncated prefix of the real max (Delta truncates
// string statistics), so it bounds only values that do not start with it; timestamp statistics are truncated to
// milliseconds, so a max covers the 999 microseconds after it; a float's max is not used (NaN sorts above every
// number and is not in the statistics); longs and decimals beyond a double's exact range are not used (JSON
// numbers lose digits there).
import { decimalParts, isDecimal, isStruct, type DeltaType, type PrimitiveName, type StructField } from '../../../shared/delta-schema.js';
import { parseDeltaText, parseTimestampMicros, type DeltaValue } from '../../../shared/delta-values.js';
import { comparator } from '../../../shared/expression/compare.js';
import { typeOf, type Expr } from '../../../shared/expression/index.js';
import { likePrefix } from '../../../shared/expression/like.js';
import type { CompareOp } from '../../../shared/expression/syntax.js';
import { physicalName, type ColumnMappingMode } from '../column-mapping.js';
import { parsePartitionValue } from '../scan/partition-values.js';
import type { LiveFile } from '../snapshot.js';
import type { FileStats, StatsTree } from './file-stats.js';

export interface ColumnRange {
  /** Lower bound of the non-null values. */
  min?: DeltaValue;
  /** Upper bound of the non-null values, unless maxIsPrefix. */
  max?: DeltaValue;
  /** max is a string that may be a truncated prefix of the real max. */
  maxIsPrefix?: boolean;
  nulls: 'none' | 'some' | 'all' | 'unknown';
}

/** What is known of a column (by its path of logical names) in one file; null = nothing. */
export type RangeSource = (path: string[]) => ColumnRange | null;

export interface TableColumns {
  fields: StructField[];
  partitionColumns: Set<string>;
  mode: ColumnMappingMode;
}

export function fileMayMatch(expr: Expr, file: LiveFile, stats: FileStats | null, table: TableColumns): boolean {
  return possible(expr, true, fileRanges(file, stats, table));
}

export function fileRanges(file: LiveFile, stats: FileStats | null, table: TableColumns): RangeSource {
  return (path) => {
    const fields: StructField[] = [];
    let level = table.fields;
    for (const name of path) {
      const field = level.find((f) => f.name === name);
      if (!field) return null;
      fields.push(field);
      level = isStruct(field.type) ? field.type.fields : [];
    }
    const leaf = fields[fields.length - 1];
    if (path.length === 1 && table.partitionColumns.has(path[0])) {
      const value = parsePartitionValue(file.add.partitionValues[physicalName(leaf, table.mode)], leaf.type, leaf.name);
      return { min: value ?? undefined, max: value ?? undefined, nulls: value === null ? 'all' : 'none' };
    }
    if (!stats) return null;
    const physical = fields.map((f) => physicalName(f, table.mode));
    const nullCount = lookup(stats.nullCount, physical);
    const nulls = typeof nullCount !== 'number' ? 'unknown' : nullCount === 0 ? 'none' : nullCount === stats.numRecords ? 'all' : 'some';
    return {
      min: bound(lookup(stats.minValues, physical), leaf.type, 'min'),
      max: bound(lookup(stats.maxValues, physical), leaf.type, 'max'),
      maxIsPrefix: leaf.type === 'string',
      nulls,
    };
  };
}

function lookup(tree: StatsTree | undefined, path: string[]): unknown {
  let at: unknown = tree;
  for (const name of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as StatsTree)[name];
  }
  return at;
}

const EXACT_DOUBLE = 2 ** 53;

/** The types whose statistics bound nothing a filter compares: binary and variant values are not compared, a void
 * column is all nulls. */
const UNBOUNDED: ReadonlySet<PrimitiveName> = new Set(['binary', 'variant', 'void']);
export type BoundedName = Exclude<PrimitiveName, 'binary' | 'variant' | 'void'>;

/** Whether statistics of a column of this type can bound a filter's values (file and row-group skipping alike). */
export function hasBounds(type: PrimitiveName): type is BoundedName {
  return !UNBOUNDED.has(type);
}

/** A statistic in the units of shared/delta-values.ts, or undefined where it cannot be trusted as a bound. */
function bound(raw: unknown, type: DeltaType, side: 'min' | 'max'): DeltaValue | undefined {
  if (raw === null || raw === undefined || typeof type !== 'string') return undefined;
  if (isDecimal(type)) {
    if (typeof raw !== 'number') return undefined;
    const scaled = raw * 10 ** decimalParts(type).scale;
    if (!Number.isFinite(scaled) || Math.abs(scaled) >= EXACT_DOUBLE / 4) return undefined;
    // One unit of slack for the rounding of the JSON number.
    return BigInt(Math.round(scaled)) + (side === 'max' ? 1n : -1n);
  }
  if (!hasBounds(type)) return undefined;
  switch (type) {
    case 'byte':
    case 'short':
    case 'integer':
      return typeof raw === 'number' && Number.isInteger(raw) ? raw : undefined;
    case 'long':
      return typeof raw === 'number' && Number.isSafeInteger(raw) ? BigInt(raw) : undefined;
    case 'float':
    case 'double':
      return side === 'min' && typeof raw === 'number' ? raw : undefined;
    case 'string':
      return typeof raw === 'string' ? raw : undefined;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'date':
      return typeof raw === 'string' ? (parseDeltaText(raw, 'date') ?? undefined) : undefined;
    case 'timestamp':
    case 'timestamp_ntz': {
      const micros = typeof raw === 'string' ? parseTimestampMicros(raw) : null;
      if (micros === null) return undefined;
      return side === 'max' ? micros + 999n : micros;
    }
    default:
      return type satisfies never;
  }
}

const NEGATED: Record<CompareOp, CompareOp> = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const FLIPPED: Record<CompareOp, CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Whether some row of the file can make `expr` evaluate to `want`. */
export function possible(expr: Expr, want: boolean, ranges: RangeSource): boolean {
  switch (expr.op) {
    case 'literal':
      return expr.value === want;
    case 'column': {
      const r = ranges(expr.path);
      if (!r) return true;
      if (r.nulls === 'all') return false;
      return want ? r.max === undefined || r.max === true : r.min === undefined || r.min === false;
    }
    case 'not':
      return possible(expr.arg, !want, ranges);
    case 'and':
      return want ? expr.args.every((a) => possible(a, true, ranges)) : expr.args.some((a) => possible(a, false, ranges));
    case 'or':
      return want ? expr.args.some((a) => possible(a, true, ranges)) : expr.args.every((a) => possible(a, false, ranges));
    case 'isNull': {
      const r = expr.arg.op === 'column' ? ranges(expr.arg.path) : null;
      if (!r || r.nulls === 'unknown') return true;
      return want ? r.nulls !== 'none' : r.nulls !== 'all';
    }
    case 'compare': {
      const [column, literal, op] =
        expr.left.op === 'column' && expr.right.op === 'literal'
          ? [expr.left, expr.right, expr.cmp]
          : expr.right.op === 'column' && expr.left.op === 'literal'
            ? [expr.right, expr.left, FLIPPED[expr.cmp]]
            : [null, null, expr.cmp];
      if (!column || !literal) return true;
      if (literal.value === null) return false;
      const r = ranges(column.path);
      if (!r) return true;
      if (r.nulls === 'all') return false;
      return rangeAllows(r, want ? op : NEGATED[op], literal.value, comparator(column.type, literal.type));
    }
    case 'in': {
      if (expr.arg.op !== 'column') return true;
      const r = ranges(expr.arg.path);
      if (r?.nulls === 'all') return false;
      const items = expr.list.filter((item) => item.op === 'literal');
      // x NOT IN (..., NULL) is never true.
      if (!want) return !expr.list.some((item) => item.op === 'literal' && item.value === null);
      if (!r || items.length < expr.list.length) return true;
      const order = (item: Expr) => comparator(typeOf(expr.arg), typeOf(item));
      return items.some((item) => item.op === 'literal' && item.value !== null && rangeAllows(r, '=', item.value, order(item)));
    }
    case 'like': {
      if (expr.arg.op !== 'column') return true;
      const r = ranges(expr.arg.path);
      if (!r) return true;
      if (r.nulls === 'all') return false;
      const prefix = likePrefix(expr.pattern, expr.escape);
      if (!want || prefix === '') return true;
      const order = comparator('string', 'string');
      // Every match starts with the prefix: it is at least the prefix, and below anything past all strings that do.
      const belowAll = typeof r.min === 'string' && order(r.min, prefix) > 0 && !r.min.startsWith(prefix);
      return rangeAllows(r, '>=', prefix, order) && !belowAll;
    }
  }
}

/** Whether a value x in the range can satisfy `x op v`. */
function rangeAllows(r: ColumnRange, op: CompareOp, v: DeltaValue, order: (a: DeltaValue, b: DeltaValue) => number): boolean {
  const minBelow = (strict: boolean) => r.min === undefined || (strict ? order(r.min, v) < 0 : order(r.min, v) <= 0);
  const maxAbove = (strict: boolean) => {
    if (r.max === undefined) return true;
    if (r.maxIsPrefix) return !(order(v, r.max) > 0 && !(v as string).startsWith(r.max as string));
    return strict ? order(r.max, v) > 0 : order(r.max, v) >= 0;
  };
  switch (op) {
    case '=':
      return minBelow(false) && maxAbove(false);
    case '<>':
      return !(r.min !== undefined && r.max !== undefined && !r.maxIsPrefix && order(r.min, v) === 0 && order(r.max, v) === 0);
    case '<':
      return minBelow(true);
    case '<=':
      return minBelow(false);
    case '>':
      return maxAbove(true);
    case '>=':
      return maxAbove(false);
  }
}
