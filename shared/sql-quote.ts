// Names and texts as standard SQL reads them (SQLite, PostgreSQL and DuckDB alike): quoted, the quote inside doubled,
// so that nothing in them ends them early. MySQL's backticks are the sinks' own (sinks/sql-identifiers.ts).

/** A name in double quotes. */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A text as a string literal. */
export function quoteText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
