// A real MariaDB for tests and the benchmark: DELTAPORT_TEST_MYSQL_URL when set, otherwise a throwaway server
// (Debian's mariadb-server) on a free loopback port, with its own data folder, run as the `mysql` user when this
// process is root (mariadbd refuses root). Its tests log in as a real user with a password, so that a wrong one is
// refused as it would be anywhere.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { freePort } from './free-port.js';

const USER = 'deltaport';
const PASSWORD = 'deltaport-test';
const SERVER = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

export interface MariadbServer {
  /** mysql://deltaport:password@127.0.0.1:port/ (no database: createMysqlDatabase makes one per test file). */
  url: string;
  /** Stops the server and starts it again on the same port and data (a restarted server); only where it is ours. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Why the server cannot be started here, or null. */
export function mariadbMissing(): string | null {
  if (process.env.DELTAPORT_TEST_MYSQL_URL) return null;
  return existsSync(SERVER) && existsSync(INSTALL_DB) ? null : `MariaDB is not installed (apt-get install mariadb-server)`;
}

/** `flags`: more server options (e.g. --local-infile=0 for a server that refuses LOAD DATA LOCAL). */
export async function startMariadb(flags: string[] = []): Promise<MariadbServer> {
  const external = process.env.DELTAPORT_TEST_MYSQL_URL;
  if (external && flags.length === 0)
    return { url: external, restart: () => Promise.reject(new Error('not our server')), stop: async () => {} };
  const missing = mariadbMissing();
  if (missing) throw new Error(missing);
  const home = mkdtempSync(path.join(tmpdir(), 'deltaport-mariadb-'));
  chmodSync(home, 0o755);
  const data = path.join(home, 'data');
  // Its own folder for temporary tables: servers of other runs that share /tmp were seen to make the set-up fail
  // ("Unknown table 'mysql.tmp_user_sys'").
  const tmp = path.join(home, 'tmp');
  mkdirSync(data);
  mkdirSync(tmp);
  const asRoot = userInfo().uid === 0;
  const user = asRoot ? ['--user=mysql'] : [];
  if (asRoot) {
    const { uid, gid } = await mysqlIds();
    for (const folder of [home, data, tmp]) chownSync(folder, uid, gid);
  }
  await promisify(execFile)(INSTALL_DB, [
    '--no-defaults',
    `--datadir=${data}`,
    `--tmpdir=${tmp}`,
    ...user,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const port = await freePort();
  const args = [
    '--no-defaults',
    `--datadir=${data}`,
    `--tmpdir=${tmp}`,
    ...user,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${path.join(home, 'mariadb.sock')}`,
    `--pid-file=${path.join(home, 'mariadb.pid')}`,
    // Throwaway data: no binary log, no flush per commit, a small buffer pool.
    '--skip-log-bin',
    '--innodb-flush-log-at-trx-commit=0',
    '--innodb-buffer-pool-size=128M',
    '--max-connections=500',
    '--max-allowed-packet=64M',
    ...flags,
  ];
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    child = spawn(SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    const started = child;
    for (let i = 0; i < 300; i++) {
      if (started.exitCode !== null) throw new Error(`mariadbd exited (code ${started.exitCode}): ${log}`);
      try {
        const root = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
        await root.end();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`mariadbd did not accept connections within 30 s: ${log}`);
  };
  const stopServer = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
  };
  try {
    await start();
    const root = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    await root.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
    await root.query(`GRANT ALL PRIVILEGES ON *.* TO '${USER}'@'%' WITH GRANT OPTION`);
    await root.end();
  } catch (err) {
    await stopServer();
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `mysql://${USER}:${PASSWORD}@127.0.0.1:${port}/`,
    async restart() {
      await stopServer();
      await start();
    },
    async stop() {
      await stopServer();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function mysqlIds(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await promisify(execFile)('id', ['mysql']);
  const uid = /uid=(\d+)/.exec(stdout);
  const gid = /gid=(\d+)/.exec(stdout);
  if (!uid || !gid) throw new Error('no mysql user to run MariaDB as (it comes with the mariadb-server package)');
  return { uid: Number(uid[1]), gid: Number(gid[1]) };
}

/** A new, empty database on the server (one per test file, so files can run in parallel); returns its URL. */
export async function createMysqlDatabase(serverUrl: string, prefix = 'test'): Promise<string> {
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}`;
  const admin = await mysql.createConnection(serverUrl);
  try {
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropMysqlDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/';
  const admin = await mysql.createConnection(url.toString());
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name.replaceAll('`', '``')}\``);
  } finally {
    await admin.end();
  }
}
