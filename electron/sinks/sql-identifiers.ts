// Names go into SQL only quoted, so spaces, capitals, quotes and keywords work and nothing in a name can end the
// identifier early. SQLite and PostgreSQL quote with double quotes, MySQL and MariaDB with backticks (double quotes
// are strings there unless ANSI_QUOTES is set); either way the quote inside a name is escaped by doubling it.
import type { Dialect } from './sql-types.js';

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function quoteList(names: readonly string[]): string {
  return names.map(quoteIdent).join(', ');
}

/** A name quoted the way the dialect's server reads it. */
export function quoteIn(dialect: Dialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replaceAll('`', '``')}\`` : quoteIdent(name);
}

export function quoteListIn(dialect: Dialect, names: readonly string[]): string {
  return names.map((n) => quoteIn(dialect, n)).join(', ');
}
