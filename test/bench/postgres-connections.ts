// `npm run bench -- --only postgres`: the wide table into PostgreSQL by `psql \copy` BINARY (the server's own binary
// COPY file, one connection), DuckDB (delta_scan + its postgres extension) and Deltaport over 1 and 2 connections,
// taking turns round by round (each round in another order), with each one's process CPU, peak RSS and the server's
// CPU for it. Issue 34's target: Deltaport over 2 connections at least 1.3x DuckDB's rows/s and 1.0x one psql.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { runCli, runPython, type ChildRun } from './child-run.js';
import { PG_COLUMNS, writeCsv, type RowSource } from './limits.js';
import type { ServerCpu } from './server-cpu.js';

const execFileAsync = promisify(execFile);

interface Tool {
  name: string;
  /** The rows it loads: psql's file holds every row written, deleted or not. */
  rows: number;
  /** Loads the rows into `table` (which does not exist yet); the run's time and usage. */
  run(table: string): Promise<ChildRun>;
}

interface Sample {
  rowsPerSec: number;
  cpuSeconds: number | null;
  rssMb: number | null;
  serverSeconds: number | null;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

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
  const deltaport = (connections: number): Tool => ({
    name: `Deltaport --connections ${connections}`,
    rows: wide.liveRows,
    run: (table) => runCli(['export', wide.root, '--sink', databaseUrl, '--target', table, '--connections', String(connections)]),
  });
  const tools: Tool[] = [
    {
      name: '`psql \\copy` BINARY',
      rows: source.rows,
      async run(table) {
        await client.query(`CREATE TABLE ${table} (${PG_COLUMNS})`);
        const started = performance.now();
        await psql(['-c', `\\copy ${table} FROM '${binary}' WITH (FORMAT binary)`]);
        return { ms: performance.now() - started, maxRssMb: null, cpuSeconds: null, stdout: '' };
      },
    },
    {
      name: 'DuckDB `delta_scan` + postgres ext',
      rows: wide.liveRows,
      run: (table) => runPython('duckdb-export.py', [wide.root, 'postgres', databaseUrl, table]),
    },
    deltaport(1),
    deltaport(2),
  ];
  const samples: Sample[][] = tools.map(() => []);
  try {
    for (let round = 0; round < rounds; round++) {
      for (let turn = 0; turn < tools.length; turn++) {
        const t = (turn + round) % tools.length;
        const table = `connections_${t}`;
        let serverSeconds: number | null = null;
        let run: ChildRun;
        if (typeof meter === 'function') {
          const stop = await meter();
          run = await tools[t].run(table);
          serverSeconds = await stop();
        } else run = await tools[t].run(table);
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
        if (Number(rows[0].n) !== tools[t].rows) throw new Error(`${tools[t].name} loaded ${rows[0].n} of ${tools[t].rows} rows`);
        // Dropped at once: 2M fresh rows would set autovacuum going for the next turn.
        await client.query(`DROP TABLE ${table}`);
        const sample = { rowsPerSec: tools[t].rows / (run.ms / 1000), cpuSeconds: run.cpuSeconds, rssMb: run.maxRssMb, serverSeconds };
        samples[t].push(sample);
        log(
          `round ${round + 1}, ${tools[t].name}: ${Math.round(sample.rowsPerSec)} rows/s, server CPU ${serverSeconds?.toFixed(2) ?? '-'} s`,
        );
      }
    }
  } finally {
    await client.end();
  }
  const two = samples[tools.length - 1];
  /** Same-round ratios of Deltaport over 2 connections to a tool: their median and range. */
  const ratio = (t: number) => {
    const r = two.map((s, i) => s.rowsPerSec / samples[t][i].rowsPerSec);
    return `${median(r).toFixed(2)} (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)})`;
  };
  const figure = (values: (number | null)[], digits: number) =>
    values.every((v) => v !== null) ? median(values as number[]).toFixed(digits) : '-';
  const lines = [
    `| tool (wide table, ${wide.liveRows.toLocaleString('en')} rows, ${rounds} rounds) | rows/s, median | process CPU s | peak RSS MB | server CPU s | --connections 2 / tool, same-round median |`,
    '|---|---:|---:|---:|---:|---:|',
    ...tools.map(
      (tool, t) =>
        `| ${tool.name} | ${Math.round(median(samples[t].map((s) => s.rowsPerSec))).toLocaleString('en')} | ${figure(
          samples[t].map((s) => s.cpuSeconds),
          2,
        )} | ${figure(
          samples[t].map((s) => s.rssMb),
          0,
        )} | ${figure(
          samples[t].map((s) => s.serverSeconds),
          2,
        )} | ${t === tools.length - 1 ? '' : ratio(t)} |`,
    ),
  ];
  return lines.join('\n');
}
