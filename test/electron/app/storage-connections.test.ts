// Storage connections through the API: the payload checks (prefix spelling, options known and right for the store,
// no secret value in any message), the settings for the tables under the prefix, and reads of a table in a real
// S3 server (moto) on the shared worker and in an export job's own thread, and an export into that bucket. Expected rows come from DuckDB over the
// local copy of the table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { DeltaportApi } from '../../../shared/api.js';
import { validateCall } from '../../../electron/app/ipc-validation.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { optionsIn } from '../../../electron/storage/store-options.js';
import type { StoreLocation } from '../../../shared/store-location.js';
import type { S3Store } from '../../support/object-stores.js';
import { startS3WithTable } from '../../support/s3-table.js';
import { tablePath } from '../../support/tables.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { resultValue, xorEncryptor } from '../../support/app-state-helpers.js';
import { appService } from '../../support/app-service.js';
import { StorageConnections } from '../../../electron/app/storage-connections.js';

function validationMessage(payload: unknown): string {
  try {
    validateCall('saveStorageConnection', payload);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

const bucketOf = (name: string) => ({ kind: 's3' as const, bucket: name, account: null, key: '' });
/** A store's options in the engine settings the app's reads are given. */
const optionsOf = (from: StorageConnections, store: StoreLocation) => optionsIn(from.settings().storeOptions, store);

let dir: string;
let state: AppState;
let jobs: JobRunner;
let api: DeltaportApi;
let connections: StorageConnections;
let s3: S3Store | null = null;
let skipReason: string | null = null;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-connections-api-'));
  state = AppState.open(path.join(dir, 'state.db'), { encryptor: xorEncryptor });
  ({ api, jobs, connections } = appService(state, {
    sampleTable: async () => path.join(dir, 'sample'),
    sqlTempDirectory: path.join(dir, 'sql-temp'),
  }));
  const started = await startS3WithTable('lake', 'simple_table');
  if ('skipped' in started) skipReason = started.skipped;
  else s3 = started.s3;
}, 120_000);

afterAll(async () => {
  await jobs.cancelAll();
  state.close();
  await s3?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('storage connection payloads', () => {
  it('spells the prefix one way and refuses a folder, a local path or an unknown scheme', () => {
    const checked = (prefix: string) => validateCall('saveStorageConnection', { name: ' lake ', prefix, options: {} })[0];
    expect(checked('s3a://lake/')).toEqual({ name: 'lake', prefix: 's3://lake', options: {} });
    expect(checked('S3://').prefix).toBe('s3://');
    expect(checked('abfss://').prefix).toBe('az://');
    expect(checked('abfss://raw@acct.dfs.core.windows.net').prefix).toBe('abfss://raw@acct.dfs.core.windows.net');
    expect(validationMessage({ name: 'x', prefix: 's3://lake/tables/people', options: {} })).toBe(
      'saveStorageConnection.prefix: a storage connection applies to a whole bucket or container: use s3://lake, not s3://lake/tables/people',
    );
    expect(validationMessage({ name: 'x', prefix: '/data/lake', options: {} })).toMatch(
      /^saveStorageConnection\.prefix: '\/data\/lake' is not a cloud URL/,
    );
    expect(validationMessage({ name: 'x', prefix: ' ', options: {} })).toBe('saveStorageConnection.prefix: the prefix must not be empty');
    expect(validationMessage({ name: 'x', prefix: 'ftp://lake', options: {} })).toMatch(
      /^saveStorageConnection\.prefix: unknown storage scheme 'ftp:\/\/'/,
    );
  });

  it('names every bad option at once, and never a secret value', () => {
    const secret = 'do-not-show-this-secret';
    const message = validationMessage({
      name: 'x',
      prefix: 'gs://lake',
      options: { endpoint: 'localhost:9000', secret_access_key: secret, colour: 'blue', timeout_ms: 'soon' },
    });
    expect(message).toContain("storage option endpoint must be an http(s):// URL, not 'localhost:9000'");
    expect(message).toContain("unknown storage option 'colour'");
    expect(message).toContain('storage option timeout_ms must be a whole number of milliseconds');
    expect(message).toContain('storage option secret_access_key does not apply to gcs (it is for s3)');
    expect(message).not.toContain(secret);
    expect(message.split('\n')).toHaveLength(1);
    expect(validationMessage({ name: 'x', prefix: 's3://lake', options: { region: 1 } })).toBe(
      'saveStorageConnection.options.region: an option value must be text',
    );
    expect(validationMessage({ name: 'x', prefix: 's3://lake', options: {}, extra: true })).toBe(
      'saveStorageConnection: has an unknown field "extra"',
    );
  });
});

describe('storage connections in use', () => {
  it('registers the options for the prefix, keeps a secret left out, forgets one given empty, and withdraws on delete', async () => {
    resultValue(
      await api.saveStorageConnection({ name: 'other', prefix: 's3://other', options: { region: 'eu-west-1', secret_access_key: 's1' } }),
    );
    expect(optionsOf(connections, bucketOf('other'))).toEqual({ region: 'eu-west-1', secret_access_key: 's1' });
    const kept = resultValue(await api.saveStorageConnection({ name: 'other', prefix: 's3://other', options: { region: 'eu-west-2' } }));
    expect(kept.secretsSet).toEqual(['secret_access_key']);
    expect(optionsOf(connections, bucketOf('other'))).toEqual({ region: 'eu-west-2', secret_access_key: 's1' });
    const listed = resultValue(await api.listStorageConnections());
    expect(JSON.stringify(listed)).not.toContain('s1"');
    expect(listed.secretsSaved).toBe(true);
    expect(listed.options.find((o) => o.name === 'secret_access_key')).toMatchObject({ secret: true, kinds: ['s3'] });
    resultValue(
      await api.saveStorageConnection({ name: 'other', prefix: 's3://other', options: { region: 'eu-west-2', secret_access_key: '' } }),
    );
    expect(optionsOf(connections, bucketOf('other'))).toEqual({ region: 'eu-west-2' });
    const taken = await api.saveStorageConnection({ name: 'twin', prefix: 's3://other', options: {} });
    expect(taken).toEqual({
      ok: false,
      error: { code: 'VALIDATION', message: 'the storage connection "other" already applies to s3://other' },
    });
    resultValue(await api.deleteStorageConnection({ name: 'other' }));
    expect(optionsOf(connections, bucketOf('other'))).toEqual({});
    expect(await api.deleteStorageConnection({ name: 'other' })).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'no storage connection named "other"' },
    });
  });

  it('starts with a saved connection it cannot use left out, and the others registered', () => {
    const other = AppState.open(path.join(dir, 'other.db'), { encryptor: null });
    other.storageConnections.save({ name: 'future', prefix: 's3://future', options: { colour: 'blue' }, secrets: {} });
    other.storageConnections.save({ name: 'eu', prefix: 's3://eu', options: { region: 'eu-central-1' }, secrets: {} });
    const started = new StorageConnections(other);
    expect([optionsOf(started, bucketOf('future')), optionsOf(started, bucketOf('eu'))]).toEqual([{}, { region: 'eu-central-1' }]);
    other.close();
  });

  it('reads a table in S3 on the shared worker and in an export job, with the secret in no message or record', async (ctx: TestContext) => {
    if (!s3) return ctx.skip(`S3 skipped: ${skipReason}`);
    const table = 's3://lake/simple_table';
    const connection = {
      name: 'moto',
      prefix: 's3://lake',
      options: { endpoint: s3.endpoint, region: 'us-east-1', path_style: 'true', access_key_id: s3.accessKeyId },
    };
    const wrong = 'wrong-secret-9f8e7d';
    resultValue(await api.saveStorageConnection({ ...connection, options: { ...connection.options, secret_access_key: wrong } }));
    const refused = await api.openTable({ path: table });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain(wrong);

    resultValue(
      await api.saveStorageConnection({ ...connection, options: { ...connection.options, secret_access_key: s3.secretAccessKey } }),
    );
    const info = resultValue(await api.openTable({ path: table }));
    const expected = await duckdbRows(tablePath('simple_table'), info.version, 'true', ['id']);
    expect(info.schema.fields.map((f) => f.name)).toEqual(['id']);
    const preview = resultValue(await api.preview({ source: { tablePath: table }, limit: 100 }));
    expect(preview.rows.map((r) => String(r[0])).sort()).toEqual(expected.rows);

    // An export runs in a thread of its own, started after the connection was saved.
    const out = path.join(dir, 'simple.csv');
    const job = resultValue(await api.startExport({ source: { tablePath: table }, sink: { kind: 'csv', path: out } }));
    const done = await jobs.wait(job.id);
    expect([done.state, done.error]).toEqual(['succeeded', null]);
    const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(lines.slice(1).sort()).toEqual(expected.rows);

    // A target in the connection's bucket is written with the connection's settings too (the server's own API reads it).
    const upload = resultValue(
      await api.startExport({ source: { tablePath: table }, sink: { kind: 'csv', path: 's3://lake/exports/simple.csv' } }),
    );
    expect(await jobs.wait(upload.id)).toMatchObject({ state: 'succeeded', error: null });
    const uploaded = new TextDecoder().decode((await s3.getObject('lake', 'exports/simple.csv')) ?? new Uint8Array());
    expect(uploaded.trim().split('\n').slice(1).sort()).toEqual(expected.rows);
    for (const secret of [s3.secretAccessKey, wrong]) {
      expect(JSON.stringify(state.jobHistory())).not.toContain(secret);
      expect(JSON.stringify(resultValue(await api.listStorageConnections()))).not.toContain(secret);
    }
  }, 120_000);
});
