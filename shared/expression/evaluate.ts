// A checked expression compiled to a function of a row, with SQL's three-valued logic: null is "unknown", a
// comparison with null is null, NOT null is null, false AND null is false, true OR null is true. A row is kept only
// where the filter is true. Where the values come from is the caller's: a data batch, or a file's partition values.
import type { DeltaValue } from '../delta-values.js';
import { comparator } from './compare.js';
import { typeOf, type Expr } from './expr.js';
import { likeMatcher } from './like.js';

export type RowValue = (row: number) => DeltaValue;
/** Reads a column (its path of logical names) for the rows of the current source. */
export type ColumnSource = (path: string[]) => RowValue;

export function compileExpr(expr: Expr, columns: ColumnSource): RowValue {
  switch (expr.op) {
    case 'literal': {
      const value = expr.value;
      return () => value;
    }
    case 'column':
      return columns(expr.path);
    case 'compare': {
      const [left, right] = [compileExpr(expr.left, columns), compileExpr(expr.right, columns)];
      const order = comparator(typeOf(expr.left), typeOf(expr.right));
      const test = COMPARISONS[expr.cmp];
      return (row) => {
        const a = left(row);
        if (a === null) return null;
        const b = right(row);
        return b === null ? null : test(order(a, b));
      };
    }
    case 'and':
    case 'or': {
      const args = expr.args.map((a) => compileExpr(a, columns));
      // One argument with the deciding value (false for AND, true for OR) decides, unknowns or not; else any unknown
      // leaves the whole unknown.
      const deciding = expr.op === 'or';
      return (row) => {
        let unknown = false;
        for (const arg of args) {
          const v = arg(row);
          if (v === deciding) return deciding;
          if (v === null) unknown = true;
        }
        return unknown ? null : !deciding;
      };
    }
    case 'not': {
      const arg = compileExpr(expr.arg, columns);
      return (row) => {
        const v = arg(row);
        return v === null ? null : !v;
      };
    }
    case 'in': {
      const arg = compileExpr(expr.arg, columns);
      const items = expr.list.map((item) => ({ value: compileExpr(item, columns), order: comparator(typeOf(expr.arg), typeOf(item)) }));
      return (row) => {
        const v = arg(row);
        if (v === null) return null;
        let unknown = false;
        for (const item of items) {
          const w = item.value(row);
          if (w === null) unknown = true;
          else if (item.order(v, w) === 0) return true;
        }
        return unknown ? null : false;
      };
    }
    case 'isNull': {
      const arg = compileExpr(expr.arg, columns);
      return (row) => arg(row) === null;
    }
    case 'like': {
      const arg = compileExpr(expr.arg, columns);
      const matches = likeMatcher(expr.pattern, expr.escape);
      return (row) => {
        const v = arg(row);
        return v === null ? null : matches(v as string);
      };
    }
  }
}

const COMPARISONS: Record<string, (order: number) => boolean> = {
  '=': (o) => o === 0,
  '<>': (o) => o !== 0,
  '<': (o) => o < 0,
  '<=': (o) => o <= 0,
  '>': (o) => o > 0,
  '>=': (o) => o >= 0,
};
