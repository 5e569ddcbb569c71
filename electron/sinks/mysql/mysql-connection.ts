// Connecting to MySQL or MariaDB through mysql2: a mysql:// (mariadb://) URL and/or fields become one connection
// config (fields win), failures become one-line errors (SINK_AUTH for credentials, SINK_CONNECTION for the rest), and
// no message ever carries the password.
import type { Readable } from 'node:stream';
import mysql from 'mysql2/promise';
import { DeltaportError } from '../../../shared/errors.js';
import { scrub, type MysqlConnection } from '../../../shared/sink-spec.js';
import type { TableDescription } from '../sql-plan.js';

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_PORT = 3306;
/** Access denied: the user, its password or its host. */
const AUTH_ERRNOS = new Set([1045, 1044, 1698]);
const UNKNOWN_DATABASE = 1049;
/** Strict, so that a value the column cannot hold fails instead of being cut; backslash escapes as LOAD DATA's
 * statement spells them; no time zone conversions. */
const SESSION_SETTINGS = "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00'";

export interface MysqlConfig {
  host: string;
  port: number;
  database: string | undefined;
  user: string | undefined;
  password: string | undefined;
  ssl: boolean;
  connectTimeoutMs: number;
}

export function mysqlConfig(c: MysqlConnection): MysqlConfig {
  const url = c.url ? new URL(c.url) : null;
  const part = (text: string | undefined) => (text ? decodeURIComponent(text) : undefined);
  return {
    host: c.host ?? (part(url?.hostname)?.replace(/^\[(.*)\]$/, '$1') || 'localhost'),
    port: c.port ?? (url?.port ? Number(url.port) : DEFAULT_PORT),
    database: c.database ?? part(url?.pathname.replace(/^\//, '')),
    user: c.user ?? part(url?.username),
    password: c.password ?? part(url?.password),
    ssl: c.ssl ?? false,
    connectTimeoutMs: c.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
  };
}

/** "user@host:port/database", for messages. */
export function describeMysqlServer(config: MysqlConfig): string {
  return `${config.user ?? ''}${config.user ? '@' : ''}${config.host}:${config.port}/${config.database ?? ''}`;
}

/** A connection whose background errors (the server ending the session, a cut) are recorded, not thrown. */
export interface MysqlLink {
  connection: mysql.Connection;
  /** Set once the connection has failed; the link must then be replaced. */
  broken: Error | null;
}

/** `files` feeds LOAD DATA LOCAL INFILE: mysql2 asks it for the stream of the file the statement names. */
export async function connectMysql(c: MysqlConnection, files?: (name: string) => Readable): Promise<MysqlLink> {
  const config = mysqlConfig(c);
  if (!config.database) throw new DeltaportError('VALIDATION', `name the MySQL database to write into (${describeMysqlServer(config)})`);
  let connection: mysql.Connection;
  try {
    connection = await mysql.createConnection({
      host: config.host,
      port: config.port,
      user: config.user,
      password: config.password,
      database: config.database,
      ssl: config.ssl ? {} : undefined,
      connectTimeout: config.connectTimeoutMs,
      charset: 'utf8mb4',
      // Values read back (the ledger, the catalog) as text and numbers, never as Dates in this process's zone.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      infileStreamFactory: files,
      enableKeepAlive: true,
    });
  } catch (err) {
    throw connectError(err, config);
  }
  const link: MysqlLink = { connection, broken: null };
  connection.on('error', (err: Error) => {
    link.broken = err;
  });
  connection.on('end', () => {
    link.broken ??= new Error('connection terminated');
  });
  try {
    await connection.query(SESSION_SETTINGS);
  } catch (err) {
    connection.destroy();
    throw connectError(err, config);
  }
  return link;
}

export function connectError(err: unknown, config: MysqlConfig): DeltaportError {
  const errno = (err as { errno?: number }).errno ?? 0;
  const where = describeMysqlServer(config);
  const reason = scrub(oneLine(err), config.password);
  if (AUTH_ERRNOS.has(errno)) return new DeltaportError('SINK_AUTH', `MySQL refused the login of ${where}: ${reason}`);
  if (errno === UNKNOWN_DATABASE) return new DeltaportError('SINK_CONNECTION', `MySQL at ${where}: ${reason}`);
  const code = (err as { code?: string }).code ?? '';
  return new DeltaportError('SINK_CONNECTION', `cannot connect to MySQL at ${where}: ${reason || code}`);
}

/** The server's message on one line, without the password. */
export function mysqlMessage(err: unknown, password?: string): string {
  return scrub(oneLine(err), password);
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0];
}

/** Drops the connection at once, without the goodbye that a server which stopped answering would never read. */
export function dropMysqlLink(link: MysqlLink): void {
  link.broken ??= new Error('connection dropped');
  link.connection.destroy();
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** The table in the connection's database: its columns and the column sets of its primary key and unique indexes. */
export async function describeMysqlTable(query: Query, table: string): Promise<TableDescription | null> {
  const columns = await query(
    `SELECT column_name AS name, column_type AS type, is_nullable AS nullable, column_default AS dflt, extra
       FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position`,
    [table],
  );
  if (columns.length === 0) return null;
  const keys = await query(
    `SELECT index_name AS name, column_name AS col FROM information_schema.statistics
      WHERE table_schema = DATABASE() AND table_name = ? AND non_unique = 0 ORDER BY index_name, seq_in_index`,
    [table],
  );
  const uniqueKeys = new Map<string, string[]>();
  for (const k of keys) uniqueKeys.set(String(k.name), [...(uniqueKeys.get(String(k.name)) ?? []), String(k.col)]);
  return {
    columns: columns.map((c) => ({
      name: String(c.name),
      type: String(c.type),
      notNull: c.nullable === 'NO',
      // MariaDB spells "no default" as the text NULL; an auto-increment column fills itself.
      hasDefault: (c.dflt !== null && c.dflt !== 'NULL') || /auto_increment/i.test(String(c.extra ?? '')),
    })),
    uniqueKeys: [...uniqueKeys.values()],
  };
}

/** Whether the server takes LOAD DATA LOCAL INFILE (else the sink writes multi-row INSERTs). */
export async function loadsLocalFiles(query: Query): Promise<boolean> {
  const [row] = await query('SELECT @@GLOBAL.local_infile AS on_');
  return Number(row.on_) === 1;
}

export function linkQuery(link: MysqlLink): Query {
  return async (sql, params) => {
    const [rows] = await link.connection.query(sql, params);
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  };
}

/** The plan's view of a target: its table (or null) and whether LOAD DATA LOCAL is allowed. */
export async function describeMysqlTarget(
  c: MysqlConnection,
  table: string,
): Promise<{ existing: TableDescription | null; localInfile: boolean }> {
  const link = await connectMysql(c);
  try {
    const query = linkQuery(link);
    return { existing: await describeMysqlTable(query, table), localInfile: await loadsLocalFiles(query) };
  } finally {
    await link.connection.end().catch(() => undefined);
  }
}
