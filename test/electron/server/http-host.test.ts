import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent, PreviewResult, Result, SqlRows } from '../../../shared/api.js';
import type { TableInfo } from '../../../shared/table-info.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/app/security.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import type { HttpHost } from '../../../electron/server/http-host.js';
import { startHttpHost } from '../../../electron/server/http-host.js';
import { AppState } from '../../../electron/state/app-state.js';
import { tablePath } from '../../support/tables.js';
import { liveRowCount, readCommit } from '../../support/delta-oracle.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { appService } from '../../support/app-service.js';

let dir: string;
let host: HttpHost;
let state: AppState;
let jobs: JobRunner;
let base: string;
const INDEX = '<!doctype html><title>Deltaport test page</title>';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-host-'));
  const root = path.join(dir, 'renderer');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), INDEX);
  fs.writeFileSync(path.join(root, 'assets', 'app-123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the root');
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: null });
  const app = appService(state, { sampleTable: async () => path.join(dir, 'no-sample'), sqlTempDirectory: path.join(dir, 'sql-temp') });
  jobs = app.jobs;
  const api = app.api;
  host = await startHttpHost({ api, events: { onJobEvent: (l) => jobs.onJobEvent(l) }, staticRoot: root });
  base = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await jobs.cancelAll();
  await host.close();
  state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw request, so that Host and other headers fetch would fix are sent as given. */
function raw(
  pathname: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: host.port, path: pathname, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function call<T>(
  method: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; result: Result<T> }> {
  const res = await fetch(`${base}/api/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Deltaport-Token': host.token, ...headers },
    body: JSON.stringify(payload),
  });
  return { status: res.status, result: (await res.json()) as Result<T> };
}

describe('deltaport serve host', () => {
  it('prints a loopback URL with a 32-byte base64url token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses requests without the right token', async () => {
    for (const url of [`${base}/`, `${base}/?token=wrong`, `${base}/assets/app-123.js`, `${base}/api/events`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(403);
      await res.body?.cancel();
    }
    const api = await fetch(`${base}/api/recentTables`, { method: 'POST', body: 'null' });
    expect(api.status).toBe(403);
    const wrongCookie = await fetch(`${base}/`, { headers: { Cookie: 'deltaport_token=nope' } });
    expect(wrongCookie.status).toBe(403);
  });

  it('answers the page for the token in the query and sets the cookie, then accepts the cookie', async () => {
    const res = await fetch(host.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('set-cookie')).toBe(`deltaport_token=${host.token}; HttpOnly; SameSite=Strict; Path=/`);

    const asset = await fetch(`${base}/assets/app-123.js`, { headers: { Cookie: `other=1; deltaport_token=${host.token}` } });
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1)');
    expect(asset.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin, even with the token', async () => {
    const token = { 'X-Deltaport-Token': host.token };
    expect((await raw('/', { ...token, Host: `127.0.0.1:${host.port}` })).status).toBe(200);
    expect((await raw('/', { ...token, Host: `localhost:${host.port}` })).status).toBe(200);
    expect((await raw('/', { ...token, Host: `evil.example:${host.port}` })).status).toBe(403);
    expect((await raw('/', { ...token, Host: '127.0.0.1:1' })).status).toBe(403);
    const foreign = await raw('/api/recentTables', { ...token, Host: `127.0.0.1:${host.port}`, Origin: 'http://127.0.0.1:9999' }, 'POST');
    expect(foreign.status).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await raw(p, { 'X-Deltaport-Token': host.token });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain('outside the root');
    }
  });

  it('listens on 127.0.0.1 only', async () => {
    const nets = Object.values(os.networkInterfaces()).flat();
    const other = nets.find((n) => n && n.family === 'IPv4' && !n.internal);
    const addresses = ['::1', ...(other ? [other.address] : [])];
    for (const address of addresses) {
      const error = await new Promise<unknown>((resolve) => {
        const req = http.request({ host: address, port: host.port, path: '/', timeout: 2000 }, () => resolve(null));
        req.on('error', resolve);
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.end();
      });
      expect(error, address).toBeInstanceOf(Error);
    }
  });

  it('round-trips API calls as Results, validating payloads and refusing unknown methods', async () => {
    const table = tablePath('simple_table');
    const opened = await call<TableInfo>('openTable', { path: table });
    expect(opened.status).toBe(200);
    expect(opened.result.ok && opened.result.value.path).toBe(table);
    const recent = await call<{ path: string }[]>('recentTables', null);
    expect(recent.result.ok && recent.result.value.map((r) => r.path)).toEqual([table]);

    const bad = await call('history', { path: 'relative' });
    expect(bad.status).toBe(200);
    const problem = 'history.path: the table path must be an absolute path or a cloud URL (got "relative")';
    expect(bad.result).toEqual({ ok: false, error: { code: 'VALIDATION', message: problem, problems: [problem] } });

    const notDelta = await call('openTable', { path: dir });
    expect(notDelta.result.ok).toBe(false);

    const unknown = await call('runShell', { cmd: 'ls' });
    expect(unknown.status).toBe(404);
    expect(unknown.result.ok).toBe(false);
    expect(!unknown.result.ok && unknown.result.error.code).toBe('NOT_FOUND');

    const junk = await fetch(`${base}/api/recentTables`, { method: 'POST', headers: { 'X-Deltaport-Token': host.token }, body: '{oops' });
    expect(junk.status).toBe(400);
    const get = await fetch(`${base}/api/recentTables`, { headers: { 'X-Deltaport-Token': host.token } });
    expect(get.status).toBe(405);
  });

  it('previews in a worker: the rows the log says, truncated when there are more', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    // The table's only commit wrote 7 rows (commitInfo.operationMetrics.numOutputRows).
    const all = await call<PreviewResult>('preview', { source: { tablePath: table }, limit: 100 });
    expect(all.result.ok && [all.result.value.rows.length, all.result.value.truncated, all.result.value.version]).toEqual([7, false, 0]);
    const some = await call<PreviewResult>('preview', { source: { tablePath: table, columnNames: ['value'] }, limit: 3 });
    expect(some.result.ok && some.result.value.columns.map((c) => c.name)).toEqual(['value']);
    expect(some.result.ok && [some.result.value.rows.length, some.result.value.truncated]).toEqual([3, true]);
    const bad = await call<PreviewResult>('preview', { source: { tablePath: table, columnNames: ['nope'] }, limit: 3 });
    expect(!bad.result.ok && bad.result.error.code).toBe('VALIDATION');
  });

  it('previews with a filter: only matching rows, and what the filter skipped', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    // Files of year 2020 from the log's own partition values; their rows from DuckDB.
    const adds = readCommit(table, 0)
      .filter((a) => a.add)
      .map((a) => a.add);
    const in2020 = adds.filter((a) => a.partitionValues.year === '2020');
    const { rows } = await duckdbRows(table, 0, "year = '2020'", ['value']);
    const res = await call<PreviewResult>('preview', { source: { tablePath: table, filter: "year = '2020'" }, limit: 100 });
    expect(res.result.ok && res.result.value.rows.map((r) => r[0]).sort()).toEqual(rows);
    expect(res.result.ok && res.result.value.skipping).toEqual({
      filesTotal: adds.length,
      filesSkipped: adds.length - in2020.length,
      bytesTotal: adds.reduce((n, a) => n + a.size, 0),
      bytesSkipped: adds.reduce((n, a) => n + a.size, 0) - in2020.reduce((n, a) => n + a.size, 0),
    });
    const bad = await call<PreviewResult>('preview', { source: { tablePath: table, filter: "year = '2020' AND" }, limit: 3 });
    expect(!bad.result.ok && bad.result.error).toEqual({
      code: 'VALIDATION',
      message: expect.stringMatching(/filter: the filter ends where a value or column was expected at position 18$/),
      problems: [expect.stringMatching(/^preview.source.filter: filter: the filter ends where/)],
    });
  });

  it('previews in an order over the whole snapshot', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    const { rows } = await duckdbRows(table, 0, 'true', ['value']);
    const res = await call<PreviewResult>('preview', {
      source: { tablePath: table, columnNames: ['value'] },
      limit: 3,
      orderBy: [{ column: 'value', descending: true }],
    });
    expect(res.result.ok && res.result.value.rows.map((r) => r[0])).toEqual([...rows].reverse().slice(0, 3));
    expect(res.result.ok && res.result.value.order).toEqual({ keys: [{ column: 'value', descending: true }], rowsSorted: rows.length });
    const bad = await call<PreviewResult>('preview', { source: { tablePath: table }, limit: 3, orderBy: [{ column: 'value' }] });
    expect(!bad.result.ok && bad.result.error.code).toBe('VALIDATION');
  });

  it('serves partitions, profiles, diffs and change feeds, validating their payloads', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    const adds = readCommit(table, 0)
      .filter((a) => a.add)
      .map((a) => a.add);
    const parts = await call<{ files: number; bytes: number }[]>('partitions', { path: table });
    expect(parts.result.ok && parts.result.value.reduce((n, p) => n + p.files, 0)).toBe(adds.length);
    expect(parts.result.ok && parts.result.value.reduce((n, p) => n + p.bytes, 0)).toBe(adds.reduce((n, a) => n + a.size, 0));
    const profile = await call<{ columns: { name: string; source: string }[] }>('profile', { table: { path: table } });
    expect(profile.result.ok && profile.result.value.columns.map((c) => [c.name, c.source])[0]).toEqual(['value', 'statistics']);
    const changes = await call<{ rows: unknown[][] }>('changes', { path: tablePath('cdf-table'), from: 3, limit: 10 });
    expect(changes.result.ok && changes.result.value.rows).toHaveLength(1);
    const diff = await call<{ filesAdded: string[] }>('diff', { path: tablePath('cdf-table'), from: 0, to: 1, limit: 10 });
    expect(diff.result.ok && diff.result.value.filesAdded).toHaveLength(3);
    const bad = await call('diff', { path: tablePath('cdf-table'), from: -1, limit: 10 });
    expect(!bad.result.ok && bad.result.error.code).toBe('VALIDATION');
    const badKeys = await call('diff', { path: tablePath('cdf-table'), from: 0, limit: 10, pairBy: 'id' });
    expect(!badKeys.result.ok && badKeys.result.error.code).toBe('VALIDATION');
  });

  it("exports a change feed's rows as a job, and refuses exactly-once of them in one line", async () => {
    const feed = { rows: 'changes', tablePath: tablePath('cdf-table'), from: 3, to: 3 };
    const once = await call('startExport', {
      source: feed,
      sink: { kind: 'sqlite', path: path.join(dir, 'feed.db'), table: 'f', exactlyOnce: true },
    });
    expect(!once.result.ok && once.result.error.message).toBe(
      'startExport: changes cannot be exported exactly once: they have no position to resume from',
    );
    const target = path.join(dir, 'feed.jsonl');
    const started = await call<{ id: string; title: string }>('startExport', { source: feed, sink: { kind: 'jsonl', path: target } });
    if (!started.result.ok) throw new Error(started.result.error.message);
    expect(started.result.value.title).toBe(`cdf-table v3→v3 changes -> jsonl:${target}`);
    expect((await jobs.wait(started.result.value.id)).state).toBe('succeeded');
    // v3 is a DELETE whose one _change_data file holds one row (cdf-table's log).
    const rows = fs
      .readFileSync(target, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r._change_type, r._commit_version])).toEqual([['delete', 3]]);
  });

  it('delivers job events as server-sent events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/events`, { headers: { 'X-Deltaport-Token': host.token }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const events: JobEvent[] = [];
    let buffer = '';

    const out = path.join(dir, 'events.jsonl');
    const started = await call<{ id: string }>('startExport', {
      source: { tablePath: tablePath('simple_table') },
      sink: { kind: 'jsonl', path: out },
    });
    expect(started.result.ok).toBe(true);
    const id = started.result.ok ? started.result.value.id : '';

    while (!events.some((e) => e.job.id === id && ['succeeded', 'failed', 'cancelled'].includes(e.job.state))) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (message.startsWith('data: ')) events.push(JSON.parse(message.slice(6)) as JobEvent);
      }
    }
    controller.abort();
    const states = events.filter((e) => e.job.id === id).map((e) => e.job.state);
    expect(states[0]).toBe('queued');
    expect(states).toContain('running');
    expect(states.at(-1)).toBe('succeeded');
  });

  it('answers SQL over snapshots: rows equal to DuckDB reading the files, and the snapshots read', async () => {
    const table = tablePath('delta-0.8.0-partitioned');
    const { rows } = await duckdbRows(table, 0, "year = '2020'", ['value']);
    const res = await call<SqlRows>('sql', {
      sql: "SELECT value FROM t WHERE year = '2020' ORDER BY value",
      tables: { t: { path: table } },
      limit: 100,
    });
    expect(res.result.ok && res.result.value.rows.map((r) => r[0])).toEqual([...rows].sort());
    expect(res.result.ok && res.result.value.snapshots.map((s) => [s.name, s.version])).toEqual([['t', 0]]);
    expect(res.result.ok && res.result.value.columns).toEqual([{ name: 'value', type: 'string', nullable: true }]);
  });

  it('refuses SQL that reaches beyond the opened tables, in one line', async () => {
    const tables = { t: { path: tablePath('delta-0.8.0-partitioned') } };
    for (const sql of [
      "COPY t TO '/tmp/deltaport-serve.csv'",
      "SELECT * FROM read_csv('/etc/passwd')",
      'SET enable_external_access = true',
    ]) {
      const res = await call('sql', { sql, tables, limit: 10 });
      expect(!res.result.ok && res.result.error.code, sql).toBe('FORBIDDEN');
      expect(!res.result.ok && res.result.error.message, sql).not.toContain('\n');
    }
    const bad = await call('sql', { sql: 'SELECT 1', tables: { 'a b': tables.t }, limit: 10 });
    expect(!bad.result.ok && bad.result.error.message).toContain('a table name must be letters, digits and _');
  });

  it('cancels a running query by its id', async () => {
    const tables = { t: { path: tablePath('delta-0.8.0-partitioned') } };
    // A cross join of 10^11 rows with the table: it ends only if it is cancelled.
    const running = call('sql', { sql: 'SELECT count(*) FROM range(100000000000) a, t', tables, limit: 10, queryId: 'q1' });
    // The query is known by its id once its tables are read: cancel is asked until it finds it running.
    let cancel = await call<{ cancelled: boolean }>('cancelSql', { queryId: 'q1' });
    for (let tries = 0; tries < 100 && cancel.result.ok && !cancel.result.value.cancelled; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      cancel = await call<{ cancelled: boolean }>('cancelSql', { queryId: 'q1' });
    }
    expect(cancel.result).toEqual({ ok: true, value: { cancelled: true } });
    expect((await running).result).toEqual({ ok: false, error: { code: 'CANCELLED', message: 'query cancelled' } });
    expect((await call('cancelSql', { queryId: 'q1' })).result).toEqual({ ok: true, value: { cancelled: false } });
  });

  it('a new query under the same id cancels the one running, then answers', async () => {
    const tables = { t: { path: tablePath('delta-0.8.0-partitioned') } };
    const first = call('sql', { sql: 'SELECT count(*) FROM range(100000000000) a, t', tables, limit: 10, queryId: 'q2' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await call<SqlRows>('sql', { sql: 'SELECT count(*)::INTEGER AS n FROM t', tables, limit: 10, queryId: 'q2' });
    expect((await first).result).toEqual({ ok: false, error: { code: 'CANCELLED', message: 'query cancelled' } });
    expect(second.result.ok && second.result.value.rows).toEqual([[await liveRowCount(tables.t.path)]]);
  });
});
