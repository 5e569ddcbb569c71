// A filter checked against a schema: columns resolved to their schema names and types, literals parsed into the unit
// of their type (shared/delta-values.ts), BETWEEN, NOT IN and IS NOT NULL spelled with the core operators. Plain
// data, so it crosses to a scan thread as it is.
import type { DeltaType } from '../delta-schema.js';
import type { DeltaValue } from '../delta-values.js';
import type { CompareOp } from './syntax.js';

export type Expr =
  | { op: 'literal'; type: DeltaType; value: DeltaValue }
  /** Logical names from the top-level column down into structs. */
  | { op: 'column'; path: string[]; type: DeltaType }
  | { op: 'compare'; cmp: CompareOp; left: Expr; right: Expr }
  | { op: 'and' | 'or'; args: Expr[] }
  | { op: 'not'; arg: Expr }
  | { op: 'in'; arg: Expr; list: Expr[] }
  | { op: 'isNull'; arg: Expr }
  | { op: 'like'; arg: Expr; pattern: string; escape: string | null };

export function typeOf(expr: Expr): DeltaType {
  return expr.op === 'literal' || expr.op === 'column' ? expr.type : 'boolean';
}

/** Top-level column names the filter reads, in first-use order. */
export function filterColumns(expr: Expr): string[] {
  const names = new Set<string>();
  const visit = (e: Expr): void => {
    switch (e.op) {
      case 'literal':
        return;
      case 'column':
        names.add(e.path[0]);
        return;
      case 'compare':
        visit(e.left);
        visit(e.right);
        return;
      case 'and':
      case 'or':
        e.args.forEach(visit);
        return;
      case 'in':
        visit(e.arg);
        e.list.forEach(visit);
        return;
      default:
        visit(e.arg);
    }
  };
  visit(expr);
  return [...names];
}
