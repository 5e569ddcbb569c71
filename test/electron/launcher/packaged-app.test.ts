// The desktop app as `npm run dist` lays it out (electron-builder --dir, with a stand-in for Electron's distribution
// so that nothing is downloaded), its main process started from that tree under Node 22 with a stand-in for the
// parts of Electron's API that main.ts uses (test/support/electron-stand-in/). It proves what a real window cannot be
// had for here: the packaged tree holds everything the app loads (main process, preload, renderer, the job and scan
// worker entries, parquet-wasm's .wasm, better-sqlite3's and DuckDB's N-API builds), start-up runs in order, and the
// IPC handlers preview a table, query it in SQL and export it to SQLite through a job worker. It cannot prove rendering or Chromium's sandbox.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo, PreviewResult, Result, SinkProfile, SqlRows } from '../../../shared/api.js';
import { packageRoot } from '../../../electron/app/package-root.js';
import { liveColumnValues } from '../../support/delta-oracle-rows.js';
import { commitVersions, liveRowCount } from '../../support/delta-oracle.js';
import { tablePath } from '../../support/tables.js';

const root = packageRoot();
const table = tablePath('table-with-dv-small');
let dir: string;
let app: string;

interface Message {
  type: 'record' | 'send' | 'reply';
  what?: string;
  detail?: unknown;
  channel?: string;
  payload?: unknown;
  id?: number;
  value?: unknown;
  error?: string;
}

/** One packaged main process under the stand-in, with what it reported and a way to call into it. */
class PackagedMain {
  readonly messages: Message[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private nextId = 0;

  constructor(dataDir: string, env: NodeJS.ProcessEnv = {}) {
    const register = path.join(root, 'test', 'support', 'electron-stand-in', 'register.ts');
    this.child = fork(path.join(app, 'dist', 'electron', 'start-main.js'), [], {
      cwd: os.tmpdir(),
      execArgv: ['--import', register],
      env: { ...process.env, ...env, DELTAPORT_DATA_DIR: dataDir, STAND_IN_USER_DATA: path.join(dir, 'electron-user-data') },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.on('message', (m: Message) => this.messages.push(m));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  records(what: string): unknown[] {
    return this.messages.filter((m) => m.type === 'record' && m.what === what).map((m) => m.detail);
  }

  /** Resolves once a message matching `test` has arrived. */
  async waitFor(test: (m: Message) => boolean, timeoutMs = 60_000): Promise<Message> {
    const started = Date.now();
    for (;;) {
      const found = this.messages.find(test);
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`timed out; messages so far: ${JSON.stringify(this.messages).slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async request(message: object): Promise<unknown> {
    const id = this.nextId++;
    this.child.send({ id, ...message });
    const reply = await this.waitFor((m) => m.type === 'reply' && m.id === id);
    if (reply.error) throw new Error(reply.error);
    return reply.value;
  }

  invoke<T>(method: string, payload: unknown): Promise<Result<T>> {
    return this.request({ invoke: `deltaport:${method}`, payload }) as Promise<Result<T>>;
  }

  fetch(url: string): Promise<{ status: number; contentType: string | null; body: string }> {
    return this.request({ fetch: url }) as Promise<{ status: number; contentType: string | null; body: string }>;
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-packaged-'));
  // Electron's distribution as electron-builder copies it: the executable (a stand-in) and its license files.
  const electronDist = path.join(dir, 'electron-dist');
  fs.mkdirSync(electronDist);
  for (const file of ['electron', 'LICENSE', 'LICENSES.chromium.html', 'version']) fs.writeFileSync(path.join(electronDist, file), '');
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'electron-builder', 'cli.js'),
      '--dir',
      '--linux',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${path.join(dir, 'release')}`,
      '--publish',
      'never',
    ],
    { cwd: root, stdio: 'pipe', env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } },
  );
  app = path.join(dir, 'release', 'linux-unpacked', 'resources', 'app');
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the packaged desktop app (electron-builder --dir, main process under a stand-in for Electron)', () => {
  it('ships what the app loads, and no node_modules outside its own', () => {
    for (const file of [
      'package.json',
      'dist/electron/main.js',
      'dist/electron/preload.cjs',
      'dist/renderer/index.html',
      'dist/electron/jobs/worker.js',
      `node_modules/better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`,
      'node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm',
      `node_modules/@duckdb/node-bindings-${process.platform}-${process.arch}/duckdb.node`,
      'assets/sample-sales/_delta_log',
    ]) {
      expect(fs.existsSync(path.join(app, file)), file).toBe(true);
    }
    // The tree lies in a temporary folder with no node_modules above it: only its own packages can be found.
    expect(fs.existsSync(path.join(dir, 'node_modules'))).toBe(false);
    expect(fs.existsSync(path.join(os.tmpdir(), 'node_modules'))).toBe(false);
  });

  let main: PackagedMain;
  let dataDir: string;

  it('starts: data folder first, the window on app://deltaport with the preload beside main.js, then shown', async () => {
    dataDir = path.join(dir, 'data');
    main = new PackagedMain(dataDir, { STAND_IN_KEYRING: 'basic_text' });
    await main.waitFor((m) => m.what === 'BrowserWindow.show');
    expect(main.records('BrowserWindow.loadURL')).toEqual([{ url: 'app://deltaport/index.html', status: 200 }]);
    const [window] = main.records('BrowserWindow') as { preload: string }[];
    expect(window!.preload).toBe(path.join(app, 'dist', 'electron', 'preload.cjs'));
    expect(fs.existsSync(window!.preload)).toBe(true);
    // The single-instance lock is taken on the data folder of its own (DELTAPORT_DATA_DIR), so that two instances
    // with different data folders both run.
    const order = main.messages.filter((m) => m.what === 'app.setPath' || m.what === 'app.requestSingleInstanceLock');
    expect(order.map((m) => [m.what, m.detail])).toEqual([
      ['app.setPath', ['userData', dataDir]],
      ['app.requestSingleInstanceLock', dataDir],
    ]);
    expect(main.records('dialog.showErrorBox')).toEqual([]);
  });

  it("serves the renderer's page and its script from the packaged tree", async () => {
    const page = await main.fetch('app://deltaport/index.html');
    expect(page.status).toBe(200);
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const code = await main.fetch(new URL(script!, 'app://deltaport/index.html').href);
    expect(code.status).toBe(200);
    expect(code.contentType).toMatch(/javascript/);
    expect(code.body.length).toBeGreaterThan(10_000);
  });

  it('previews a table with deletion vectors over IPC (parquet-wasm and the scan worker from the tree)', async () => {
    const preview = value(await main.invoke<PreviewResult>('preview', { source: { tablePath: table }, limit: 1000 }));
    expect(preview.version).toBe(Math.max(...commitVersions(table)));
    expect(preview.rows).toHaveLength(await liveRowCount(table));
  });

  it('exports the table to SQLite through a job worker: the file holds the rows DuckDB reads from the log', async () => {
    const file = path.join(dir, 'dv.sqlite');
    const job = value(
      await main.invoke<JobInfo>('startExport', { source: { tablePath: table }, sink: { kind: 'sqlite', path: file, table: 'dv' } }),
    );
    const done = await main.waitFor((m) => {
      const event = m.type === 'send' ? (m.payload as { job?: JobInfo }) : null;
      return event?.job?.id === job.id && ['succeeded', 'failed', 'cancelled'].includes(event.job.state);
    });
    const finished = (done.payload as { job: JobInfo }).job;
    expect(finished.error).toBeNull();
    expect(finished.state).toBe('succeeded');
    const db = new Database(file, { readonly: true });
    const rows = (db.prepare('SELECT CAST(value AS TEXT) AS v FROM dv').all() as { v: string | null }[]).map((r) => r.v ?? 'NULL');
    db.close();
    const expected = (await liveColumnValues(table, 'value')).map((v) => (v === null ? 'NULL' : String(v)));
    expect(rows.sort()).toEqual(expected.sort());
  });

  it("answers a SQL query with DuckDB's N-API build from the tree: the sum the log's rows give", async () => {
    const result = value(
      await main.invoke<SqlRows>('sql', {
        sql: 'SELECT count(*) AS n, CAST(sum(value) AS BIGINT) AS total FROM t',
        tables: { t: { path: table } },
        limit: 10,
      }),
    );
    const values = (await liveColumnValues(table, 'value')).map(Number);
    expect(result.rows).toEqual([[values.length, values.reduce((a, b) => a + b, 0)]]);
  });

  it("saves no password where Linux has no keyring (safeStorage's basic_text), and says so", async () => {
    const profile = value(
      await main.invoke<SinkProfile>('saveProfile', {
        name: 'warehouse',
        sink: { kind: 'postgres', connection: { url: 'postgres://u@127.0.0.1:1/db', password: 'secret-pw' }, table: 't' },
      }),
    );
    expect(profile.passwordNotSaved).toBe(true);
    main.stop();
    await main.exited;
    expect(fs.readFileSync(path.join(dataDir, 'state.db')).includes('secret-pw')).toBe(false);
  });

  it("kept Node's compile cache of its main process in the data folder's cache (README, Where data goes)", () => {
    // Written as soon as the main process had loaded, though the process was killed (SIGKILL) above.
    const folder = path.join(dataDir, 'cache', 'compile-cache');
    expect(fs.existsSync(folder) ? fs.readdirSync(folder, { recursive: true }).length : 0).toBeGreaterThan(0);
  });

  it('without its SQLite build the app does not start: one line in a dialog, the details in startup-errors.log', async () => {
    const addon = path.join(app, 'node_modules', 'better-sqlite3', 'prebuilds', `${process.platform}-${process.arch}.node`);
    fs.renameSync(addon, `${addon}.away`);
    try {
      const broken = new PackagedMain(path.join(dir, 'data-broken'));
      expect(await broken.exited).toBe(1);
      const [box] = broken.records('dialog.showErrorBox') as { title: string; content: string }[];
      expect(box!.title).toBe('Deltaport could not start');
      const [line, , details] = box!.content.split('\n');
      expect(line).toMatch(
        /^SQLite's native module \(better-sqlite3\) could not be loaded on linux-x64 \(Cannot find module .*better_sqlite3\.node'?\)$/,
      );
      expect(details).toBe(`Details were written to ${path.join(dir, 'data-broken', 'startup-errors.log')}`);
      expect(fs.readFileSync(path.join(dir, 'data-broken', 'startup-errors.log'), 'utf8')).toContain(line);
      expect(broken.records('BrowserWindow')).toEqual([]);
    } finally {
      fs.renameSync(`${addon}.away`, addon);
    }
  });
});
