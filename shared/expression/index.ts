// The filter language in one call: text -> checked expression against a schema, or the first problem with the
// offset it concerns (so a form can mark it as the user types).
import type { StructType } from '../delta-schema.js';
import { checkFilter } from './check.js';
import type { Expr } from './expr.js';
import { parseFilter } from './parser.js';
import { FilterError } from './syntax.js';

export type { Expr } from './expr.js';
export { filterColumns, typeOf } from './expr.js';
export { FilterError } from './syntax.js';

export type CompiledFilter = { ok: true; expr: Expr } | { ok: false; message: string; position: number };

export function compileFilter(text: string, schema: StructType): CompiledFilter {
  try {
    return { ok: true, expr: checkFilter(parseFilter(text), schema) };
  } catch (err) {
    if (err instanceof FilterError) return { ok: false, message: err.message, position: err.pos };
    throw err;
  }
}

/** Syntax only, for validation before the table's schema is known. */
export function filterSyntaxProblem(text: string): string | null {
  try {
    parseFilter(text);
    return null;
  } catch (err) {
    if (err instanceof FilterError) return err.message;
    throw err;
  }
}
