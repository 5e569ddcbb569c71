// Unity Catalog's REST API 2.1, as the open-source server and Databricks workspaces both serve it: catalogs, schemas
// and tables listed a page at a time, a table found by its full name (`GET /tables/{full_name}`), and its files read
// with the short-lived credentials of `POST /temporary-table-credentials` (operation READ), asked for again before
// they expire (vended-engine.ts). A table in a local folder (the open-source server's file: locations) is read
// directly: there is nothing to vend for it.
import { DeltaportError } from '../../shared/errors.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import type { StoreOptions } from '../storage/store-options.js';
import { DELTA_FORMAT, readerLocation } from './catalog.js';
import type { Catalog, CatalogPage, CatalogTableEntry, ResolvedTable, TableRef } from './catalog.js';
import { vendedEngine, type VendedCredential } from './vended-engine.js';

export interface UnityCatalogOptions {
  /** The server or workspace URL (https://dbc-….cloud.databricks.com, http://localhost:8080), with or without the
   * API's path. */
  endpoint: string;
  /** A personal access token; none for an open server. */
  token: string | null;
}

const API_PATH = '/api/2.1/unity-catalog';
/** Names per page asked for; the server may send fewer. */
const PAGE_SIZE = 1000;
const TIMEOUT_MS = 30_000;

interface TableInfo {
  name: string;
  table_id?: string;
  table_type?: string;
  data_source_format?: string;
  storage_location?: string;
}

interface TemporaryCredentials {
  aws_temp_credentials?: { access_key_id: string; secret_access_key: string; session_token?: string };
  azure_user_delegation_sas?: { sas_token: string };
  gcp_oauth_token?: { oauth_token: string };
  expiration_time?: number;
}

export class UnityCatalog implements Catalog {
  readonly kind = 'unity' as const;
  private readonly base: string;

  constructor(private readonly options: UnityCatalogOptions) {
    const endpoint = options.endpoint.replace(/\/+$/, '');
    this.base = endpoint.endsWith(API_PATH) ? endpoint : `${endpoint}${API_PATH}`;
  }

  async listCatalogs(page?: string): Promise<CatalogPage<string>> {
    const body = await this.get<{ catalogs?: { name: string }[]; next_page_token?: string }>(
      '/catalogs',
      { page_token: page },
      'list catalogs',
    );
    return { items: (body.catalogs ?? []).map((c) => c.name), nextPage: body.next_page_token || null };
  }

  async listSchemas(catalog: string | null, page?: string): Promise<CatalogPage<string>> {
    const body = await this.get<{ schemas?: { name: string }[]; next_page_token?: string }>(
      '/schemas',
      { catalog_name: catalog ?? '', page_token: page },
      `list the schemas of ${catalog}`,
    );
    return { items: (body.schemas ?? []).map((s) => s.name), nextPage: body.next_page_token || null };
  }

  async listTables(catalog: string | null, schema: string, page?: string): Promise<CatalogPage<CatalogTableEntry>> {
    const body = await this.get<{ tables?: TableInfo[]; next_page_token?: string }>(
      '/tables',
      { catalog_name: catalog ?? '', schema_name: schema, page_token: page },
      `list the tables of ${catalog}.${schema}`,
    );
    return {
      items: (body.tables ?? []).map((t) => ({ name: t.name, format: formatOf(t), location: t.storage_location ?? null })),
      nextPage: body.next_page_token || null,
    };
  }

  async resolveTable(ref: TableRef, base: EngineContext): Promise<ResolvedTable> {
    const fullName = `${ref.catalog}.${ref.schema}.${ref.table}`;
    const info = await this.get<TableInfo>(`/tables/${encodeURIComponent(fullName)}`, {}, `find the table ${fullName}`, fullName);
    const format = formatOf(info);
    if (format !== DELTA_FORMAT)
      throw new DeltaportError('NOT_A_DELTA_TABLE', `${fullName} is a ${format} table in Unity Catalog, not a Delta table`);
    if (!info.storage_location) throw new DeltaportError('NOT_A_DELTA_TABLE', `Unity Catalog gives no storage location for ${fullName}`);
    const location = readerLocation(info.storage_location);
    const tableId = info.table_id;
    if (!tableId) throw new DeltaportError('INTERNAL', `Unity Catalog gave no table id for ${fullName}`);
    const engine = vendedEngine(location, base, () => this.readCredential(tableId, fullName));
    return { fullName, location, engine };
  }

  /** The catalog's READ credential for a table, as the storage options of its store. */
  private async readCredential(tableId: string, fullName: string): Promise<VendedCredential> {
    const body = await this.call<TemporaryCredentials>(
      'POST',
      '/temporary-table-credentials',
      { table_id: tableId, operation: 'READ' },
      `get credentials to read ${fullName}`,
      fullName,
    );
    const expiresAtMs = typeof body.expiration_time === 'number' ? body.expiration_time : null;
    return { options: credentialOptions(body, fullName), expiresAtMs };
  }

  private get<T>(path: string, query: Record<string, string | undefined>, what: string, table?: string): Promise<T> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
    if (path === '/catalogs' || path === '/schemas' || path === '/tables') params.set('max_results', String(PAGE_SIZE));
    const search = params.size > 0 ? `?${params}` : '';
    return this.call<T>('GET', `${path}${search}`, undefined, what, table);
  }

  private async call<T>(method: string, path: string, body: object | undefined, what: string, table?: string): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (body) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new DeltaportError(
        'STORAGE',
        `cannot ${what}: Unity Catalog at ${this.options.endpoint} cannot be reached (${cause?.code ?? cause?.message ?? (err as Error).message})`,
      );
    }
    const text = await response.text();
    if (!response.ok) throw this.failure(response.status, text, what, table);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new DeltaportError(
        'STORAGE',
        `cannot ${what}: Unity Catalog at ${this.options.endpoint} did not answer with JSON (${text.slice(0, 80)})`,
      );
    }
  }

  private failure(status: number, text: string, what: string, table: string | undefined): DeltaportError {
    let said: { error_code?: string; message?: string } = {};
    try {
      said = JSON.parse(text) as typeof said;
    } catch {
      // Not the API's error body (a proxy's page): the status says enough.
    }
    const words = firstLine(said.message ?? said.error_code ?? `HTTP ${status}`);
    if (status === 401)
      return new DeltaportError(
        'FORBIDDEN',
        this.options.token
          ? `cannot ${what}: Unity Catalog at ${this.options.endpoint} did not accept the token (${words})`
          : `cannot ${what}: Unity Catalog at ${this.options.endpoint} needs a token (set DATABRICKS_TOKEN or UC_TOKEN)`,
      );
    if (status === 403)
      return new DeltaportError(
        'FORBIDDEN',
        table
          ? `the token may not read ${table}: it needs the SELECT permission on the table (with USE CATALOG and USE SCHEMA on its catalog and schema) (${words})`
          : `cannot ${what}: the token lacks the permission (${words})`,
      );
    if (status === 404)
      return table
        ? new DeltaportError('TABLE_NOT_FOUND', `Unity Catalog has no table ${table} (${words})`)
        : new DeltaportError('NOT_FOUND', `cannot ${what}: Unity Catalog has no such catalog or schema (${words})`);
    return new DeltaportError('STORAGE', `cannot ${what}: Unity Catalog answered ${status} (${words})`);
  }
}

/** A table's format in lower case; a view has none. */
function formatOf(info: TableInfo): string {
  if (info.data_source_format) return info.data_source_format.toLowerCase();
  return info.table_type?.toLowerCase() === 'view' ? 'view' : 'unknown';
}

/** A vended credential as the options of the store it is for. */
function credentialOptions(body: TemporaryCredentials, fullName: string): StoreOptions {
  if (body.aws_temp_credentials) {
    const aws = body.aws_temp_credentials;
    const options: StoreOptions = { access_key_id: aws.access_key_id, secret_access_key: aws.secret_access_key };
    if (aws.session_token) options.session_token = aws.session_token;
    return options;
  }
  if (body.azure_user_delegation_sas) return { sas_token: body.azure_user_delegation_sas.sas_token };
  throw new DeltaportError(
    'STORAGE',
    `Unity Catalog vended a credential for ${fullName} that Deltaport cannot use yet (${body.gcp_oauth_token ? 'a Google Cloud OAuth token' : 'none it knows'})`,
  );
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim().slice(0, 300);
}
