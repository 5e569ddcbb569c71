// AWS Glue's Data Catalog: databases (the schemas) and their tables, through AWS's own client and so the AWS
// credential chain (environment variables, ~/.aws/config and ~/.aws/credentials with profiles, SSO, the instance's
// role). A table is Delta when its parameters say so (table_type or spark.sql.sources.provider, as Spark, Athena and
// AWS's crawlers register Delta tables), and is read at its StorageDescriptor.Location with the engine it is opened
// with: Glue vends no credentials, the reader's own chain reads the bucket.
import {
  GetDatabasesCommand,
  GetTableCommand,
  GetTablesCommand,
  GlueClient,
  type GlueClientConfig,
  type Table,
} from '@aws-sdk/client-glue';
import { DeltaportError } from '../../shared/errors.js';
import type { EngineContext } from '../delta/engine/engine-context.js';
import { DELTA_FORMAT, readerLocation } from './catalog.js';
import type { Catalog, CatalogPage, CatalogTableEntry, ResolvedTable, TableRef } from './catalog.js';

export interface GlueOptions {
  region?: string;
  profile?: string;
  /** Another service URL (an emulator). */
  endpoint?: string;
}

/** What AWS says when it does not take the credentials (an error's name; the HTTP status says it where the answer
 * is not the service's own, as from a proxy or an emulator). */
const REFUSED = ['AccessDeniedException', 'UnrecognizedClientException', 'InvalidSignatureException', 'CredentialsProviderError'];

/** Glue's largest page of tables or databases. */
const PAGE_SIZE = 100;

export class GlueCatalog implements Catalog {
  readonly kind = 'glue' as const;
  private readonly client: GlueClient;

  constructor(options: GlueOptions) {
    const config: GlueClientConfig = { region: options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION };
    if (options.profile) config.profile = options.profile;
    if (options.endpoint) config.endpoint = options.endpoint;
    this.client = new GlueClient(config);
  }

  async listCatalogs(): Promise<CatalogPage<string>> {
    return { items: [], nextPage: null };
  }

  async listSchemas(_catalog: string | null, page?: string): Promise<CatalogPage<string>> {
    const answer = await this.send('list the databases', () =>
      this.client.send(new GetDatabasesCommand({ NextToken: page, MaxResults: PAGE_SIZE })),
    );
    return { items: (answer.DatabaseList ?? []).map((d) => d.Name ?? ''), nextPage: answer.NextToken ?? null };
  }

  async listTables(_catalog: string | null, schema: string, page?: string): Promise<CatalogPage<CatalogTableEntry>> {
    const answer = await this.send(`list the tables of ${schema}`, () =>
      this.client.send(new GetTablesCommand({ DatabaseName: schema, NextToken: page, MaxResults: PAGE_SIZE })),
    );
    return {
      items: (answer.TableList ?? []).map((t) => ({ name: t.Name ?? '', format: formatOf(t), location: locationOf(t) })),
      nextPage: answer.NextToken ?? null,
    };
  }

  async resolveTable(ref: TableRef, base: EngineContext): Promise<ResolvedTable> {
    const fullName = `${ref.schema}.${ref.table}`;
    const answer = await this.send(
      `find the table ${fullName}`,
      () => this.client.send(new GetTableCommand({ DatabaseName: ref.schema, Name: ref.table })),
      fullName,
    );
    const table = answer.Table;
    if (!table) throw new DeltaportError('TABLE_NOT_FOUND', `AWS Glue has no table ${fullName}`);
    const format = formatOf(table);
    if (format !== DELTA_FORMAT)
      throw new DeltaportError('NOT_A_DELTA_TABLE', `${fullName} is a ${format} table in AWS Glue, not a Delta table`);
    const location = locationOf(table);
    if (!location) throw new DeltaportError('NOT_A_DELTA_TABLE', `AWS Glue gives no location for ${fullName}`);
    return { fullName, location: readerLocation(location), engine: base };
  }

  private async send<T>(what: string, call: () => Promise<T>, table?: string): Promise<T> {
    try {
      return await call();
    } catch (err) {
      const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $response?: { statusCode?: number } };
      const words = (e.message ?? String(err)).split('\n')[0].slice(0, 300);
      const status = e.$metadata?.httpStatusCode ?? e.$response?.statusCode;
      if (e.name === 'EntityNotFoundException')
        throw new DeltaportError(
          table ? 'TABLE_NOT_FOUND' : 'NOT_FOUND',
          table ? `AWS Glue has no table ${table} (${words})` : `cannot ${what}: ${words}`,
        );
      if (status === 401 || status === 403 || REFUSED.includes(e.name ?? ''))
        throw new DeltaportError('FORBIDDEN', `cannot ${what}: AWS Glue refused the credentials (${words})`);
      throw new DeltaportError('STORAGE', `cannot ${what} in AWS Glue: ${words}`);
    }
  }
}

/** "delta" where the parameters say so; else the format they or the storage descriptor give, or "view". */
function formatOf(table: Table): string {
  const parameters = Object.fromEntries(Object.entries(table.Parameters ?? {}).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]));
  const said = [parameters.table_type, parameters['spark.sql.sources.provider']];
  if (said.includes(DELTA_FORMAT)) return DELTA_FORMAT;
  if (table.TableType === 'VIRTUAL_VIEW') return 'view';
  return said.find((s) => s) ?? parameters.classification ?? inputFormat(table.StorageDescriptor?.InputFormat) ?? 'unknown';
}

/** "parquet" for org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat and the like. */
function inputFormat(className: string | undefined): string | undefined {
  const known = ['parquet', 'orc', 'avro', 'text', 'json'];
  return known.find((k) => className?.toLowerCase().includes(k));
}

/** The table's folder: StorageDescriptor.Location, unless the SerDe's parameters hold a path, as Spark registers a
 * Delta table (its Location then a placeholder, `<path>-__PLACEHOLDER__`). */
function locationOf(table: Table): string | null {
  const descriptor = table.StorageDescriptor;
  return descriptor?.SerdeInfo?.Parameters?.path || descriptor?.Location || null;
}
