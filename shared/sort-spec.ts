// A preview's order: columns, each ascending or descending, nulls last either way (DuckDB's default) unless NULLS FIRST
// is asked. Parsed from "cases desc nulls first, state" as the CLI's --order-by and the app's sort field give it;
// checked against the schema where the table is known (by the app's sort field as the user types, and by
// electron/delta/top-rows.ts).
import { typeLabel, type StructField } from './delta-schema.js';
import { familyOf } from './expression/compare.js';

export interface SortKey {
  column: string;
  descending: boolean;
  /** Nulls before the values; absent or false: after them. */
  nullsFirst?: boolean;
}

const EXAMPLE = 'e.g. cases desc nulls last, state';

/** "a desc nulls first, b" -> keys; a problem message in plain words for anything else. */
export function parseOrderBy(text: string): { keys: SortKey[] } | { problem: string } {
  const keys: SortKey[] = [];
  const parts = text.split(',');
  for (const [i, part] of parts.entries()) {
    if (part.trim() === '') {
      const where = parts.length === 1 ? '' : i === parts.length - 1 ? ' after the last comma' : ` before comma ${i + 1}`;
      return { problem: `Order by: a column name is missing${where} (${EXAMPLE})` };
    }
    const m = /^\s*(?:"((?:[^"]|"")+)"|([^\s"]+))(?:\s+(asc|desc))?(?:\s+nulls\s+(first|last))?\s*$/i.exec(part);
    if (!m) {
      return {
        problem: `Order by: '${part.trim()}' is not a column name with an optional asc or desc and nulls first or last (${EXAMPLE})`,
      };
    }
    const column = m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2];
    keys.push({ column, descending: m[3]?.toLowerCase() === 'desc', ...(m[4]?.toLowerCase() === 'first' ? { nullsFirst: true } : {}) });
  }
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key.column)) return { problem: `Order by: column '${key.column}' is listed twice` };
    seen.add(key.column);
  }
  return { keys };
}

/** Why the keys cannot order rows of these columns (a column missing, or of a type with no order), or null. `at`
 * says where the columns are from ("in version 3"), for messages. */
export function sortKeysProblem(keys: SortKey[], fields: readonly StructField[], at?: string): string | null {
  for (const key of keys) {
    const field = fields.find((f) => f.name === key.column);
    if (!field) return `Order by: there is no column '${key.column}'${at ? ` ${at}` : ''}`;
    const family = familyOf(field.type);
    // A void column holds only nulls: there is nothing to order by.
    if (family === null || family === 'void') {
      return `Order by: column '${key.column}' holds ${typeLabel(field.type)} values, which have no order; choose a column of numbers, text, dates or true/false`;
    }
  }
  return null;
}

const keyWords = (k: SortKey) => `${k.descending ? ' desc' : ''}${k.nullsFirst ? ' nulls first' : ''}`;

/** "cases desc, state", for messages and the grid's note. */
export function orderByText(keys: SortKey[]): string {
  return keys.map((k) => `${k.column}${keyWords(k)}`).join(', ');
}

/** The keys as the order field takes them back: names that the parser would split or misread are quoted. */
export function orderByInput(keys: SortKey[]): string {
  const name = (column: string) => (/^[^\s",]+$/.test(column) ? column : `"${column.replaceAll('"', '""')}"`);
  return keys.map((k) => `${name(k.column)}${keyWords(k)}`).join(', ');
}
