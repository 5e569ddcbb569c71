// A preview's order: columns, each ascending or descending, nulls last either way (DuckDB's default). Parsed from
// "cases desc, state" as the CLI's --order-by and the app's sort field give it; checked against the schema where the
// table is known (electron/delta/top-rows.ts).

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

/** "cases desc, state", for messages and the grid's note. */
export function orderByText(keys: SortKey[]): string {
  return keys.map((k) => `${k.column}${k.descending ? ' desc' : ''}`).join(', ');
}
