// A table named in a catalog instead of by its folder: `uc://catalog.schema.table` (Unity Catalog) and
// `glue://database/table` (AWS Glue). The app's saved catalog connections add the connection's name in front
// (`uc://<connection>/main.sales.orders`, `glue://<connection>/sales/orders`); the CLI names none, its catalog being
// the one its flags describe. Shared so that the app and the CLI tell a catalog name from a location the same way.

export type CatalogKind = 'unity' | 'glue';

export interface CatalogTableName {
  kind: CatalogKind;
  /** The saved catalog connection the name goes through (the app), or null (the CLI's flags). */
  connection: string | null;
  /** Unity Catalog's catalog; Glue has none (null). */
  catalog: string | null;
  /** Unity Catalog's schema, Glue's database. */
  schema: string;
  table: string;
}

const SCHEMES: Record<string, CatalogKind> = { uc: 'unity', glue: 'glue' };
const NAME = /^([a-z]+):\/\/(.*)$/is;

/** Whether the text is meant as a catalog name (its scheme is uc:// or glue://), right or not. */
export function isCatalogName(text: string): boolean {
  const scheme = NAME.exec(text.trim())?.[1]?.toLowerCase();
  return scheme !== undefined && scheme in SCHEMES;
}

/** The parts of a catalog name, or null for anything that is not one; throws a one-line message for one that
 * cannot be right. */
export function parseCatalogName(text: string): CatalogTableName | null {
  const parts = NAME.exec(text.trim());
  const kind = parts ? SCHEMES[parts[1].toLowerCase()] : undefined;
  if (!parts || !kind) return null;
  const segments = parts[2].split('/');
  if (segments.some((s) => s === '')) throw new Error(`'${text}' has an empty part: ${catalogNameForms(kind)}`);
  if (kind === 'unity') {
    if (segments.length > 2) throw new Error(`'${text}' is not a Unity Catalog table name: ${catalogNameForms(kind)}`);
    const dotted = segments[segments.length - 1].split('.');
    if (dotted.length !== 3 || dotted.some((p) => p === ''))
      throw new Error(`'${text}' is not a Unity Catalog table name: ${catalogNameForms(kind)}`);
    return { kind, connection: segments.length === 2 ? segments[0] : null, catalog: dotted[0], schema: dotted[1], table: dotted[2] };
  }
  if (segments.length < 2 || segments.length > 3) throw new Error(`'${text}' is not a Glue table name: ${catalogNameForms(kind)}`);
  const [schema, table] = segments.slice(-2);
  return { kind, connection: segments.length === 3 ? segments[0] : null, catalog: null, schema, table };
}

/** A place in a catalog short of a table, or a table: `uc://`, `uc://main`, `uc://main.sales`, `glue://`,
 * `glue://sales` (with the connection's name first where `withConnection`). `parts` are the catalog, schema and
 * table (Unity Catalog) or database and table (Glue), as many as are given. */
export interface CatalogPath {
  kind: CatalogKind;
  connection: string | null;
  parts: string[];
}

export function parseCatalogPath(text: string, withConnection: boolean): CatalogPath | null {
  const parts = NAME.exec(text.trim());
  const kind = parts ? SCHEMES[parts[1].toLowerCase()] : undefined;
  if (!parts || !kind) return null;
  let body = parts[2].replace(/\/+$/, '');
  let connection: string | null = null;
  if (withConnection) {
    const slash = body.indexOf('/');
    connection = slash < 0 ? body : body.slice(0, slash);
    body = slash < 0 ? '' : body.slice(slash + 1);
    if (connection === '') throw new Error(`'${text}' names no connection`);
  }
  const names = body === '' ? [] : body.split(kind === 'unity' ? '.' : '/');
  if (names.some((n) => n === '' || n.includes('/'))) throw new Error(`'${text}' has an empty part: ${catalogNameForms(kind)}`);
  if (names.length > (kind === 'unity' ? 3 : 2)) throw new Error(`'${text}' has too many parts: ${catalogNameForms(kind)}`);
  return { kind, connection, parts: names };
}

/** The one spelling of a catalog name. */
export function catalogNameText(name: CatalogTableName): string {
  const connection = name.connection === null ? '' : `${name.connection}/`;
  return name.kind === 'unity'
    ? `uc://${connection}${name.catalog}.${name.schema}.${name.table}`
    : `glue://${connection}${name.schema}/${name.table}`;
}

/** The table's name in its catalog: catalog.schema.table, or database.table for Glue. */
export function catalogFullName(name: Pick<CatalogTableName, 'catalog' | 'schema' | 'table'>): string {
  return [name.catalog, name.schema, name.table].filter((p) => p !== null).join('.');
}

function catalogNameForms(kind: CatalogKind): string {
  return kind === 'unity' ? 'write uc://catalog.schema.table' : 'write glue://database/table';
}
