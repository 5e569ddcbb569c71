// GCS the way other tools configure it, through the real executable and fake-gcs-server: STORAGE_EMULATOR_HOST as
// gcloud, Google's Python and Go SDKs and fake-gcs-server's docs write it (http://host:port), with the JSON API's
// /storage/v1, and host:port without a scheme, and the storage option endpoint; each export writes the rows DuckDB
// reads from the local table and prints nothing on stderr (Google's download stream used to make Node warn
// MaxListenersExceededWarning there on every read).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitVersions } from '../../support/delta-oracle.js';
import { duckdbRows } from '../../support/delta-oracle-rows.js';
import { uploadFolder } from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';
import { RUN_SOURCES } from '../../support/source-workers.js';
import { tablePath } from '../../support/tables.js';

const root = path.resolve(import.meta.dirname, '../../..');
const TABLE = tablePath('COVID-19_NYT');
const COLUMNS = ['date', 'state', 'cases'];
const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-gcs-host-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function deltaport(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const childEnv = { ...process.env, ...env };
    if (!('STORAGE_EMULATOR_HOST' in env)) delete childEnv.STORAGE_EMULATOR_HOST;
    execFile(process.execPath, [...RUN_SOURCES, 'electron/cli/bin.ts', ...args], { cwd: root, env: childEnv }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe('GCS configured as other tools configure it', () => {
  const suite = serverForSuite(
    SERVERS.find((s) => s.name.startsWith('GCS'))!,
    async (store) => {
      await store.createBucket('lake');
      await uploadFolder(store, 'lake', 'covid', TABLE, { spaced: false });
    },
  );

  const forms: [string, (endpoint: string) => { env: Record<string, string>; flags: string[] }][] = [
    ['STORAGE_EMULATOR_HOST=http://host:port', (e) => ({ env: { STORAGE_EMULATOR_HOST: e }, flags: [] })],
    ['STORAGE_EMULATOR_HOST=http://host:port/storage/v1', (e) => ({ env: { STORAGE_EMULATOR_HOST: `${e}/storage/v1` }, flags: [] })],
    ['STORAGE_EMULATOR_HOST=host:port', (e) => ({ env: { STORAGE_EMULATOR_HOST: e.replace(/^http:\/\//, '') }, flags: [] })],
    ['--storage-option endpoint=http://host:port', (e) => ({ env: {}, flags: ['--storage-option', `endpoint=${e}`] })],
  ];
  for (const [name, form] of forms) {
    it(`exports with ${name}, printing nothing on stderr`, async (ctx) => {
      suite.skipIfUnavailable(ctx);
      const { env, flags } = form(suite.store.kind === 'gcs' ? suite.store.endpoint : '');
      const out = path.join(scratch, `${name.replace(/[^a-z0-9]+/gi, '-')}.csv`);
      const run = await deltaport(env, 'export', 'gs://lake/covid', ...flags, '--columns', COLUMNS.join(','), '--sink', `csv:${out}`);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const [header, ...rows] = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(header).toBe(COLUMNS.join(','));
      const expected = await duckdbRows(TABLE, Math.max(...commitVersions(TABLE)), 'true', COLUMNS);
      expect(rows.map((row) => row.replaceAll(',', '|')).sort()).toEqual(expected.rows);
    }, 120_000);
  }
});
