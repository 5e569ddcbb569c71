// Names go into SQL only quoted, so spaces, capitals, quotes and keywords work and nothing in a name can end the
// identifier early. SQLite and PostgreSQL quote with double quotes, MySQL and MariaDB with backticks (double quotes
// are strings there unless ANSI_QUOTES is set); either way the quote inside a name is escaped by doubling it.
import { quoteName } from '../../shared/sql-quote.js';
import type { Dialect } from './sql-types.js';

export function quoteList(names: readonly string[]): string {
  return names.map(quoteName).join(', ');
}

/** A name quoted the way the dialect's server reads it. */
export function quoteIn(dialect: Dialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replaceAll('`', '``')}\`` : quoteName(name);
}

export function quoteListIn(dialect: Dialect, names: readonly string[]): string {
  return names.map((n) => quoteIn(dialect, n)).join(', ');
}
