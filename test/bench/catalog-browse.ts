// Issue 31's "expanding a catalog schema with 1,000 entries": a measurement run by hand, apart from `npm run bench`
// (making the tables alone takes about 100 s on the 2-core test machine). A real Unity Catalog server on loopback
// (test/support/unity-catalog.ts) gets one schema of TABLES external Delta tables, made through its own REST API;
// then, in turn:
// - the server's floor: the same pages the app asks for, by plain fetch calls to its REST API;
// - the navigator: a running `deltaport serve` (test/support/serve.ts), the catalog connection saved through its API,
//   expanding the connection and the catalog, then the schema's first page and every "Load more" after it, each a
//   whole POST /api/browseCatalog round trip; in a new process each round (cold) and again in the same one (warm);
// - `deltaport tables uc://<catalog>.<schema>` as its own process, whole.
// Prints the medians as one JSON object. Needs `npm run build`. Run: npx tsx test/bench/catalog-browse.ts
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BrowsePage } from '../../shared/browse.js';
import { isSkipped } from '../support/object-stores.js';
import { apiValue, startServe, type ServedApp } from '../support/serve.js';
import { startUnityCatalog, type UnityCatalogServer } from '../support/unity-catalog.js';

const TABLES = 1000;
const ROUNDS = 5;
/** Requests to the server at once while the tables are made. */
const AT_ONCE = 8;
const CATALOG = 'big';
const SCHEMA = 'many';
const CONNECTION = 'bench';
const CLI_BIN = path.resolve(import.meta.dirname, '../../dist/electron/cli/bin.js');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round1 = (ms: number) => Math.round(ms * 10) / 10;

async function makeTables(uc: UnityCatalogServer): Promise<void> {
  await uc.api('POST', '/catalogs', { name: CATALOG });
  await uc.api('POST', '/schemas', { name: SCHEMA, catalog_name: CATALOG });
  let next = 0;
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < TABLES) {
        const name = `t_${String(next++).padStart(4, '0')}`;
        // Each table needs a folder of its own (the server refuses two over one); none is read.
        await uc.api('POST', '/tables', {
          name,
          catalog_name: CATALOG,
          schema_name: SCHEMA,
          table_type: 'EXTERNAL',
          data_source_format: 'DELTA',
          storage_location: `file:///nowhere/${SCHEMA}/${name}`,
          columns: [],
        });
      }
    }),
  );
}

/** The server's own listing of the schema, page by page as the app asks for it: each page's time and names. */
async function serverPages(uc: UnityCatalogServer): Promise<{ ms: number[]; names: string[] }> {
  const ms: number[] = [];
  const names: string[] = [];
  let token: string | undefined;
  do {
    const query = new URLSearchParams({ catalog_name: CATALOG, schema_name: SCHEMA, max_results: '1000' });
    if (token) query.set('page_token', token);
    const started = performance.now();
    const page = await uc.api<{ tables?: { name: string }[]; next_page_token?: string }>('GET', `/tables?${query}`);
    ms.push(performance.now() - started);
    names.push(...(page.tables ?? []).map((t) => t.name));
    token = page.next_page_token || undefined;
  } while (token);
  return { ms, names };
}

/** The navigator's calls for the schema: its first page, then every "Load more"; each call's time and the names. */
async function navigatorPages(served: ServedApp): Promise<{ ms: number[]; names: string[] }> {
  const ms: number[] = [];
  const names: string[] = [];
  let page: string | undefined;
  do {
    const started = performance.now();
    const listed = await apiValue<BrowsePage>(served, 'browseCatalog', {
      location: `uc://${CONNECTION}/${CATALOG}.${SCHEMA}`,
      ...(page ? { page } : {}),
    });
    ms.push(performance.now() - started);
    names.push(...listed.entries.map((e) => e.name));
    page = listed.nextPage ?? undefined;
  } while (page);
  return { ms, names };
}

/** `deltaport tables` in a process of its own, spawn to exit. */
function cliTables(uc: UnityCatalogServer): Promise<{ ms: number; names: string[] }> {
  const args = ['tables', `uc://${CATALOG}.${SCHEMA}`, '--catalog-option', `endpoint=${uc.endpoint}`, '--json'];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(CLI_BIN, args, { env: { ...process.env, UC_TOKEN: uc.adminToken }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`deltaport tables exited ${code}: ${err.trim()}`));
      resolve({ ms, names: (JSON.parse(out) as { name: string }[]).map((t) => t.name) });
    });
  });
}

function sameNames(what: string, names: string[], expected: string[]): void {
  if (names.length !== expected.length || names.some((n, i) => n !== expected[i]))
    throw new Error(`${what} listed ${names.length} tables, not the server's ${expected.length}`);
}

async function main(): Promise<void> {
  const uc = await startUnityCatalog();
  if (isSkipped(uc)) throw new Error(uc.skipped);
  try {
    let started = performance.now();
    await makeTables(uc);
    console.error(`made ${TABLES} tables in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // The server's first listing of the schema, before anything else asked it anything.
    const firstEver = await serverPages(uc);
    const expected = firstEver.names;
    if (expected.length !== TABLES) throw new Error(`the server listed ${expected.length} tables`);

    // The floor and the navigator take turns, so that both meet the server in the same state.
    const floor = [];
    const cold = [];
    const warm = [];
    const ancestors = [];
    const serveAlone = [];
    for (let i = 0; i < ROUNDS; i++) {
      const served = await startServe();
      try {
        await apiValue(served, 'saveCatalogConnection', {
          name: CONNECTION,
          kind: 'unity',
          options: { endpoint: uc.endpoint, token: uc.adminToken },
        });
        // What the navigator lists before the schema: the connection's catalogs, then the catalog's schemas.
        started = performance.now();
        await apiValue(served, 'browseCatalog', { location: `uc://${CONNECTION}` });
        await apiValue(served, 'browseCatalog', { location: `uc://${CONNECTION}/${CATALOG}` });
        ancestors.push(performance.now() - started);
        cold.push(await navigatorPages(served));
        for (let j = 0; j < ROUNDS; j++) {
          floor.push(await serverPages(uc));
          // A call that asks the catalog nothing: the cost of the round trip to `deltaport serve` itself.
          const asked = performance.now();
          await apiValue(served, 'listCatalogConnections');
          serveAlone.push(performance.now() - asked);
          warm.push(await navigatorPages(served));
        }
      } finally {
        await served.stop();
      }
    }
    for (const walk of [...floor, ...cold, ...warm]) sameNames('a listing', walk.names, expected);

    const cli = [];
    for (let i = 0; i < ROUNDS; i++) {
      const run = await cliTables(uc);
      sameNames('deltaport tables', run.names, expected);
      cli.push(run.ms);
    }

    type Walk = { ms: number[] };
    const figures = (walks: Walk[]) => ({
      pages: walks[0].ms.length,
      firstPageMs: round1(median(walks.map((w) => w.ms[0]))),
      laterPageMs: round1(median(walks.flatMap((w) => w.ms.slice(1)))),
      allPagesMs: round1(median(walks.map((w) => w.ms.reduce((a, b) => a + b, 0)))),
      byPageMs: walks[0].ms.map((_, page) => round1(median(walks.map((w) => w.ms[page])))),
    });
    console.log(
      JSON.stringify(
        {
          tables: TABLES,
          rounds: ROUNDS,
          server: { ...figures(floor), firstEverMs: round1(firstEver.ms[0]) },
          navigatorCold: { ...figures(cold), catalogAndSchemasMs: round1(median(ancestors)) },
          navigatorWarm: figures(warm),
          serveRoundTripMs: round1(median(serveAlone)),
          cliTablesMs: round1(median(cli)),
        },
        null,
        2,
      ),
    );
  } finally {
    await uc.stop();
  }
}

await main();
