// Data files that cannot be read, made for real: copies of shared tables with bytes flipped inside one column's data
// page (where DuckDB's parquet_metadata says that chunk lies), a file without read permission (the reader runs as
// the unprivileged `nobody`, since tests run as root), a folder where a file should be. Each must end as one line
// naming the file and the cause, in the API, the CLI's own process and serve's worker, and a decoder that trapped
// must not be used again (a later read in the same process works).
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/api.js';
import { wasmInstance } from '../../../electron/delta/engine/parquet-wasm-instance.js';
import { scan } from '../../../electron/delta/scan/scan.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { startServe, type ServedApp } from '../../support/serve.js';
import { tablePath } from '../../support/tables.js';
import { scratchFolders } from './log-files.js';
import { RUN_SOURCES } from '../../support/source-workers.js';
import { localReads } from '../../support/task-tables.js';

const root = path.resolve(import.meta.dirname, '../../..');
const BIN = [...RUN_SOURCES, 'electron/cli/bin.ts'];
const scratch = scratchFolders('unreadable');
afterAll(() => scratch.removeAll());

interface Corrupted {
  table: string;
  file: string;
  column: string;
}

/** A copy of COVID-19_NYT whose first file has 16 bytes flipped in a data page of one column chunk: in the first
 * page's header (what a preview of the first rows decodes too), or in the middle of the chunk's compressed values. */
async function corruptedCopy(column = 'cases', where: 'first page' | 'middle' = 'first page'): Promise<Corrupted> {
  const table = path.join(scratch.make(), 'covid');
  cpSync(tablePath('COVID-19_NYT'), table, { recursive: true });
  chmodSync(table, 0o755);
  const name = readdirSync(table)
    .filter((n) => n.endsWith('.parquet'))
    .sort()[0];
  const file = path.join(table, name);
  chmodSync(file, 0o644);
  const [chunk] = await duck(
    `select data_page_offset::bigint as at, total_compressed_size::bigint as size from parquet_metadata(${sqlText(file)}) ` +
      `where row_group_id = 0 and path_in_schema = ${sqlText(column)}`,
  );
  const bytes = readFileSync(file);
  const at = Number(chunk.at) + (where === 'first page' ? 4 : Math.floor(Number(chunk.size) / 2));
  for (let i = 0; i < 16; i++) bytes[at + i] ^= 0xff;
  writeFileSync(file, bytes);
  return { table, file, column };
}

async function readAll(tableRoot: string): Promise<number> {
  const snapshot = await (await DeltaTable.open(tableRoot, localReads)).snapshot();
  let rows = 0;
  for await (const { batch } of scan(snapshot, { engine: localReads })) rows += batch.numRows;
  return rows;
}

function deltaport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...BIN, ...args], { cwd: root }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

describe('a data file with a corrupt page', () => {
  it('fails the scan with one line naming the file and the column, and the next read works', async () => {
    const bad = await corruptedCopy();
    const before = wasmInstance();
    await expect(readAll(bad.table)).rejects.toMatchObject({
      code: 'CORRUPT_DATA',
      message: `cannot read data file ${bad.file}: corrupt page in column '${bad.column}'`,
    });
    expect(before.broken).toBe(true);
    expect(wasmInstance()).not.toBe(before);
    // The same process goes on reading: the trapped WebAssembly instance was replaced.
    const [{ n }] = await duck(
      `select count(*)::int as n from read_parquet(${sqlText(path.join(tablePath('COVID-19_NYT'), '*.parquet'))})`,
    );
    expect(await readAll(tablePath('COVID-19_NYT'))).toBe(n);
  });

  it('names the column of the page, whichever it is, also when the bad bytes are among its values', async () => {
    const bad = await corruptedCopy('county', 'middle');
    await expect(readAll(bad.table)).rejects.toMatchObject({
      message: `cannot read data file ${bad.file}: corrupt page in column 'county'`,
    });
  });

  it('ends preview and export in their own process with one line on stderr and no leftover file', async () => {
    const bad = await corruptedCopy();
    const expected = `deltaport: cannot read data file ${bad.file}: corrupt page in column '${bad.column}'\n`;
    const preview = await deltaport('preview', bad.table, '--limit', '5');
    expect(preview).toEqual({ code: 1, stdout: '', stderr: expected });
    const out = scratch.make();
    for (const sink of ['csv:x.csv', 'jsonl:x.jsonl', 'parquet:x.parquet']) {
      const [kind, name] = sink.split(':');
      const run = await deltaport('export', bad.table, '--sink', `${kind}:${path.join(out, name)}`);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(expected);
    }
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('serve', () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await startServe();
  });
  afterAll(() => app.stop());

  async function call<T>(method: string, body: unknown): Promise<Result<T>> {
    const url = new URL(app.url);
    const res = await fetch(`${url.origin}/api/${method}`, {
      method: 'POST',
      headers: { 'X-Deltaport-Token': url.searchParams.get('token')! },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Result<T>;
  }

  it('answers a preview of a corrupt file with the one-line error, and its worker goes on serving', async () => {
    const bad = await corruptedCopy();
    const failed = await call('preview', { source: { tablePath: bad.table }, limit: 50 });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'CORRUPT_DATA', message: `cannot read data file ${bad.file}: corrupt page in column '${bad.column}'` },
    });
    const fine = await call<{ rows: unknown[] }>('preview', { source: { tablePath: tablePath('COVID-19_NYT') }, limit: 50 });
    expect(fine.ok && fine.value.rows.length).toBe(50);
    expect(app.stderr()).not.toMatch(/RuntimeError|unreachable/);
  });
});

describe('a data file that cannot be opened', () => {
  function copyOf(name: string): { table: string; file: string } {
    const table = path.join(scratch.make(), name);
    cpSync(tablePath(name), table, { recursive: true });
    spawnSync('chmod', ['-R', 'a+rX,u+w', path.dirname(table)]);
    const file = path.join(
      table,
      readdirSync(table)
        .filter((n) => n.endsWith('.parquet'))
        .sort()[0],
    );
    return { table, file };
  }

  // Tests run as root, whom no permission bit stops: the CLI runs as `nobody`, which can read the code and the
  // table but not the one file made unreadable.
  const nobody = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, '-e', '0']);
  it.skipIf(nobody.status !== 0)('says permission denied (run as nobody: setpriv)', () => {
    const { table, file } = copyOf('simple_table');
    chmodSync(file, 0o000);
    const run = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, ...BIN, 'preview', table], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, HOME: '/tmp' },
    });
    expect({ code: run.status, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: `deltaport: cannot read data file ${file}: permission denied\n`,
    });
  });

  it('says a folder is not a file', async () => {
    const { table, file } = copyOf('simple_table');
    rmSync(file);
    mkdirSync(file);
    await expect(readAll(table)).rejects.toMatchObject({
      code: 'CORRUPT_DATA',
      message: `cannot read data file ${file}: it is a folder, not a file`,
    });
  });
});

describe('reads at the same time as a trap', () => {
  it('of sound files succeed; only the corrupt file fails', async () => {
    const bad = await corruptedCopy();
    const sound = tablePath('COVID-19_NYT');
    const results = await Promise.allSettled([readAll(sound), readAll(bad.table), readAll(sound)]);
    const [{ n }] = await duck(`select count(*)::int as n from read_parquet(${sqlText(path.join(sound, '*.parquet'))})`);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      n,
      `cannot read data file ${bad.file}: corrupt page in column '${bad.column}'`,
      n,
    ]);
  });
});
