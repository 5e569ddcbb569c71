// The built `deltaport sql` in new processes (dist/, as `npm test` builds it): the two queries answered as DuckDB
// reads the live data files, with DuckDB's JavaScript API taken from the bundle (of node_modules' CommonJS, only its
// native binding's loader is read: each file of the API imported from an ES module was parsed again for its exports),
// and a second start taking the sql command's and DuckDB's API's compiled code from Node's compile cache. What each
// process loaded is read from Node's own module cache as it exits; nothing here depends on timing.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataFile, liveFiles } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { tablePath } from '../../support/tables.js';

const BIN = path.resolve(import.meta.dirname, '../../../dist/electron/cli/bin.js');
const COVID = tablePath('COVID-19_NYT');
const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-bin-sql-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Loaded with --require: writes the files of Node's CommonJS module cache to $MODULES_OUT as the process exits. */
const LIST_MODULES = path.join(scratch, 'list-modules.cjs');
writeFileSync(
  LIST_MODULES,
  "process.on('exit', () => require('fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(Object.keys(require('module')._cache))));\n",
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The CommonJS files the process loaded. */
  modules: string[];
}

function sql(query: string, env: NodeJS.ProcessEnv): Promise<Run> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const out = path.join(scratch, `modules-${Math.random().toString(36).slice(2)}.json`);
  const args = ['--require', LIST_MODULES, BIN, 'sql', COVID, query, '--format', 'csv'];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env: { ...process.env, ...env, MODULES_OUT: out } }, (err, stdout, stderr) => {
      const modules = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as string[]) : [];
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr, modules });
    });
  });
}

async function liveParquet(): Promise<string> {
  return `read_parquet([${(await liveFiles(COVID)).map((a) => sqlText(dataFile(COVID, a))).join(', ')}])`;
}

/** The bundle's chunk that holds DuckDB's JavaScript API (rolldown marks each bundled module with its path). */
function duckdbApiChunk(): string {
  const chunks = path.join(path.dirname(BIN), '../chunks');
  const holding = readdirSync(chunks).filter((file) =>
    readFileSync(path.join(chunks, file), 'utf8').includes('node_modules/@duckdb/node-api/lib/DuckDBInstance.js'),
  );
  expect(holding).toHaveLength(1);
  return holding[0];
}

/** The package a file of node_modules belongs to ('@scope/name' or 'name'). */
function packageOf(file: string): string | null {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  return match ? match[1] : null;
}

describe('deltaport sql as a new process', () => {
  it("answers the issue's GROUP BY and filtered count as DuckDB reads the live files", async () => {
    const cache = { NODE_COMPILE_CACHE: path.join(scratch, 'cache-answers') };
    const grouped = await sql('SELECT state, sum(cases)::BIGINT AS cases FROM t GROUP BY state ORDER BY state', cache);
    expect(grouped.stderr).toBe('');
    expect(grouped.code).toBe(0);
    const expected = await duck<{ state: string; cases: bigint }>(
      `SELECT state, sum(cases)::BIGINT AS cases FROM ${await liveParquet()} GROUP BY state ORDER BY state`,
    );
    expect(expected.length).toBeGreaterThan(50);
    expect(grouped.stdout).toBe(['state,cases', ...expected.map((r) => `${r.state},${r.cases}`)].join('\n') + '\n');

    const count = await sql("SELECT count(*)::INTEGER AS n FROM t WHERE state = 'Ohio'", cache);
    const [ohio] = await duck<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${await liveParquet()} WHERE state = 'Ohio'`);
    expect(ohio.n).toBeGreaterThan(0);
    expect(count.stdout).toBe(`n\n${ohio.n}\n`);
  });

  it("reads times as text in UTC, whatever the machine's time zone", async () => {
    const query = "SELECT CAST(TIMESTAMPTZ '2024-01-01 00:00:00+02' AS VARCHAR) AS at FROM t LIMIT 1";
    const run = await sql(query, { TZ: 'America/New_York', NODE_COMPILE_CACHE: path.join(scratch, 'cache-zone') });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('at\n2023-12-31 22:00:00+00\n');
  });

  it("loads DuckDB's JavaScript API from the bundle: of node_modules, only its native binding's loader", async () => {
    const run = await sql('SELECT count(*) AS n FROM t', { NODE_COMPILE_CACHE: path.join(scratch, 'cache-modules') });
    expect(run.code).toBe(0);
    expect(run.modules.length).toBeGreaterThan(0);
    const packages = new Set(run.modules.map(packageOf).filter((p) => p !== null));
    expect(packages).toContain('@duckdb/node-bindings');
    expect(packages).not.toContain('@duckdb/node-api');
    // The binding's loader, the platform's binary and what the loader asks which C library this is.
    const others = [...packages].filter((p) => !p.startsWith('@duckdb/node-bindings'));
    expect(others).toEqual(['detect-libc']);
  });

  it("takes the sql command's and DuckDB's API's compiled code from the compile cache on a second start", async () => {
    const cache = { NODE_COMPILE_CACHE: path.join(scratch, 'cache-second') };
    expect((await sql('SELECT 1 AS one FROM t LIMIT 1', cache)).code).toBe(0);
    const second = await sql('SELECT 1 AS one FROM t LIMIT 1', { ...cache, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('one\n1\n');
    const accepted = [...second.stderr.matchAll(/cache for (\S+) was accepted/g)].map((m) => path.basename(m[1]));
    expect(accepted.some((file) => file.startsWith('sql-command-'))).toBe(true);
    expect(accepted.some((file) => file.startsWith('sql-engine-'))).toBe(true);
    expect(accepted).toContain(duckdbApiChunk());
    // Node's trace names every module the process compiled: printing rows loads nothing of the export.
    const compiled = [...second.stderr.matchAll(/cache for (\S+)/g)].map((m) => path.basename(m[1]));
    expect(compiled).toEqual(expect.arrayContaining(accepted));
    expect(compiled.filter((file) => /^(export-command|run-export|sql-statements|emit-spark-job)-/.test(file))).toEqual([]);
  });
});
