// The benchmark's output: a Markdown table (figures, limits, ratios, targets; printed, never asserted) and the JSON
// shape of issue 5. A figure that could not be measured carries the reason instead of a number.
import type { CatalogOpenFigures } from './catalog-open.js';
import type { FilterFigures, QueryFigures } from './filter-sort-diff.js';
import type { LongLogPeerFigures } from './long-log-peer.js';
import type { ObjectStoreFigures } from './object-store.js';
import type { ScaleFigures } from './scale-cases.js';
import type { SqlQueryFigures, SqlTableFigures } from './sql-queries.js';

/** A measured value, or why there is none. */
export type Figure = { value: number } | { error: string };

export type ExportKind = 'sqlite' | 'postgres' | 'postgresExactlyOnce' | 'parquet' | 'duckdb';

/** The peer tools, by their names in the JSON, with their names in the table and the log. */
export const PEERS = {
  /** delta-rs reading the table, ADBC's driver ingesting it (test/bench/deltars-adbc-export.py). */
  deltarsAdbc: 'delta-rs + ADBC',
  /** DuckDB's delta_scan into a database attached through its postgres or sqlite extension (test/bench/duckdb-export.py). */
  duckdb: 'DuckDB delta_scan',
} as const;
export type PeerName = keyof typeof PEERS;
export const PEER_NAMES = Object.keys(PEERS) as PeerName[];

/** The sinks the peer tools export to, beside Deltaport, with their names in the table. */
const PEER_SINKS = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
export type PeerSink = keyof typeof PEER_SINKS;

/** The runs into PostgreSQL whose server CPU time is measured: Deltaport's two exports, the binary `\copy` limit and
 * each peer's export. */
export type ServerRun = 'postgres' | 'postgresExactlyOnce' | 'psqlBinary' | PeerName;

/** A peer tool's export of the same table to the same sink, in the same run, as its own process. */
export interface PeerFigures {
  rowsPerSec: Figure;
  rssMb: Figure;
  cpuSeconds: Figure;
}

export interface Figures {
  rows: number;
  columns: number;
  files: number;
  tableMb: number;
  commits: number;
  export: {
    sqlite: Figure;
    sqliteLimit: Figure;
    /** The same limit per CPU-second of the inserting process. */
    sqliteLimitCpu: Figure;
    postgres: Figure;
    postgresExactlyOnce: Figure;
    /** `psql \copy` of CSV. */
    postgresLimit: Figure;
    /** `psql \copy` of a binary COPY file: what the server can take, the limit the exports are measured against. */
    postgresBinaryLimit: Figure;
    /** `psql \copy` BINARY of the same rows in one COPY per transaction, cut as the export cuts them. */
    postgresBatchedLimit: Figure;
    parquet: Figure;
    duckdb: Figure;
    /** DuckDB's own `CREATE TABLE AS SELECT * FROM delta_scan(...)` into a DuckDB file (test/bench/duckdb-export.py). */
    duckdbCtas: Figure;
  };
  previewWarmMs: Figure;
  previewColdMs: Figure;
  /** The app's own path: a worker thread per preview; second call. */
  previewAppMs: Figure;
  openMs: Figure;
  timeTravelMs: Figure;
  /** A log delta-rs wrote, opened by a new process of each (long-log-peer.ts). */
  longLogPeer: LongLogPeerFigures;
  /** Peak RSS per export process, MB. */
  rssMb: Record<ExportKind, Figure>;
  /** CPU time (user + system) per export process: what the export cost, whatever else the machine was doing. */
  cpuSeconds: Record<ExportKind, Figure>;
  /** Each peer tool's export to each sink. */
  peers: Record<PeerSink, Record<PeerName, PeerFigures>>;
  /** The PostgreSQL server's CPU time (user + system) for each run into it (server-cpu.ts). */
  serverCpuSeconds: Record<ServerRun, Figure>;
  lagP99Ms: Figure;
  /** The same while the API service opens the long log, lists its history and resolves a timestamp. */
  openLagP99Ms: Figure;
  /** The same p99 with nothing running, just before: what the machine alone causes. */
  idleLagP99Ms: Figure;
  objectStore: ObjectStoreFigures;
  /** A Unity Catalog table opened by its name against its location opened directly (catalog-open.ts). */
  catalogOpen: CatalogOpenFigures;
  /** Filters that skip files, a sort over the whole table, a diff of adjacent versions. */
  queries: QueryFigures;
  /** `deltaport sql` against DuckDB's delta_scan, per table (sql-queries.ts). */
  sql: SqlTableFigures[];
  /** Only with --scale (scale-cases.ts). */
  scale?: ScaleFigures;
  setupSeconds: number;
  /** 1-minute load averages when measuring began and ended, against the machine's cores: figures from a busy machine understate. */
  load: { start: number; end: number; cores: number };
}

const valueOf = (f: Figure): number | null => ('value' in f ? f.value : null);

/** a / b, or the reason one of them is missing. */
function quotient(a: Figure, b: Figure): Figure {
  if (!('value' in a)) return a;
  if (!('value' in b)) return b;
  return { value: a.value / b.value };
}

export function peakRss(figures: Figures): Figure {
  const values = Object.values(figures.rssMb)
    .map(valueOf)
    .filter((v): v is number => v !== null);
  return values.length > 0 ? { value: Math.max(...values) } : { error: 'no export process reported its RSS' };
}

/** Files the filter skipped: all less those left to read. */
function skipped(f: FilterFigures, read: Figure): Figure {
  const total = valueOf(f.filesTotal);
  const left = valueOf(read);
  return total !== null && left !== null ? { value: total - left } : 'error' in read ? read : f.filesTotal;
}

/** The highest of the figures, or the reason one of them is missing. */
function highest(figures: Figure[]): Figure {
  const values: number[] = [];
  for (const f of figures) {
    if (!('value' in f)) return f;
    values.push(f.value);
  }
  return { value: Math.max(...values) };
}

const atLeast = (times: number) => (v: number, limit: number | null) => limit !== null && v >= times * limit;
const atMostTimes = (times: number) => (v: number, limit: number | null) => limit !== null && v <= times * limit;

function perCpuSecond(rows: number, cpuSeconds: Figure): Figure {
  return 'value' in cpuSeconds ? { value: rows / cpuSeconds.value } : cpuSeconds;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function shown(f: Figure, unit: string, digits = 0): string {
  return 'value' in f ? `${fmt(f.value, digits)} ${unit}` : `n/a (${f.error})`;
}

interface Line {
  measure: string;
  figure: Figure;
  unit: string;
  digits?: number;
  limit?: Figure;
  /** Target as text, and whether the figure meets it. */
  target: string;
  meets?: (value: number, limit: number | null) => boolean;
}

function verdict(line: Line): string {
  const value = valueOf(line.figure);
  if (!line.meets) return '';
  if (value === null) return 'not measured';
  const limit = line.limit ? valueOf(line.limit) : null;
  if (line.limit && limit === null) return 'no limit';
  return line.meets(value, limit) ? 'met' : 'MISSED';
}

export function markdownTable(figures: Figures): string {
  const atMost = (max: number) => (v: number) => v <= max;
  const below = (max: number) => (v: number) => v < max;
  const lines: Line[] = [
    {
      measure: 'export to SQLite',
      figure: figures.export.sqlite,
      unit: 'rows/s',
      limit: figures.export.sqliteLimit,
      target: '>= 0.8x limit',
      meets: atLeast(0.8),
    },
    {
      measure: '  the same, per CPU-second of the process (fairer on a busy machine)',
      figure: perCpuSecond(figures.rows, figures.cpuSeconds.sqlite),
      unit: 'rows/s',
      limit: figures.export.sqliteLimitCpu,
      target: '',
    },
    ...peerLines(figures.rows, figures.export.sqlite, figures.cpuSeconds.sqlite, figures.peers.sqlite),
    {
      measure: `  the same against the faster peer (${PEER_NAMES.map((name) => PEERS[name]).join(' or ')})`,
      figure: figures.export.sqlite,
      unit: 'rows/s',
      limit: highest(PEER_NAMES.map((name) => figures.peers.sqlite[name].rowsPerSec)),
      target: '>= 1.3x',
      meets: atLeast(1.3),
    },
    {
      measure: 'export to PostgreSQL (limit: `psql \\copy` BINARY)',
      figure: figures.export.postgres,
      unit: 'rows/s',
      limit: figures.export.postgresBinaryLimit,
      target: '>= 1.0x limit',
      meets: atLeast(1),
    },
    {
      measure: '  the same against `psql \\copy` BINARY cut into transactions as the export cuts them',
      figure: figures.export.postgres,
      unit: 'rows/s',
      limit: figures.export.postgresBatchedLimit,
      target: '',
    },
    {
      measure: '  the same against `psql \\copy` CSV',
      figure: figures.export.postgres,
      unit: 'rows/s',
      limit: figures.export.postgresLimit,
      target: '',
    },
    ...peerLines(figures.rows, figures.export.postgres, figures.cpuSeconds.postgres, figures.peers.postgres, { duckdb: 1.3 }),
    {
      measure: 'export to PostgreSQL `--exactly-once` (limit: the export without it)',
      figure: figures.export.postgresExactlyOnce,
      unit: 'rows/s',
      limit: figures.export.postgres,
      target: '>= 0.9x',
      meets: atLeast(0.9),
    },
    { measure: 'export to Parquet', figure: figures.export.parquet, unit: 'rows/s', target: '' },
    {
      measure: "export to DuckDB (limit: DuckDB's own `CREATE TABLE AS SELECT * FROM delta_scan(...)`)",
      figure: figures.export.duckdb,
      unit: 'rows/s',
      limit: figures.export.duckdbCtas,
      target: '>= 0.8x limit',
      meets: atLeast(0.8),
    },
    { measure: 'preview 100 rows, warm', figure: figures.previewWarmMs, unit: 'ms', digits: 1, target: '<= 150 ms', meets: atMost(150) },
    {
      measure: 'preview 100 rows, cold (new process)',
      figure: figures.previewColdMs,
      unit: 'ms',
      digits: 1,
      target: '<= 200 ms',
      meets: atMost(200),
    },
    { measure: 'preview 100 rows, app path (worker per call)', figure: figures.previewAppMs, unit: 'ms', digits: 1, target: '' },
    {
      measure: `open latest snapshot (${fmt(figures.commits)} commits)`,
      figure: figures.openMs,
      unit: 'ms',
      digits: 1,
      target: '<= 300 ms',
      meets: atMost(300),
    },
    { measure: 'time travel by timestamp', figure: figures.timeTravelMs, unit: 'ms', digits: 1, target: '<= 300 ms', meets: atMost(300) },
    ...longLogPeerLines(figures.longLogPeer),
    { measure: 'peak RSS of an export (max of the five)', figure: peakRss(figures), unit: 'MB', target: '<= 400 MB', meets: atMost(400) },
    // Issue 34: every export's peak RSS at most DuckDB's into the same sink.
    {
      measure: '  peak RSS, SQLite export (limit: DuckDB delta_scan into SQLite)',
      figure: figures.rssMb.sqlite,
      limit: figures.peers.sqlite.duckdb.rssMb,
      unit: 'MB',
      target: '<= 1.0x',
      meets: atMostTimes(1),
    },
    {
      measure: '  peak RSS, PostgreSQL export (limit: DuckDB delta_scan into PostgreSQL)',
      figure: figures.rssMb.postgres,
      limit: figures.peers.postgres.duckdb.rssMb,
      unit: 'MB',
      target: '<= 1.0x',
      meets: atMostTimes(1),
    },
    { measure: '  peak RSS, PostgreSQL `--exactly-once` export', figure: figures.rssMb.postgresExactlyOnce, unit: 'MB', target: '' },
    { measure: '  peak RSS, Parquet export', figure: figures.rssMb.parquet, unit: 'MB', target: '' },
    { measure: '  peak RSS, DuckDB export', figure: figures.rssMb.duckdb, unit: 'MB', target: '' },
    ...peerUsageLines(figures.peers, (peer, sink) => `  peak RSS, ${peer} ${sink} export (peer)`, 'rssMb', 'MB', 0),
    { measure: 'CPU time, SQLite export process', figure: figures.cpuSeconds.sqlite, unit: 's', digits: 1, target: '' },
    { measure: 'CPU time, PostgreSQL export process', figure: figures.cpuSeconds.postgres, unit: 's', digits: 1, target: '' },
    {
      measure: 'CPU time, PostgreSQL `--exactly-once` export process',
      figure: figures.cpuSeconds.postgresExactlyOnce,
      unit: 's',
      digits: 1,
      target: '',
    },
    { measure: 'CPU time, Parquet export process', figure: figures.cpuSeconds.parquet, unit: 's', digits: 1, target: '' },
    { measure: 'CPU time, DuckDB export process', figure: figures.cpuSeconds.duckdb, unit: 's', digits: 1, target: '' },
    ...peerUsageLines(figures.peers, (peer, sink) => `CPU time, ${peer} ${sink} export process (peer)`, 'cpuSeconds', 's', 1),
    ...serverCpuLines(figures.serverCpuSeconds),
    {
      measure: 'event-loop lag p99 during an export job',
      figure: figures.lagP99Ms,
      unit: 'ms',
      digits: 1,
      target: '< 50 ms',
      meets: below(50),
    },
    {
      measure: `event-loop lag p99 while the app opens the ${fmt(figures.commits)}-commit log`,
      figure: figures.openLagP99Ms,
      unit: 'ms',
      digits: 1,
      target: '< 50 ms',
      meets: below(50),
    },
    { measure: '  the same with nothing running (machine floor)', figure: figures.idleLagP99Ms, unit: 'ms', digits: 1, target: '' },
    { measure: 'S3: cold open + preview 100 rows', figure: figures.objectStore.previewMs, unit: 'ms', digits: 1, target: '' },
    {
      measure: 'S3: bytes that preview fetched (limit: footer + first row group)',
      figure: figures.objectStore.previewBytes,
      unit: 'bytes',
      limit: figures.objectStore.previewBytesFloor,
      target: '< 2x',
      meets: (v, l) => l !== null && v < 2 * l,
    },
    {
      measure: `S3: listing calls to open the ${fmt(figures.commits)}-commit log`,
      figure: figures.objectStore.openLists,
      unit: 'calls',
      target: '1',
      meets: atMost(1),
    },
    {
      measure: '  reads of that open (limit: files from the last checkpoint on)',
      figure: figures.objectStore.openReads,
      unit: 'reads',
      limit: figures.objectStore.openReadsFloor,
      target: '',
    },
    {
      measure: 'S3: expand a prefix of 1,000 entries in the navigator',
      figure: figures.objectStore.browseMs,
      unit: 'ms',
      digits: 1,
      target: '< 300 ms',
      meets: below(300),
    },
    {
      measure: 'S3: export to Parquet (limit: the same export from disk)',
      figure: figures.objectStore.exportRowsPerSec,
      unit: 'rows/s',
      limit: figures.export.parquet,
      target: '>= 0.9x',
      meets: atLeast(0.9),
    },
    {
      measure: "  the same (limit: the server's ceiling, its data files by a plain loop of ranged GETs)",
      figure: figures.objectStore.exportRowsPerSec,
      unit: 'rows/s',
      limit: rowsPerSecond(figures.rows, figures.objectStore.rangedGetMs),
      target: '',
    },
    {
      measure: 'S3: export of 200 small files to Parquet (limit: the same export from disk)',
      figure: figures.objectStore.smallFilesRowsPerSec,
      unit: 'rows/s',
      limit: figures.objectStore.smallFilesDiskRowsPerSec,
      target: '>= 0.9x',
      meets: atLeast(0.9),
    },
    {
      measure: 'catalog table open (Unity Catalog, S3): calls to the catalog',
      figure: figures.catalogOpen.catalogCalls,
      unit: 'calls',
      target: '2',
      meets: atMost(2),
    },
    {
      measure: '  storage requests of that open (limit: opening its location directly)',
      figure: figures.catalogOpen.catalogStoreRequests,
      unit: 'requests',
      limit: figures.catalogOpen.directStoreRequests,
      target: '= limit',
      meets: (v, l) => l !== null && v <= l,
    },
    {
      measure: '  time of that open (limit: opening its location directly)',
      figure: figures.catalogOpen.catalogMs,
      unit: 'ms',
      digits: 1,
      limit: figures.catalogOpen.directMs,
      target: '',
    },
    ...queryLines(figures.queries),
    ...figures.sql.flatMap(sqlLines),
    ...(figures.scale ? scaleLines(figures.scale) : []),
  ];
  const out = [
    `Deltaport benchmark: ${fmt(figures.rows)} rows x ${figures.columns} columns in ${figures.files} files ` +
      `(${fmt(figures.tableMb, 1)} MB Parquet); long log of ${fmt(figures.commits)} commits; setup ${fmt(figures.setupSeconds, 1)} s; ` +
      `load average ${fmt(figures.load.start, 1)} -> ${fmt(figures.load.end, 1)} on ${figures.load.cores} cores`,
    '',
    ...tableRows(lines),
  ];
  return out.join('\n');
}

/** Only the SQL rows (`npm run bench -- --only sql`). */
export function sqlTable(sql: SqlTableFigures[]): string {
  return tableRows(sql.flatMap(sqlLines)).join('\n');
}

/** `--only scale-log`: the rows of one long log alone. */
export function longLogTable(f: LongLogPeerFigures): string {
  return tableRows(longLogPeerLines(f)).join('\n');
}

function tableRows(lines: Line[]): string[] {
  const ratio = (f: Figure, limit: Figure) => {
    const r = quotient(f, limit);
    return 'value' in r ? `${fmt(r.value, 2)}x` : '';
  };
  const out = ['| measure | figure | limit | ratio | target | |', '|---|---:|---:|---:|---|---|'];
  for (const line of lines) {
    const limit = line.limit ? shown(line.limit, line.unit, line.digits) : '';
    const r = line.limit ? ratio(line.figure, line.limit) : '';
    out.push(`| ${line.measure} | ${shown(line.figure, line.unit, line.digits)} | ${limit} | ${r} | ${line.target} | ${verdict(line)} |`);
  }
  return out;
}

/** `rows` over a time in ms, as rows/s. */
function rowsPerSecond(rows: number, ms: Figure): Figure {
  return 'value' in ms ? { value: rows / (ms.value / 1000) } : ms;
}

/** The scale cases: the large export's peak RSS within 5% of the small one's, and delta-rs's long log as above. */
function scaleLines(f: ScaleFigures): Line[] {
  return [
    {
      measure: `scale: peak RSS, SQLite export of ${fmt(f.largeRows)} rows (limit: the same of ${fmt(f.smallRows)} rows)`,
      figure: f.largeRssMb,
      limit: f.smallRssMb,
      unit: 'MB',
      target: '<= 1.05x',
      meets: atMostTimes(1.05),
    },
    { measure: `  the ${fmt(f.largeRows)}-row export`, figure: f.largeRowsPerSec, unit: 'rows/s', target: '' },
    ...longLogPeerLines(f.longLog).map((line) => ({ ...line, measure: `scale: ${line.measure}` })),
  ];
}

/** Deltaport's opening of delta-rs's long log against delta-rs's own, whole processes: at most its time. */
function longLogPeerLines(f: LongLogPeerFigures): Line[] {
  const notSlower = (v: number, limit: number | null) => limit !== null && v <= limit;
  const kept = f.retain === null ? '' : `, rows of the last ${fmt(f.retain)} kept`;
  const log = `delta-rs's ${fmt(f.commits)}-commit log${kept}, new process (limit: delta-rs)`;
  const time = (measure: string, figure: Figure, limit: Figure): Line => ({
    measure,
    figure,
    limit,
    unit: 'ms',
    digits: 1,
    target: '<= 1.0x',
    meets: notSlower,
  });
  return [
    time(`open latest, ${log}`, f.latestMs, f.latestPeerMs),
    time(`time travel to v${f.middle}, ${log}`, f.middleMs, f.middlePeerMs),
    time('  the same by timestamp', f.timestampMs, f.timestampPeerMs),
    { measure: '  listing calls of the open of the latest', figure: f.openLists, unit: 'calls', target: '1', meets: (v) => v <= 1 },
    {
      measure: '  reads of that open (limit: files from the last checkpoint on)',
      figure: f.openReads,
      unit: 'reads',
      limit: f.openReadsFloor,
      target: '',
    },
  ];
}

/** Deltaport's export held against each peer's of the same table to the same sink: the ratio is Deltaport's over
 * the peer's, by wall time and by each process's CPU time (delta-rs and DuckDB read on several threads; the CPU time
 * counts them). `targets` gives, for a peer, how many times its rows/s (wall time) Deltaport's should reach. */
function peerLines(
  rows: number,
  deltaport: Figure,
  deltaportCpu: Figure,
  peers: Record<PeerName, PeerFigures>,
  targets: Partial<Record<PeerName, number>> = {},
): Line[] {
  return PEER_NAMES.flatMap((name): Line[] => {
    const peer = peers[name];
    const times = targets[name];
    return [
      {
        measure: `  the same against ${PEERS[name]} (peer tool, same run)`,
        figure: deltaport,
        unit: 'rows/s',
        limit: peer.rowsPerSec,
        ...(times === undefined ? { target: '' } : { target: `>= ${times}x`, meets: atLeast(times) }),
      },
      {
        measure: `  per CPU-second of each process, against ${PEERS[name]}`,
        figure: perCpuSecond(rows, deltaportCpu),
        unit: 'rows/s',
        limit: perCpuSecond(rows, peer.cpuSeconds),
        // Issue 34: CPU per row at most DuckDB's.
        ...(name === 'duckdb' ? { target: '>= 1.0x', meets: atLeast(1) } : { target: '' }),
      },
    ];
  });
}

/** One line per peer tool and sink for a figure of the peer's own process (its peak RSS, its CPU time). */
function peerUsageLines(
  peers: Figures['peers'],
  measure: (peer: string, sink: string) => string,
  figure: 'rssMb' | 'cpuSeconds',
  unit: string,
  digits: number,
): Line[] {
  return PEER_NAMES.flatMap((name) =>
    (Object.keys(PEER_SINKS) as PeerSink[]).map((sink) => ({
      measure: measure(PEERS[name], PEER_SINKS[sink]),
      figure: peers[sink][name][figure],
      unit,
      digits,
      target: '',
    })),
  );
}

/** The server's CPU time for each run into PostgreSQL, against its time for `psql \copy` BINARY of the same rows,
 * which loads about as fast as the server alone can: what any exporter pays the server besides its own work. */
function serverCpuLines(server: Record<ServerRun, Figure>): Line[] {
  const line = (measure: string, figure: Figure): Line => ({ measure, figure, unit: 's', digits: 1, limit: server.psqlBinary, target: '' });
  return [
    line("PostgreSQL server's CPU time, Deltaport export (limit: its time for `psql \\copy` BINARY)", server.postgres),
    line('  the same, `--exactly-once` export', server.postgresExactlyOnce),
    ...PEER_NAMES.map((name) => line(`  the same, ${PEERS[name]} export (peer)`, server[name])),
  ];
}

/** Lines whose figure should equal another one (the reader's count and the log's, say). */
const sameAs = (other: Figure) => (v: number) => valueOf(other) === v;
const shownBare = (f: Figure, unit: string) => ('value' in f ? `${fmt(f.value)} ${unit}` : 'n/a');

/** What a filtered read touched, checked against the log: the files it opened and the bytes left to read. */
function filterReadLines(f: FilterFigures): Line[] {
  return [
    {
      measure: '  data files the reader opened',
      figure: f.filesOpened,
      unit: 'files',
      limit: f.filesTotal,
      target: `= ${shownBare(f.filesReadFromLog, 'files')} (the log)`,
      meets: sameAs(f.filesReadFromLog),
    },
    {
      measure: '  bytes read (limit: all bytes)',
      figure: f.bytesRead,
      unit: 'bytes',
      limit: f.bytesTotal,
      target: `= ${shownBare(f.bytesReadFromLog, 'bytes')} (the log)`,
      meets: sameAs(f.bytesReadFromLog),
    },
    { measure: `  time to read its ${shownBare(f.rows, 'rows')}`, figure: f.ms, unit: 'ms', digits: 1, target: '' },
  ];
}

/** SQL's time within 1.2x DuckDB's own delta_scan, cold and warm; the process's peak RSS under 400 MB. */
function sqlLines(t: SqlTableFigures): Line[] {
  const within = atMostTimes(1.2);
  const query = (q: SqlQueryFigures): Line[] => [
    {
      measure: `SQL on ${t.table}: \`${q.query}\`, cold (limit: DuckDB's delta_scan, cold)`,
      figure: q.coldMs,
      unit: 'ms',
      digits: 1,
      limit: q.duckdbColdMs,
      target: '<= 1.2x',
      meets: within,
    },
    {
      measure: '  warm (limit: delta_scan, warm)',
      figure: q.warmMs,
      unit: 'ms',
      digits: 1,
      limit: q.duckdbWarmMs,
      target: '<= 1.2x',
      meets: within,
    },
  ];
  return [
    ...query(t.groupBy),
    ...query(t.count),
    {
      measure: `SQL on ${t.table}: peak RSS of the deltaport sql process`,
      figure: t.peakRssMb,
      unit: 'MB',
      target: '<= 400 MB',
      meets: (v) => v <= 400,
    },
  ];
}

function queryLines(q: QueryFigures): Line[] {
  const p = q.partitionFilter;
  const s = q.statsFilter;
  return [
    {
      measure: `filter \`${q.partitionWhere}\` (one of ${q.partitions} partitions): files read (limit: all files)`,
      figure: p.filesRead,
      unit: 'files',
      limit: p.filesTotal,
      target: `= ${shownBare(p.filesReadFromLog, 'files')} (the log)`,
      meets: sameAs(p.filesReadFromLog),
    },
    ...filterReadLines(p),
    {
      measure: `filter \`${q.statsWhere}\` on clustered id: files skipped by statistics (limit: all files)`,
      figure: skipped(s, s.filesRead),
      unit: 'files',
      limit: s.filesTotal,
      target: '>= 0.9x',
      meets: atLeast(0.9),
    },
    {
      measure: '  files skipped, counted from the log',
      figure: skipped(s, s.filesReadFromLog),
      unit: 'files',
      limit: s.filesTotal,
      target: "= the reader's",
      meets: sameAs(skipped(s, s.filesRead)),
    },
    ...filterReadLines(s),
    {
      measure: `top ${q.sortLimit} by ${q.sortBy} over all ${shownBare(q.sort.rowsOrdered, 'rows')}: peak RSS of the process`,
      figure: q.sort.peakRssMb,
      unit: 'MB',
      target: '<= 400 MB',
      meets: (v) => v <= 400,
    },
    { measure: '  its time (new process)', figure: q.sort.ms, unit: 'ms', target: '' },
    {
      measure: 'diff of two adjacent versions (a deletion-vector delete): data files read (limit: all files)',
      figure: q.diff.filesRead,
      unit: 'files',
      limit: q.diff.filesTotal,
      target: `= ${shownBare(q.diff.filesChanged, 'files')} changed`,
      meets: sameAs(q.diff.filesChanged),
    },
    {
      measure: '  rows removed (limit: rows the delete removed)',
      figure: q.diff.rowsRemoved,
      unit: 'rows',
      limit: q.diff.rowsDeleted,
      target: '= limit',
      meets: (v, l) => v === l,
    },
    { measure: '  rows added', figure: q.diff.rowsAdded, unit: 'rows', target: '0', meets: (v) => v === 0 },
    { measure: '  its time', figure: q.diff.ms, unit: 'ms', digits: 1, target: '' },
  ];
}

/** The JSON of issue 5; unmeasured figures are null, with their reasons under "errors". */
export function jsonReport(figures: Figures): unknown {
  const errors: Record<string, string> = {};
  const pick = (name: string, f: Figure) => {
    if ('error' in f) errors[name] = f.error;
    return valueOf(f);
  };
  const { commits: longLogCommits, retain, middle, ...longLogTimes } = figures.longLogPeer;
  // Every figure of a group, by name (the groups are interfaces of Figures, hence `object`).
  const all = (prefix: string, group: object) =>
    Object.fromEntries((Object.entries(group) as [string, Figure][]).map(([name, f]) => [name, pick(`${prefix}.${name}`, f)]));
  // Each peer tool's figures for one sink, by the peer's name.
  const peers = (prefix: string, deltaport: Figure, sinkPeers: Record<PeerName, PeerFigures>) =>
    Object.fromEntries(
      PEER_NAMES.map((name) => {
        const at = `${prefix}.${name}`;
        const f = sinkPeers[name];
        return [
          name,
          {
            rowsPerSec: pick(`${at}.rowsPerSec`, f.rowsPerSec),
            /** Deltaport's rows/s over the peer's. */
            deltaportRatio: pick(`${at}.deltaportRatio`, quotient(deltaport, f.rowsPerSec)),
            rssMb: pick(`${at}.rssMb`, f.rssMb),
            cpuSeconds: pick(`${at}.cpuSeconds`, f.cpuSeconds),
          },
        ];
      }),
    );
  const q = figures.queries;
  const stats = q.statsFilter;
  const read = valueOf(stats.filesRead);
  const total = valueOf(stats.filesTotal);
  const skippedShare: Figure = read !== null && total ? { value: 1 - read / total } : { error: 'no skipping figures' };
  return {
    rows: figures.rows,
    columns: figures.columns,
    export: {
      sqlite: {
        rowsPerSec: pick('export.sqlite', figures.export.sqlite),
        limitRowsPerSec: pick('export.sqliteLimit', figures.export.sqliteLimit),
        peers: peers('export.sqlite.peers', figures.export.sqlite, figures.peers.sqlite),
      },
      postgres: {
        rowsPerSec: pick('export.postgres', figures.export.postgres),
        limitRowsPerSec: pick('export.postgresLimit', figures.export.postgresLimit),
        binaryLimitRowsPerSec: pick('export.postgresBinaryLimit', figures.export.postgresBinaryLimit),
        binaryBatchedLimitRowsPerSec: pick('export.postgresBatchedLimit', figures.export.postgresBatchedLimit),
        exactlyOnceRowsPerSec: pick('export.postgresExactlyOnce', figures.export.postgresExactlyOnce),
        peers: peers('export.postgres.peers', figures.export.postgres, figures.peers.postgres),
        serverCpuSeconds: all('export.postgres.serverCpuSeconds', figures.serverCpuSeconds),
      },
      parquet: { rowsPerSec: pick('export.parquet', figures.export.parquet) },
      duckdb: {
        rowsPerSec: pick('export.duckdb', figures.export.duckdb),
        limitRowsPerSec: pick('export.duckdbCtas', figures.export.duckdbCtas),
      },
    },
    previewMs: { warm: pick('previewMs.warm', figures.previewWarmMs), cold: pick('previewMs.cold', figures.previewColdMs) },
    openMs: { commits: figures.commits, ms: pick('openMs', figures.openMs) },
    timeTravelMs: pick('timeTravelMs', figures.timeTravelMs),
    longLogPeer: { commits: longLogCommits, retain, middle, ...all('longLogPeer', longLogTimes) },
    peakRssMb: pick('peakRssMb', peakRss(figures)),
    // The worse of the export and the long-log open: the app's main loop must stay free through both.
    eventLoopLagP99Ms: pick('eventLoopLagP99Ms', highest([figures.lagP99Ms, figures.openLagP99Ms])),
    objectStore: all('objectStore', figures.objectStore),
    catalogOpen: all('catalogOpen', figures.catalogOpen),
    filter: {
      partition: { where: q.partitionWhere, ...all('filter.partition', q.partitionFilter) },
      stats: { where: q.statsWhere, skippedShare: pick('filter.stats.skippedShare', skippedShare), ...all('filter.stats', q.statsFilter) },
    },
    sort: { by: q.sortBy, limit: q.sortLimit, ...all('sort', q.sort) },
    diff: all('diff', q.diff),
    sql: figures.sql.map((t) => ({
      table: t.table,
      peakRssMb: pick(`sql.${t.table}.peakRssMb`, t.peakRssMb),
      queries: [t.groupBy, t.count].map(({ query, ...times }, i) => ({ query, ...all(`sql.${t.table}.${i}`, times) })),
    })),
    ...(figures.scale ? { scale: scaleJson(figures.scale, pick) } : {}),
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
}

function scaleJson(f: ScaleFigures, pick: (name: string, f: Figure) => number | null) {
  const { commits, retain, middle, ...times } = f.longLog;
  return {
    export: {
      smallRows: f.smallRows,
      largeRows: f.largeRows,
      smallRssMb: pick('scale.export.smallRssMb', f.smallRssMb),
      largeRssMb: pick('scale.export.largeRssMb', f.largeRssMb),
      largeRowsPerSec: pick('scale.export.largeRowsPerSec', f.largeRowsPerSec),
    },
    longLogPeer: {
      commits,
      retain,
      middle,
      ...Object.fromEntries(Object.entries(times).map(([name, t]) => [name, pick(`scale.longLogPeer.${name}`, t)])),
    },
  };
}
