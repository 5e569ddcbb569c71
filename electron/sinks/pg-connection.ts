// Connecting to PostgreSQL: a URL and/or fields become one client config (fields win), failures become one-line
// errors (SINK_AUTH for credentials, SINK_CONNECTION for the rest), and no message ever carries the password.
import pg from 'pg';
import { DeltaportError } from '../../shared/errors.js';
import { scrub, type PostgresConnection } from '../../shared/sink-spec.js';
import { quoteName } from '../../shared/sql-quote.js';
import type { TableDescription } from './sql-plan.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** How long a statement or COPY may go unanswered before its connection is given up as lost. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;
const AUTH_SQLSTATES = new Set(['28P01', '28000']);

export function clientConfig(c: PostgresConnection): pg.ClientConfig {
  const url = c.url ? new URL(c.url) : null;
  const sslmode = url?.searchParams.get('sslmode') ?? null;
  const fromUrl = url
    ? {
        host: decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1') || undefined,
        port: url.port ? Number(url.port) : undefined,
        database: decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined,
        user: decodeURIComponent(url.username) || undefined,
        password: url.password ? decodeURIComponent(url.password) : undefined,
      }
    : {};
  return {
    host: c.host ?? fromUrl.host ?? 'localhost',
    port: c.port ?? fromUrl.port ?? 5432,
    database: c.database ?? fromUrl.database,
    user: c.user ?? fromUrl.user,
    password: c.password ?? fromUrl.password,
    ssl: sslConfig(c.ssl, sslmode),
    connectionTimeoutMillis: c.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // A peer that vanished without a word is noticed by TCP too, not only by the statement timeout.
    keepAlive: true,
    application_name: 'deltaport',
  };
}

/** libpq's sslmode names: require encrypts without checking the certificate, verify-* check it. */
function sslConfig(ssl: boolean | undefined, sslmode: string | null): pg.ClientConfig['ssl'] {
  if (ssl !== undefined) return ssl;
  if (sslmode === 'require' || sslmode === 'prefer') return { rejectUnauthorized: false };
  if (sslmode === 'verify-ca' || sslmode === 'verify-full') return { rejectUnauthorized: true };
  return false;
}

/** "user@host:port/database", for messages. */
export function describeServer(config: pg.ClientConfig): string {
  return `${config.user ?? ''}${config.user ? '@' : ''}${config.host}:${config.port}/${config.database ?? ''}`;
}

/** A connected client whose background errors (e.g. the server ending the session) are recorded, not thrown. */
export interface PgLink {
  client: pg.Client;
  /** Set once the connection has failed; the link must then be replaced. */
  broken: Error | null;
}

/** Drops the connection at once, without the goodbye that a server which stopped answering would never read. */
export function dropLink(link: PgLink): void {
  link.broken ??= new Error('connection dropped');
  link.client.connection.stream.destroy();
}

/** `applicationName` is what other sessions see in pg_stat_activity (a writer names its process there). */
export async function connectPg(c: PostgresConnection, applicationName?: string): Promise<PgLink> {
  const config = { ...clientConfig(c), ...(applicationName ? { application_name: applicationName } : {}) };
  const client = new pg.Client(config);
  const link: PgLink = { client, broken: null };
  client.on('error', (err) => {
    link.broken = err;
  });
  client.on('end', () => {
    link.broken ??= new Error('connection terminated');
  });
  try {
    await client.connect();
  } catch (err) {
    client.end().catch(() => undefined);
    throw connectError(err, config);
  }
  return link;
}

export function connectError(err: unknown, config: pg.ClientConfig): DeltaportError {
  const code = (err as { code?: string }).code ?? '';
  const where = describeServer(config);
  const reason = scrub(oneLine(err), config.password);
  if (AUTH_SQLSTATES.has(code)) return new DeltaportError('SINK_AUTH', `PostgreSQL refused the login of ${where}: ${reason}`);
  if (code === '3D000') return new DeltaportError('SINK_CONNECTION', `PostgreSQL at ${where}: ${reason}`);
  return new DeltaportError('SINK_CONNECTION', `cannot connect to PostgreSQL at ${where}: ${reason || code}`);
}

/** The server's message with its detail and context, on one line and without the password. */
export function pgMessage(err: unknown, password?: string): string {
  const e = err as { detail?: string };
  let text = oneLine(err);
  if (e.detail) text += ` (${e.detail.split('\n')[0]})`;
  return scrub(text, password);
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

export async function describePgTable(client: pg.Client, table: string): Promise<TableDescription | null> {
  const name = quoteName(table);
  const columns = await client.query<{ name: string; type: string; not_null: boolean; has_default: boolean }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, a.atthasdef AS has_default
       FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [name],
  );
  if (columns.rows.length === 0) {
    const exists = await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
    if (!exists.rows[0].found) return null;
  }
  const keys = await client.query<{ columns: string[] }>(
    `SELECT array_agg(a.attname::text ORDER BY k.ord) AS columns
       FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = to_regclass($1) AND i.indisunique AND i.indpred IS NULL GROUP BY i.indexrelid`,
    [name],
  );
  return {
    columns: columns.rows.map((c) => ({ name: c.name, type: c.type, notNull: c.not_null, hasDefault: c.has_default })),
    uniqueKeys: keys.rows.map((r) => r.columns),
  };
}

export async function describePgTarget(c: PostgresConnection, table: string): Promise<TableDescription | null> {
  const link = await connectPg(c);
  try {
    return await describePgTable(link.client, table);
  } finally {
    await link.client.end().catch(() => undefined);
  }
}
