// Names go into SQL only quoted, so spaces, capitals, quotes and keywords work and nothing in a name can end the
// identifier early. Both SQLite and PostgreSQL quote with double quotes and escape one by doubling it.

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function quoteList(names: readonly string[]): string {
  return names.map(quoteIdent).join(', ');
}
