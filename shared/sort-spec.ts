// A preview's order: columns, each ascending or descending, nulls last either way (DuckDB's default). Parsed from
// "cases desc, state" as the CLI's --order-by and the app's sort field give it; checked against the schema where the
// table is known (by the app's sort field as the user types, and by electron/delta/top-rows.ts).
import { typeLabel, type StructField } from './delta-schema.js';
import { familyOf } from './expression/compare.js';

export interface SortKey {
  column: string;
  descending: boolean;
}

/** "a desc, b" -> keys; a problem message for anything else. */
export function parseOrderBy(text: string): { keys: SortKey[] } | { problem: string } {
  const keys: SortKey[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(?:"((?:[^"]|"")+)"|([^\s"]+))(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!m) return { problem: `order-by: expected 'column [asc|desc]', got '${part.trim()}'` };
    keys.push({ column: m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2], descending: m[3]?.toLowerCase() === 'desc' });
  }
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key.column)) return { problem: `order-by: column '${key.column}' is listed more than once` };
    seen.add(key.column);
  }
  return { keys };
}

/** Why the keys cannot order rows of these columns (a column missing, or of a type with no order), or null. `at`
 * says where the columns are from ("in version 3"), for messages. */
export function sortKeysProblem(keys: SortKey[], fields: readonly StructField[], at?: string): string | null {
  for (const key of keys) {
    const field = fields.find((f) => f.name === key.column);
    if (!field) return `order-by: no column '${key.column}'${at ? ` ${at}` : ''}`;
    const family = familyOf(field.type);
    // A void column holds only nulls: there is nothing to order by.
    if (family === null || family === 'void') return `order-by: column '${key.column}' of type ${typeLabel(field.type)} cannot be sorted`;
  }
  return null;
}

/** "cases desc, state", for messages and the grid's note. */
export function orderByText(keys: SortKey[]): string {
  return keys.map((k) => `${k.column}${k.descending ? ' desc' : ''}`).join(', ');
}

/** The keys as the order field takes them back: names that the parser would split or misread are quoted. */
export function orderByInput(keys: SortKey[]): string {
  const name = (column: string) => (/^[^\s",]+$/.test(column) ? column : `"${column.replaceAll('"', '""')}"`);
  return keys.map((k) => `${name(k.column)}${k.descending ? ' desc' : ''}`).join(', ');
}
