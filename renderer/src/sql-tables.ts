// The SQL tab's other tables: names the user gives more tables by (`orders=/data/orders`), so that a query over the
// open table may join them. Kept per open table in the window's stored state, like its recent queries.
import { storedRecord, storeValue } from './stored.js';

const TABLES_KEY = 'deltaport.sqlTables';

export interface NamedTable {
  /** The name queries use; `name@3` is its version 3. */
  name: string;
  /** Where the table is: a folder or a cloud location, as the Open field takes it. */
  path: string;
}

/** A name DuckDB takes unquoted and our `name@version` rewriting finds (electron/sql/table-names.ts). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `name=location` as a table, or why not, in one line. `taken`: the names already in use (`t` among them). */
export function parseNamedTable(text: string, taken: string[]): NamedTable | string {
  const at = text.indexOf('=');
  if (at < 0) return 'Give the table as name=location, e.g. orders=/data/orders.';
  const name = text.slice(0, at).trim();
  const path = text.slice(at + 1).trim();
  if (!NAME.test(name)) return `'${name}' cannot name a table: use letters, digits and _, not starting with a digit.`;
  // DuckDB's names ignore case.
  if (taken.some((n) => n.toLowerCase() === name.toLowerCase())) return `The name '${name}' is already in use.`;
  if (path === '') return `Give the location of '${name}' after the =.`;
  return { name, path };
}

export function namedTables(tablePath: string): NamedTable[] {
  const list = storedRecord(TABLES_KEY)[tablePath];
  return Array.isArray(list) ? list.filter(isNamedTable) : [];
}

export function storeNamedTables(tablePath: string, tables: NamedTable[]): void {
  storeValue(TABLES_KEY, JSON.stringify({ ...storedRecord(TABLES_KEY), [tablePath]: tables }));
}

function isNamedTable(x: unknown): x is NamedTable {
  const t = x as Partial<NamedTable> | null;
  return t !== null && typeof t === 'object' && typeof t.name === 'string' && NAME.test(t.name) && typeof t.path === 'string';
}
