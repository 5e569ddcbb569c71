// Names and texts as DuckDB reads them in SQL: quoted, the quote inside doubled, so nothing in them ends them early.

/** A name quoted for DuckDB. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A text as a DuckDB string literal. */
export function quoteText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
