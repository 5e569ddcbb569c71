// `npm run bench -- --only postgres`: the wide table into PostgreSQL by `psql \copy` BINARY (the server's own binary
// COPY file, one connection), DuckDB (delta_scan + its postgres extension) and Deltaport over 1 and 2 connections,
// taking turns round by round (tool-rounds.ts), with each one's process CPU, peak RSS and the server's CPU for it.
// Issue 34's target: Deltaport over 2 connections at least 1.3x DuckDB's rows/s and 1.0x one psql.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { runCli, runPython, type ChildRun } from './child-run.js';
import { PG_COLUMNS, writeCsv, type RowSource } from './limits.js';
import type { ServerCpu } from './server-cpu.js';
import { toolRounds, type Tool } from './tool-rounds.js';

const execFileAsync = promisify(execFile);

/** The Markdown table of `rounds` interleaved rounds. */
export async function postgresConnectionRows(
  dir: string,
  databaseUrl: string,
  wide: { root: string; liveRows: number },
  source: RowSource,
  meter: ServerCpu | { error: string },
  rounds: number,
  log: (line: string) => void,
): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const psql = (args: string[]) => execFileAsync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-q', ...args], { maxBuffer: 1 << 20 });
  // The server writes the binary COPY file itself, from the same rows as CSV: the limit owes nothing to Deltaport.
  const csv = path.join(dir, 'connections.csv');
  const binary = path.join(dir, 'connections.bin');
  await writeCsv(csv, source);
  await client.query(`CREATE TABLE connections_limit (${PG_COLUMNS})`);
  await psql([
    '-c',
    `\\copy connections_limit FROM '${csv}' WITH (FORMAT csv)`,
    '-c',
    `\\copy connections_limit TO '${binary}' WITH (FORMAT binary)`,
  ]);
  await client.query('DROP TABLE connections_limit');
  // Each turn loads into a new table, counted and dropped at once: 2M fresh rows would set autovacuum going for the
  // next turn.
  const load = async (turn: string, run: (table: string) => Promise<ChildRun>) => {
    const table = `connections_${turn}`;
    let serverSeconds: number | null = null;
    let result: ChildRun;
    if (typeof meter === 'function') {
      const stop = await meter();
      result = await run(table);
      serverSeconds = await stop();
    } else result = await run(table);
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    await client.query(`DROP TABLE ${table}`);
    return { run: result, landed: Number(rows[0].n), serverSeconds };
  };
  const deltaport = (connections: number): Tool => ({
    name: `Deltaport --connections ${connections}`,
    rows: wide.liveRows,
    load: (turn) =>
      load(turn, (table) => runCli(['export', wide.root, '--sink', databaseUrl, '--target', table, '--connections', String(connections)])),
  });
  const tools: Tool[] = [
    {
      name: '`psql \\copy` BINARY',
      // psql's file holds every row written, deleted or not.
      rows: source.rows,
      load: (turn) =>
        load(turn, async (table) => {
          await client.query(`CREATE TABLE ${table} (${PG_COLUMNS})`);
          const started = performance.now();
          await psql(['-c', `\\copy ${table} FROM '${binary}' WITH (FORMAT binary)`]);
          return { ms: performance.now() - started, maxRssMb: null, cpuSeconds: null, stdout: '' };
        }),
    },
    {
      name: 'DuckDB `delta_scan` + postgres ext',
      rows: wide.liveRows,
      load: (turn) => load(turn, (table) => runPython('duckdb-export.py', [wide.root, 'postgres', databaseUrl, table])),
    },
    deltaport(1),
    deltaport(2),
  ];
  try {
    return await toolRounds(`wide table, ${wide.liveRows.toLocaleString('en')} rows`, tools, rounds, log);
  } finally {
    await client.end();
  }
}
