// What every catalog (Unity Catalog, AWS Glue) answers, behind one interface: its catalogs, schemas and tables, a
// page at a time, and a table's name resolved to where its files are and the engine context that reads them (with
// the catalog's credentials, where it vends any). The CLI and the app list and open catalog tables only through it.
import { fileURLToPath } from 'node:url';
import { isCatalogName, parseCatalogName, type CatalogKind } from '../../shared/catalog-name.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import { canonicalLocation, locationName } from '../storage/storage.js';

export interface CatalogPage<T> {
  items: T[];
  /** Where the next page starts, for the next call; null on the last page. */
  nextPage: string | null;
}

export interface CatalogTableEntry {
  name: string;
  /** The table's format as the catalog says it ("delta", "parquet", "csv", or "view"), lower case. */
  format: string;
  /** Where its files are, when the catalog says. */
  location: string | null;
}

/** A catalog table ready to be read. */
export interface ResolvedTable {
  /** catalog.schema.table (Unity Catalog), database.table (Glue). */
  fullName: string;
  /** The table's folder, in the spelling the reader opens (a local path or a cloud URL). */
  location: string;
  /** Reads the table's files: the catalog's credentials for its folder, the engine it was resolved with for the rest. */
  engine: EngineContext;
}

export interface TableRef {
  catalog: string | null;
  schema: string;
  table: string;
}

export interface Catalog {
  readonly kind: CatalogKind;
  /** Unity Catalog's catalogs; Glue has one per account and region, and lists none. */
  listCatalogs(page?: string): Promise<CatalogPage<string>>;
  /** Schemas (Glue: databases); `catalog` is null for Glue. */
  listSchemas(catalog: string | null, page?: string): Promise<CatalogPage<string>>;
  listTables(catalog: string | null, schema: string, page?: string): Promise<CatalogPage<CatalogTableEntry>>;
  /** The table's location and the engine that reads it; one line for a table that is not Delta or may not be read. */
  resolveTable(ref: TableRef, base: EngineContext): Promise<ResolvedTable>;
}

/** The format that makes a catalog table one Deltaport opens. */
export const DELTA_FORMAT = 'delta';

/** A catalog's storage location as the reader spells it: a file: URI becomes a local path, a cloud URL its canonical
 * form (s3a:// as s3://). */
export function readerLocation(storageLocation: string): string {
  return /^file:/i.test(storageLocation) ? fileURLToPath(storageLocation) : canonicalLocation(storageLocation);
}

/** The table's own name: a catalog table's, or its folder's. */
export function tableNameOf(tablePath: string): string {
  const name = isCatalogName(tablePath) ? parseCatalogName(tablePath) : null;
  return name ? name.table : locationName(canonicalLocation(tablePath));
}
