// `npm run bench [-- --quick] [-- --json PATH]`: writes the benchmark tables into a temporary folder, measures the
// machine's limits and Deltaport on the same rows, and prints a Markdown table (see report.ts). Figures are printed,
// never asserted: the run exits 0 even when a target is missed or a piece (PostgreSQL, say) is unavailable.
// `--only sql` writes only the wide table and prints only the SQL rows (sql-queries.ts); `--only postgres` only the
// PostgreSQL rows over 1 and 2 connections beside psql and DuckDB (postgres-connections.ts); `--only sqlite` only the
// SQLite export beside its two peers, round by round (sqlite-peers.ts). `--scale` (not with
// --quick) adds the scale cases (scale-cases.ts), `--write-scale-log` lets them write delta-rs's 100,000-commit log;
// `--only scale-log` (not with --quick) measures that log alone.
// Hidden overrides for development: --rows N --files N --commits N --keep (leave the temporary folder).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import type { ExportRequest } from '../../shared/api.js';
import { DEFAULT_EXECUTION } from '../../shared/sink-spec.js';
import { DeltaTable } from '../../electron/delta/table.js';
import { openParquet } from '../../electron/delta/engine/parquet-file.js';
import { LocalStorage } from '../../electron/storage/local-storage.js';
import { TRANSACTION_BYTES } from '../../electron/sinks/postgres-sink.js';
import { startTask } from '../../electron/jobs/task-worker.js';
import { previewTask } from '../../electron/jobs/tasks.js';
import { taskTables, localReads } from '../support/task-tables.js';
import { createDatabase, startPostgres, type PgServer } from '../support/postgres.js';
import { SEED, writeLongLog, writeWideTable, type WideTable } from './bench-tables.js';
import { catalogOpenCase } from './catalog-open.js';
import { runCli, runPython, type ChildRun } from './child-run.js';
import { exportLag, openLag } from './event-loop-lag.js';
import { sqliteRows } from './landed-rows.js';
import { queryCases } from './filter-sort-diff.js';
import { scaleCases, scaleLogCase } from './scale-cases.js';
import { psqlCopyLimits, sqliteInsertLimit } from './limits.js';
import { longLogPeerCase } from './long-log-peer.js';
import { mariadbExport } from './mariadb-export.js';
import { objectStoreCase } from './object-store.js';
import { PARTITIONED_FILES, writePartitionedTable } from './partitioned-table.js';
import { postgresConnectionRows } from './postgres-connections.js';
import { sqlitePeerRows } from './sqlite-peers.js';
import { serverCpu } from './server-cpu.js';
import { sqlCases } from './sql-queries.js';
import {
  jsonReport,
  longLogTable,
  markdownTable,
  sqlTable,
  PEER_NAMES,
  PEERS,
  type ExportKind,
  type Figure,
  type Figures,
  type PeerFigures,
  type PeerName,
  type PeerSink,
  type ServerRun,
} from './report.js';
import { localEngine } from '../support/task-tables.js';

const CHECKPOINT_INTERVAL = 100;
/** Each peer tool's script in test/bench/ (see the scripts), and the stem of the names of the SQLite file and the
 * PostgreSQL table it creates (each peer its own). */
const PEER_RUNS: Record<PeerName, { script: string; stem: string }> = {
  deltarsAdbc: { script: 'deltars-adbc-export.py', stem: 'deltars_adbc' },
  duckdb: { script: 'duckdb-export.py', stem: 'duckdb' },
};
const PREVIEW_ROWS = 100;
/** dist/test/bench -> ../shared/delta-tables beside the repository. */
const COVID_TABLE = path.resolve(import.meta.dirname, '../../../../shared/delta-tables/COVID-19_NYT');
/** A single process start is at the mercy of whatever else the machine does in that half second. */
const COLD_RUNS = 5;
/** The object-store case's table of many small files (about 235 KB each), the same in both modes. */
const SMALL_FILES_TABLE = { rows: 1_000_000, files: 200 };

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    rows: { type: 'string' },
    files: { type: 'string' },
    commits: { type: 'string' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
    scale: { type: 'boolean', default: false },
    'write-scale-log': { type: 'boolean', default: false },
  },
});
if (args.only !== undefined && !['sql', 'postgres', 'sqlite', 'scale-log'].includes(args.only))
  throw new Error(`--only takes 'sql', 'postgres', 'sqlite' or 'scale-log', got '${args.only}'`);
if (args.scale && args.quick) throw new Error('--scale is for the full benchmark: it writes and exports a 50M-row table');
if (args.only === 'scale-log' && args.quick) throw new Error('--only scale-log is for the full benchmark: it opens a 100,000-commit log');

const size = {
  rows: Number(args.rows ?? (args.quick ? 2_000_000 : 10_000_000)),
  files: Number(args.files ?? (args.quick ? 20 : 100)),
  commits: Number(args.commits ?? (args.quick ? 2_000 : 10_000)),
  partitionedRowsPerFile: args.quick ? 2_000 : 10_000,
};

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Runs one measurement; a failure becomes the figure's reason, never the end of the run. */
async function measure(name: string, fn: () => Promise<number>): Promise<Figure> {
  try {
    const value = await fn();
    log(`${name}: ${value.toFixed(1)}`);
    return { value };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    log(`${name}: not measured (${error})`);
    return { error };
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** The rows of a table in a DuckDB file. */
async function duckdbRows(file: string, table: string): Promise<number> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM "${table}"`);
    return reader.getRowObjectsJS()[0].n as number;
  } finally {
    instance.closeSync();
  }
}

/** Counts the exported rows, then drops the table: left in place, its 10M fresh rows set autovacuum going on the
 * bench's server for the measures that follow (the drop cancels it). */
async function postgresRowsDropped(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`);
    await client.query(`DROP TABLE "${table}"`);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** A process's peak RSS and CPU time as figures. */
function usageFigures(run: ChildRun): Pick<PeerFigures, 'rssMb' | 'cpuSeconds'> {
  const unreported = { error: 'the process did not report it' };
  return {
    rssMb: run.maxRssMb === null ? unreported : { value: run.maxRssMb },
    cpuSeconds: run.cpuSeconds === null ? unreported : { value: run.cpuSeconds },
  };
}

function expectRows(what: string, got: number, want: number): void {
  if (got !== want) throw new Error(`${what} holds ${got} rows, expected ${want}`);
}

/** The queries on COVID-19_NYT (the shared corpus beside the repository) and on the wide table, whose
 * category and quantity play state and cases. */
async function sqlRows(wide: WideTable) {
  return [
    await sqlCases({ name: 'COVID-19_NYT', root: COVID_TABLE, group: 'state', sum: 'cases', value: 'Ohio' }, measure),
    await sqlCases({ name: 'the wide table', root: wide.root, group: 'category', sum: 'quantity', value: 'books' }, measure),
  ];
}

async function main(): Promise<void> {
  if (args.only === 'scale-log') {
    const figures = await scaleLogCase(args['write-scale-log'], log);
    console.log(longLogTable(figures));
    if (args.json) await fs.writeFile(args.json, JSON.stringify(figures, null, 2) + '\n');
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'deltaport-bench-'));
  let server: PgServer | null = null;
  try {
    const setupStarted = performance.now();
    log(`writing ${size.rows} rows in ${size.files} files and a log of ${size.commits} commits into ${dir}`);
    const wide: WideTable = await writeWideTable(dir, size.rows, size.files);
    if (args.only === 'sql') {
      console.log(sqlTable(await sqlRows(wide)));
      return;
    }
    if (args.only === 'postgres') {
      server = await startPostgres();
      const url = await createDatabase(server.url, 'bench');
      const source = { rows: wide.writtenRows, chunkRows: Math.ceil(wide.writtenRows / size.files), seed: SEED };
      const meter = await serverCpu(url);
      console.log(await postgresConnectionRows(dir, url, wide, source, meter, args.quick ? 3 : 5, log));
      return;
    }
    if (args.only === 'sqlite') {
      console.log(await sqlitePeerRows(dir, wide, args.quick ? 3 : 5, log));
      return;
    }
    const longLog = await writeLongLog(dir, size.commits, CHECKPOINT_INTERVAL);
    const partitionedStarted = performance.now();
    const partitioned = await writePartitionedTable(dir, size.partitionedRowsPerFile, SEED);
    log(
      `wrote the partitioned table (${PARTITIONED_FILES} files of ${size.partitionedRowsPerFile} rows) in ` +
        `${((performance.now() - partitionedStarted) / 1000).toFixed(1)} s`,
    );
    let databaseUrl: string | null = null;
    let pgProblem = '';
    try {
      server = await startPostgres();
      databaseUrl = await createDatabase(server.url, 'bench');
    } catch (err) {
      pgProblem = `PostgreSQL unavailable: ${(err as Error).message.split('\n')[0]}`;
      log(pgProblem);
    }
    const serverMeter = databaseUrl
      ? await serverCpu(databaseUrl).catch((err: unknown) => ({ error: (err as Error).message.split('\n')[0] }))
      : { error: pgProblem };
    const notRun = () => ({ error: 'not run' });
    const serverCpuSeconds: Figures['serverCpuSeconds'] = {
      postgres: notRun(),
      postgresExactlyOnce: notRun(),
      psqlBinary: notRun(),
      deltarsAdbc: notRun(),
      duckdb: notRun(),
    };
    /** Runs `work` and records the server's CPU time for it as `run`'s. */
    const onServer = async <T>(run: ServerRun, work: () => Promise<T>): Promise<T> => {
      if (typeof serverMeter !== 'function') {
        serverCpuSeconds[run] = serverMeter;
        return work();
      }
      const stop = await serverMeter();
      const result = await work();
      serverCpuSeconds[run] = await stop().then(
        (value) => ({ value }),
        (err: unknown) => ({ error: (err as Error).message }),
      );
      return result;
    };
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const rowSource = { rows: wide.writtenRows, chunkRows: Math.ceil(wide.writtenRows / size.files), seed: SEED };

    const loadAtStart = os.loadavg()[0];
    let sqliteLimitCpu: Figure = { error: 'not run' };
    const sqliteLimit = await measure('SQLite insert limit, rows/s', async () => {
      const limit = await sqliteInsertLimit(dir, rowSource);
      sqliteLimitCpu = { value: limit.rowsPerCpuSec };
      return limit.rowsPerSec;
    });
    let postgresBinaryLimit: Figure = { error: pgProblem || 'not run' };
    let postgresBatchedLimit: Figure = { error: pgProblem || 'not run' };
    const postgresLimit = databaseUrl
      ? await measure('psql \\copy CSV limit, rows/s', async () => {
          const cut = { rows: DEFAULT_EXECUTION.batchSize, bytes: TRANSACTION_BYTES };
          const limits = await psqlCopyLimits(dir, databaseUrl, rowSource, cut, (load) => onServer('psqlBinary', load));
          postgresBinaryLimit = { value: limits.binaryRowsPerSec };
          postgresBatchedLimit = { value: limits.binaryBatchedRowsPerSec };
          log(`psql \\copy BINARY limit, rows/s: ${limits.binaryRowsPerSec.toFixed(1)}`);
          log(`psql \\copy BINARY in the export's transactions, rows/s: ${limits.binaryBatchedRowsPerSec.toFixed(1)}`);
          return limits.csvRowsPerSec;
        })
      : { error: pgProblem };

    const rssMb: Figures['rssMb'] = {
      sqlite: notRun(),
      postgres: notRun(),
      postgresExactlyOnce: notRun(),
      parquet: notRun(),
      duckdb: notRun(),
    };
    const cpuSeconds: Figures['cpuSeconds'] = {
      sqlite: notRun(),
      postgres: notRun(),
      postgresExactlyOnce: notRun(),
      parquet: notRun(),
      duckdb: notRun(),
    };
    /** Exports the wide table through the CLI; returns rows/s over the whole process. */
    const cliExport = async (kind: ExportKind, sinkArgs: string[], check: () => Promise<number>) => {
      const exportRun = () => runCli(['export', wide.root, ...sinkArgs]);
      const run = await (kind === 'postgres' || kind === 'postgresExactlyOnce' ? onServer(kind, exportRun) : exportRun());
      ({ rssMb: rssMb[kind], cpuSeconds: cpuSeconds[kind] } = usageFigures(run));
      expectRows(`the ${kind} export`, await check(), wide.liveRows);
      return wide.liveRows / (run.ms / 1000);
    };
    const unmeasuredPeer = (error: string): PeerFigures => ({ rowsPerSec: { error }, rssMb: { error }, cpuSeconds: { error } });
    const unmeasuredPeers = (error: string) =>
      Object.fromEntries(PEER_NAMES.map((name) => [name, unmeasuredPeer(error)])) as Record<PeerName, PeerFigures>;
    /** The same export by each peer tool in turn, right after Deltaport's to the same sink, so that their ratios come
     * from one stretch of the machine's load; a failure (Python or its packages missing) is the figures' reason.
     * `into` gives, for a peer's stem, its target (a SQLite file or the database URL), its table, and how to count its
     * rows. */
    const peerExports = async (
      sink: PeerSink,
      into: (stem: string) => { target: string; table: string; check: () => Promise<number> },
    ): Promise<Record<PeerName, PeerFigures>> => {
      const peers = unmeasuredPeers('not run');
      for (const peer of PEER_NAMES) {
        const { script, stem } = PEER_RUNS[peer];
        const { target, table, check } = into(stem);
        let usage: Pick<PeerFigures, 'rssMb' | 'cpuSeconds'> = { rssMb: notRun(), cpuSeconds: notRun() };
        const rowsPerSec = await measure(`${PEERS[peer]} export to ${sink}, rows/s`, async () => {
          const peerRun = () => runPython(script, [wide.root, sink, target, table]);
          const run = await (sink === 'postgres' ? onServer(peer, peerRun) : peerRun());
          usage = usageFigures(run);
          expectRows(`the ${PEERS[peer]} ${sink} export`, await check(), wide.liveRows);
          return wide.liveRows / (run.ms / 1000);
        });
        peers[peer] = 'value' in rowsPerSec ? { rowsPerSec, ...usage } : unmeasuredPeer(rowsPerSec.error);
      }
      return peers;
    };
    const sqliteFile = path.join(dir, 'export.sqlite');
    const sqlite = await measure('export to SQLite, rows/s', () =>
      cliExport('sqlite', ['--sink', `sqlite:${sqliteFile}`, '--target', 'wide'], async () => sqliteRows(sqliteFile, 'wide')),
    );
    // In the same folder as Deltaport's file, a file of each peer's own, in which it creates the table.
    const peerSqlite = await peerExports('sqlite', (stem) => {
      const file = path.join(dir, `${stem}.sqlite`);
      return { target: file, table: 'wide', check: async () => sqliteRows(file, 'wide') };
    });
    const postgres = databaseUrl
      ? await measure('export to PostgreSQL, rows/s', () =>
          cliExport('postgres', ['--sink', databaseUrl, '--target', 'wide'], () => postgresRowsDropped(databaseUrl, 'wide')),
        )
      : { error: pgProblem };
    const peerPostgres = databaseUrl
      ? await peerExports('postgres', (stem) => {
          const table = `wide_${stem}`;
          return { target: databaseUrl, table, check: () => postgresRowsDropped(databaseUrl, table) };
        })
      : unmeasuredPeers(pgProblem);
    const postgresExactlyOnce = databaseUrl
      ? await measure('export to PostgreSQL --exactly-once, rows/s', () =>
          cliExport('postgresExactlyOnce', ['--sink', databaseUrl, '--target', 'wide_once', '--exactly-once'], () =>
            postgresRowsDropped(databaseUrl, 'wide_once'),
          ),
        )
      : { error: pgProblem };
    // MariaDB: printed only (issue 32's target: at least 0.8x of the client's LOAD DATA, peak RSS at most PostgreSQL's).
    await measure('export to MariaDB, rows/s', async () => {
      const figures = await mariadbExport(dir, rowSource, wide.liveRows, (url) =>
        runCli(['export', wide.root, '--sink', url, '--target', 'wide']),
      );
      log(`mariadb client LOAD DATA LOCAL INFILE of the same rows as CSV, rows/s: ${figures.limitRowsPerSec.toFixed(1)}`);
      log(`export to MariaDB / that limit: ${(figures.rowsPerSec / figures.limitRowsPerSec).toFixed(2)}x`);
      log(`peak RSS, MariaDB export, MB: ${figures.peakRssMb?.toFixed(1) ?? 'not reported'}`);
      return figures.rowsPerSec;
    });
    const parquetFile = path.join(dir, 'export.parquet');
    const parquet = await measure('export to Parquet, rows/s', () =>
      cliExport('parquet', ['--sink', `parquet:${parquetFile}`], async () => {
        const file = await openParquet(new LocalStorage(), parquetFile);
        file.close();
        return file.numRows;
      }),
    );
    // Deltaport into a DuckDB file, then DuckDB's own CREATE TABLE AS from its delta extension into a file of its own.
    const duckdbFile = path.join(dir, 'export.duckdb');
    const duckdb = await measure('export to DuckDB, rows/s', () =>
      cliExport('duckdb', ['--sink', `duckdb:${duckdbFile}`, '--target', 'wide'], () => duckdbRows(duckdbFile, 'wide')),
    );
    const duckdbCtas = await measure("DuckDB's CREATE TABLE AS SELECT * FROM delta_scan, rows/s", async () => {
      const file = path.join(dir, 'duckdb-ctas.duckdb');
      const run = await runPython(PEER_RUNS.duckdb.script, [wide.root, 'duckdb', file, 'wide']);
      expectRows("DuckDB's CREATE TABLE AS", await duckdbRows(file, 'wide'), wide.liveRows);
      return wide.liveRows / (run.ms / 1000);
    });

    const previewRequest = { source: { tablePath: wide.root }, limit: PREVIEW_ROWS };
    const previewColdMs = await measure(`preview, cold process, ms (median of ${COLD_RUNS})`, async () => {
      const times: number[] = [];
      for (let i = 0; i < COLD_RUNS; i++) {
        const run = await runCli(['preview', wide.root, '--limit', String(PREVIEW_ROWS), '--format', 'jsonl']);
        expectRows('the preview', run.stdout.trim().split('\n').length, PREVIEW_ROWS);
        times.push(run.ms);
      }
      log(`preview, cold process, each run, ms: ${times.map((t) => t.toFixed(1)).join(', ')}`);
      return times.sort((a, b) => a - b)[COLD_RUNS >> 1];
    });
    const previewWarmMs = await measure('preview, warm, ms', async () => {
      const signal = new AbortController().signal;
      const tables = taskTables();
      await previewTask(tables, previewRequest, signal);
      return timed(async () => expectRows('the preview', (await previewTask(tables, previewRequest, signal)).rows.length, PREVIEW_ROWS));
    });
    const previewAppMs = await measure('preview through a worker (app path), ms', async () => {
      await startTask({ kind: 'preview', request: previewRequest }, localEngine()).result;
      return timed(() => startTask({ kind: 'preview', request: previewRequest }, localEngine()).result);
    });

    const queriesStarted = performance.now();
    const queries = await queryCases(wide, partitioned, log);
    log(`filters, sort and diff took ${((performance.now() - queriesStarted) / 1000).toFixed(1)} s`);

    const sql = await sqlRows(wide);

    const openMs = await measure(`open latest of ${size.commits} commits, ms`, () =>
      timed(async () => {
        const snapshot = await (await DeltaTable.open(longLog.root, localReads)).snapshot();
        if (snapshot.version !== size.commits - 1) throw new Error(`opened version ${snapshot.version}`);
      }),
    );
    const timeTravelMs = await measure('time travel by timestamp, ms', () => {
      // Half a minute after the middle commit: resolves to that commit.
      const middle = Math.floor(size.commits / 2);
      return timed(async () => {
        const snapshot = await (await DeltaTable.open(longLog.root, localReads)).snapshot({ timestampMs: longLog.timeOf(middle) + 30_000 });
        if (snapshot.version !== middle) throw new Error(`time travel resolved to version ${snapshot.version}, not ${middle}`);
      });
    });

    const longLogPeer = await longLogPeerCase(size.commits, log);

    // A streaming writer's table: many small files, each decoded faster than a GET's first byte comes.
    const smallFiles = await writeWideTable(path.join(dir, 'small-files'), SMALL_FILES_TABLE.rows, SMALL_FILES_TABLE.files);
    const cloud = await objectStoreCase(wide.root, longLog.root, smallFiles.root, size.commits);
    try {
      /** Exports `table` to Parquet through the CLI; rows/s over the whole process. */
      const parquetExport = async (what: string, table: string, flags: string[], rows: number) => {
        const target = path.join(dir, `${what.replaceAll(' ', '-')}.parquet`);
        const run = await runCli(['export', table, ...flags, '--sink', `parquet:${target}`]);
        const file = await openParquet(new LocalStorage(), target);
        file.close();
        await fs.rm(target);
        expectRows(`the ${what}`, file.numRows, rows);
        return rows / (run.ms / 1000);
      };
      const exportArgs = cloud.exportArgs;
      if (exportArgs) {
        cloud.figures.exportRowsPerSec = await measure('export from S3 to Parquet, rows/s', () =>
          parquetExport('export from S3', exportArgs.table, exportArgs.flags, wide.liveRows),
        );
        cloud.figures.smallFilesDiskRowsPerSec = await measure(`export of ${SMALL_FILES_TABLE.files} small files to Parquet, rows/s`, () =>
          parquetExport('small files export', smallFiles.root, [], smallFiles.liveRows),
        );
        cloud.figures.smallFilesRowsPerSec = await measure(
          `export of ${SMALL_FILES_TABLE.files} small files from S3 to Parquet, rows/s`,
          () => parquetExport('small files export from S3', exportArgs.smallFilesTable, exportArgs.flags, smallFiles.liveRows),
        );
      }
    } finally {
      await cloud.stop();
    }

    const catalogOpen = await catalogOpenCase();
    log(`catalog table open: ${JSON.stringify(catalogOpen)}`);

    let idleLagP99Ms: Figure = { error: 'not run' };
    const lagP99Ms = await measure('event-loop lag p99 during an export job, ms', async () => {
      const target = path.join(dir, 'job.sqlite');
      const request: ExportRequest = {
        source: { tablePath: wide.root },
        sink: { kind: 'sqlite', path: target, table: 'wide', mode: 'append', execution: DEFAULT_EXECUTION, exactlyOnce: false },
      };
      const { p99Ms, idleP99Ms } = await exportLag(request);
      idleLagP99Ms = { value: idleP99Ms };
      expectRows('the job export', sqliteRows(target, 'wide'), wide.liveRows);
      return p99Ms;
    });

    // First use of the shared worker and of this table in it: the open replays the whole log there.
    const openLagP99Ms = await measure(`event-loop lag p99 while the app opens the ${size.commits}-commit log, ms`, async () => {
      const middle = Math.floor(size.commits / 2);
      const timestamp = new Date(longLog.timeOf(middle) + 30_000).toISOString();
      return (await openLag(longLog.root, dir, timestamp, { latest: size.commits - 1, atTimestamp: middle })).p99Ms;
    });

    const scale = args.scale ? await scaleCases(dir, args['write-scale-log'], log) : undefined;

    const figures: Figures = {
      rows: wide.liveRows,
      columns: 8,
      files: wide.files,
      tableMb: wide.bytes / 1e6,
      commits: size.commits,
      export: {
        sqlite,
        sqliteLimit,
        sqliteLimitCpu,
        postgres,
        postgresExactlyOnce,
        postgresLimit,
        postgresBinaryLimit,
        postgresBatchedLimit,
        parquet,
        duckdb,
        duckdbCtas,
      },
      previewWarmMs,
      previewColdMs,
      previewAppMs,
      openMs,
      timeTravelMs,
      longLogPeer,
      rssMb,
      cpuSeconds,
      peers: { sqlite: peerSqlite, postgres: peerPostgres },
      serverCpuSeconds,
      lagP99Ms,
      openLagP99Ms,
      idleLagP99Ms,
      objectStore: cloud.figures,
      catalogOpen,
      queries,
      sql,
      scale,
      setupSeconds,
      load: { start: loadAtStart, end: os.loadavg()[0], cores: os.availableParallelism() },
    };
    console.log(markdownTable(figures));
    if (args.json) await fs.writeFile(args.json, JSON.stringify(jsonReport(figures), null, 2) + '\n');
  } finally {
    await server?.stop().catch(() => {});
    if (args.keep) log(`kept ${dir}`);
    else await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  // Only the set-up (writing the tables) can end up here: the benchmark itself is broken, not a figure missed.
  console.log(`Deltaport benchmark could not run: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
  process.exitCode = 1;
});
