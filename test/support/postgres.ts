// A real PostgreSQL for tests and the benchmark: DELTAPORT_TEST_PG_URL when set, otherwise a throwaway server on a
// free loopback port, run by embedded-postgres-server.ts in a child process of its own (see there why).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export interface PgServer {
  /** postgres://user:password@127.0.0.1:port/postgres */
  url: string;
  stop(): Promise<void>;
}

export async function startPostgres(options: { log?: (line: string) => void } = {}): Promise<PgServer> {
  const external = process.env.DELTAPORT_TEST_PG_URL;
  if (external) return { url: external, stop: async () => {} };
  // Under vitest this file is TypeScript, so the child needs tsx; the built benchmark runs the compiled .js.
  const self = fileURLToPath(import.meta.url);
  const extension = path.extname(self);
  const entry = path.join(path.dirname(self), `embedded-postgres-server${extension}`);
  const child = spawn(process.execPath, [...(extension === '.ts' ? ['--import', 'tsx'] : []), entry], {
    cwd: path.resolve(path.dirname(self), extension === '.ts' ? '../..' : '../../..'),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const log = options.log ?? (() => {});
  createInterface({ input: child.stderr }).on('line', log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string | null>((resolve) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve(line));
    lines.once('close', () => resolve(null));
  });
  const message = first === null ? null : (JSON.parse(first) as { url?: string; error?: string });
  if (!message?.url) {
    child.kill('SIGKILL');
    throw new Error(`could not start embedded PostgreSQL: ${message?.error ?? `the server process exited (code ${child.exitCode})`}`);
  }
  return {
    url: message.url,
    async stop() {
      child.stdin.end();
      await exited;
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
