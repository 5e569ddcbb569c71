// Cancelling a read stops its work in the worker, not only its display: an exact profile of COVID-19_NYT, stored in
// a real object store (fake-gcs-server) and read by `deltaport serve` through a proxy that counts what the worker
// asks of the store, is cancelled through the HTTP API while its first data file is held at the proxy. The read
// answers CANCELLED (the worker's answer: its scan gave up the held read) while the store still stalls; the held
// read, let through after, leads to no other request; a preview ordered over the whole snapshot is stopped the same
// way. No timing: every step waits for an answer.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { TableProfile } from '../../../shared/table-info.js';
import { liveFiles } from '../../support/delta-oracle.js';
import { connectThroughProxy, GATED_BUCKET as BUCKET, startGatedGcs } from '../../support/gated-gcs.js';
import type { GatedProxy } from '../../support/gated-http-proxy.js';
import { isSkipped, type GcsStore } from '../../support/object-stores.js';
import { startServe, type ServedApp } from '../../support/serve.js';
import { tablePath } from '../../support/tables.js';

const TABLE = 'COVID-19_NYT';
/** A request for one of the table's data files (its log holds no Parquet file). */
const isDataFile = (request: string) => new RegExp(`/${TABLE}/[^/?]+\\.parquet`).test(request);

describe('cancelling a read through deltaport serve', () => {
  let store: GcsStore | null = null;
  let skipped: string | null = null;
  let proxy: GatedProxy;
  let app: ServedApp;

  beforeAll(async () => {
    const started = await startGatedGcs([TABLE], isDataFile);
    if (isSkipped(started)) return void (skipped = started.skipped);
    ({ store, proxy } = started);
    app = await startServe();
    await connectThroughProxy(app, proxy);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await store?.stop();
  });

  it('stops the exact profile in the worker: no data file is asked for after the cancel', async (ctx: TestContext) => {
    if (skipped) ctx.skip(skipped);
    const dataFiles = (await liveFiles(tablePath(TABLE))).length;
    expect(dataFiles).toBeGreaterThan(1);
    const table = { path: `gs://${BUCKET}/${TABLE}` };
    // The statistics profile reads only the log: no data file is asked for.
    const statistics = await app.call<TableProfile>('profile', { table, readId: 'stats' });
    expect(statistics.ok, JSON.stringify(statistics)).toBe(true);
    expect(proxy.requests.filter(isDataFile)).toEqual([]);

    const profile = app.call<TableProfile>('profile', { table, exact: true, readId: 'exact' });
    await proxy.firstHeld();
    expect(await app.call('readProgress', { readId: 'exact' })).toMatchObject({ ok: true });
    expect(await app.call('cancelRead', { readId: 'exact' })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await profile).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    proxy.open();

    const askedAtAnswer = proxy.requests.filter(isDataFile);
    const filesAsked = new Set(askedAtAnswer.map((r) => path.posix.basename(r.split('?')[0])));
    // An exact profile reads every data file twice (values, then histograms): the cancelled one read at most the files
    // its scan had begun.
    expect(filesAsked.size).toBeLessThan(dataFiles);
    // The worker goes on serving, and what it serves asks for no more data: the cancelled scan is over.
    expect(await app.call('cancelRead', { readId: 'exact' })).toEqual({ ok: true, value: { cancelled: false } });
    expect((await app.call<TableProfile>('profile', { table, readId: 'stats' })).ok).toBe(true);
    expect(proxy.requests.filter(isDataFile)).toEqual(askedAtAnswer);
  }, 120_000);

  it('stops a preview ordered over the whole snapshot in the worker: no data file is asked for after the cancel', async (ctx: TestContext) => {
    if (skipped) ctx.skip(skipped);
    const dataFiles = (await liveFiles(tablePath(TABLE))).length;
    proxy.shut();
    const before = proxy.requests.length;
    // The first rows by cases over the whole snapshot: a read of every data file.
    const source = { tablePath: `gs://${BUCKET}/${TABLE}` };
    const preview = app.call('preview', { source, limit: 10, orderBy: [{ column: 'cases', descending: true }], readId: 'grid' });
    await proxy.firstHeld();
    expect(await app.call('cancelRead', { readId: 'grid' })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await preview).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    proxy.open();

    const askedAtAnswer = proxy.requests.filter(isDataFile);
    const filesAsked = new Set(
      proxy.requests
        .slice(before)
        .filter(isDataFile)
        .map((r) => path.posix.basename(r.split('?')[0])),
    );
    expect(filesAsked.size).toBeGreaterThan(0);
    expect(filesAsked.size).toBeLessThan(dataFiles);
    // A read of the log only, after: the cancelled preview asks for nothing more.
    expect((await app.call<TableProfile>('profile', { table: { path: source.tablePath } })).ok).toBe(true);
    expect(proxy.requests.filter(isDataFile)).toEqual(askedAtAnswer);
  }, 120_000);

  it('a newer read under the same id cancels the one running: it answers, the older stops in the worker', async (ctx: TestContext) => {
    if (skipped) ctx.skip(skipped);
    const table = { path: `gs://${BUCKET}/${TABLE}` };
    proxy.shut();
    const before = proxy.requests.filter(isDataFile).length;
    const older = app.call<TableProfile>('profile', { table, exact: true, readId: 'panel' });
    await proxy.firstHeld();
    const newer = await app.call<TableProfile>('profile', { table, readId: 'panel' });
    expect(newer.ok && newer.value.columns.every((c) => c.source === 'statistics'), JSON.stringify(newer)).toBe(true);
    expect(await older).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    proxy.open();
    const askedAtAnswer = proxy.requests.filter(isDataFile);
    expect(askedAtAnswer.length).toBeGreaterThan(before);
    expect((await app.call<TableProfile>('profile', { table })).ok).toBe(true);
    expect(proxy.requests.filter(isDataFile)).toEqual(askedAtAnswer);
  }, 120_000);
});
