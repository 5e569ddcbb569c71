// Catalog connections saved in the app: the token only ever encrypted at rest (or, without an encryptor, held for
// the run and never written), the payload checks (kind, options known and right for it, a Unity Catalog endpoint,
// no secret value in any message), and a saved connection browsed through the API against the real Unity Catalog
// server (test/support/unity-catalog.ts). Expected names are what the test made through the server's own REST API.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { DeltaportApi } from '../../../shared/api.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import type { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState, STATE_FILE_NAME } from '../../../electron/state/app-state.js';
import { resultValue, xorEncryptor } from '../../support/app-state-helpers.js';
import { appService } from '../../support/app-service.js';
import { isSkipped } from '../../support/object-stores.js';
import { tablePath } from '../../support/tables.js';
import { startUnityCatalog, UNITY_CATALOG_START_MS, type UnityCatalogServer } from '../../support/unity-catalog.js';

const TOKEN = 'dapi-do-not-show-this-token-0123456789';

let server: UnityCatalogServer | undefined;
let skipped: string | null = null;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-uc-app-'));

beforeAll(async () => {
  const started = await startUnityCatalog();
  if (isSkipped(started)) return void (skipped = started.skipped);
  server = started;
  fs.cpSync(tablePath('simple_table'), path.join(scratch, 'orders'), { recursive: true });
  await server.createTable('main.sales.orders', pathToFileURL(path.join(scratch, 'orders')).href);
  await server.createTable('main.sales.raw', pathToFileURL(path.join(scratch, 'raw')).href, 'PARQUET');
  await server.api('POST', '/schemas', { catalog_name: 'main', name: 'hr' });
}, UNITY_CATALOG_START_MS);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function running(ctx: TestContext): UnityCatalogServer {
  if (!server) ctx.skip(`Unity Catalog skipped: ${skipped}`);
  return server!;
}

/** A fresh state folder and the app's API over it. */
function app(encrypted: boolean): { api: DeltaportApi; jobs: JobRunner; state: AppState; folder: string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-catalog-connections-'));
  const state = AppState.open(path.join(folder, STATE_FILE_NAME), { encryptor: encrypted ? xorEncryptor : null });
  const { api, jobs } = appService(state, {
    sampleTable: async () => path.join(folder, 'sample'),
    sqlTempDirectory: path.join(folder, 'sql-temp'),
  });
  return { api, jobs, state, folder };
}

/** Every byte the state folder holds (the database and any journal beside it). */
function bytesOnDisk(folder: string): Buffer {
  return Buffer.concat(fs.readdirSync(folder).map((name) => fs.readFileSync(path.join(folder, name))));
}

/** The payload as the host checks it, or the one-line message it refuses it with. */
function checked(payload: unknown): string {
  try {
    return JSON.stringify(validateCall('saveCatalogConnection', payload)[0]);
  } catch (err) {
    return (err as Error).message;
  }
}

describe('catalog connection payloads', () => {
  it('names every bad option at once, and never the token', () => {
    expect(checked({ name: ' work ', kind: 'unity', options: { endpoint: 'https://dbc-1.cloud.databricks.com', token: TOKEN } })).toBe(
      JSON.stringify({ name: 'work', kind: 'unity', options: { endpoint: 'https://dbc-1.cloud.databricks.com', token: TOKEN } }),
    );
    const refused = checked({ name: 'work', kind: 'unity', options: { region: 'eu-west-1', colour: 'red', token: TOKEN } });
    expect(refused.split('; ')).toEqual([
      'saveCatalogConnection.options: catalog option region does not apply to Unity Catalog',
      "saveCatalogConnection.options: unknown catalog option 'colour' (known: endpoint, token, region, profile)",
      'saveCatalogConnection.options: Unity Catalog needs its endpoint (the server or workspace URL)',
    ]);
    expect(refused).not.toContain(TOKEN);
    expect(checked({ name: 'lake', kind: 'glue', options: { token: TOKEN } })).toBe(
      'saveCatalogConnection.options: catalog option token does not apply to AWS Glue',
    );
    expect(checked({ name: 'lake', kind: 'glue', options: { endpoint: 'localhost:5000' } })).toBe(
      "saveCatalogConnection.options: catalog option endpoint must be an http(s):// URL, not 'localhost:5000'",
    );
    expect(checked({ name: 'lake', kind: 'hive', options: {} })).toBe('saveCatalogConnection.kind: the kind must be unity or glue');
    expect(checked({ name: 'my lake/1', kind: 'glue', options: {} })).toBe(
      "saveCatalogConnection.name: the connection name must be letters, digits, _, . and - (it begins its tables' names)",
    );
  });
});

describe('catalog connections in the app state', () => {
  it('keeps the token only encrypted, says which secrets are set, keeps it when saved again without it', async () => {
    const { api, jobs, state, folder } = app(true);
    try {
      const saved = resultValue(
        await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: 'http://127.0.0.1:1', token: TOKEN } }),
      );
      expect(saved).toEqual({
        name: 'work',
        kind: 'unity',
        options: { endpoint: 'http://127.0.0.1:1' },
        secretsSet: ['token'],
        secretsNotSaved: false,
      });
      resultValue(await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: 'http://127.0.0.1:2' } }));
      const listed = resultValue(await api.listCatalogConnections());
      expect(listed.connections.map((c) => [c.name, c.options.endpoint, c.secretsSet])).toEqual([
        ['work', 'http://127.0.0.1:2', ['token']],
      ]);
      expect(listed.secretsSaved).toBe(true);
      expect(listed.options.filter((o) => o.secret).map((o) => o.name)).toEqual(['token']);
      expect(JSON.stringify(listed)).not.toContain(TOKEN);
      expect(bytesOnDisk(folder).includes(TOKEN)).toBe(false);
      expect(state.catalogConnections.secrets('work')).toEqual({ token: TOKEN });
      // A token given as '' is forgotten.
      resultValue(await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: 'http://127.0.0.1:2', token: '' } }));
      expect(state.catalogConnections.secrets('work')).toEqual({});
      expect(resultValue(await api.deleteCatalogConnection({ name: 'work' }))).toBeNull();
      expect(resultValue(await api.listCatalogConnections()).connections).toEqual([]);
      const gone = await api.deleteCatalogConnection({ name: 'work' });
      expect(gone.ok ? null : gone.error).toEqual({ code: 'NOT_FOUND', message: 'no catalog connection named "work"' });
    } finally {
      await jobs.cancelAll();
      state.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('without OS encryption writes no token, holds it for the session only, and says so', async () => {
    const { api, jobs, state, folder } = app(false);
    try {
      const saved = resultValue(
        await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: 'http://127.0.0.1:1', token: TOKEN } }),
      );
      expect([saved.secretsSet, saved.secretsNotSaved]).toEqual([['token'], true]);
      expect(resultValue(await api.listCatalogConnections()).secretsSaved).toBe(false);
      expect(state.catalogConnections.secrets('work')).toEqual({ token: TOKEN });
      state.close();
      expect(bytesOnDisk(folder).includes(TOKEN)).toBe(false);
      const again = AppState.open(path.join(folder, STATE_FILE_NAME), { encryptor: null });
      expect(again.catalogConnections.list().map((c) => [c.name, c.secretsSet, c.secretsNotSaved])).toEqual([['work', [], true]]);
      expect(again.catalogConnections.secrets('work')).toEqual({});
      again.close();
    } finally {
      await jobs.cancelAll();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('browsing a saved catalog through the API', () => {
  it('lists catalogs, schemas and tables one level at a time, filtered, through the saved token', async (ctx) => {
    const uc = running(ctx);
    const { api, jobs, state, folder } = app(true);
    try {
      // Without the token the server refuses; the message names the cause and no secret.
      resultValue(await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: uc.endpoint } }));
      const refused = await api.browseCatalog({ location: 'uc://work' });
      expect(refused.ok ? null : refused.error.message).toBe(
        `cannot list catalogs: Unity Catalog at ${uc.endpoint} needs a token (set DATABRICKS_TOKEN or UC_TOKEN)`,
      );
      resultValue(
        await api.saveCatalogConnection({ name: 'work', kind: 'unity', options: { endpoint: uc.endpoint, token: uc.adminToken } }),
      );
      expect(resultValue(await api.browseCatalog({ location: 'uc://work' }))).toEqual({
        entries: [{ name: 'main', kind: 'folder', location: 'uc://work/main' }],
        nextPage: null,
      });
      expect(resultValue(await api.browseCatalog({ location: 'uc://work/main' })).entries.map((e) => e.name)).toEqual(['hr', 'sales']);
      expect(resultValue(await api.browseCatalog({ location: 'uc://work/main.sales' }))).toEqual({
        entries: [
          { name: 'orders', kind: 'table', location: 'uc://work/main.sales.orders' },
          { name: 'raw', kind: 'other', location: 'uc://work/main.sales.raw', detail: 'parquet' },
        ],
        nextPage: null,
      });
      expect(resultValue(await api.browseCatalog({ location: 'uc://work/main.sales', filter: 'ORD' })).entries.map((e) => e.name)).toEqual([
        'orders',
      ]);
      const unknown = await api.browseCatalog({ location: 'uc://elsewhere/main' });
      expect(unknown.ok ? null : unknown.error).toEqual({ code: 'NOT_FOUND', message: 'no catalog connection named "elsewhere"' });
      const wrongKind = await api.browseCatalog({ location: 'glue://work' });
      expect(wrongKind.ok ? null : wrongKind.error.message).toBe('"work" is a Unity Catalog connection, not AWS Glue');
    } finally {
      await jobs.cancelAll();
      state.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
