// What the databases themselves ingest on this machine, measured on the wide table's rows: the ceiling an export
// is compared with. Values are prepared before the clock runs; only the database's own work is timed.
import { execFile } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { transactionBytesAt } from '../../electron/sinks/batching.js';
import { openSqlite } from '../../electron/sinks/sqlite-connection.js';
import { timestampFormatter } from '../../electron/values/time-text.js';
import { activeAt, textAt, wideChunk, type WideChunk } from './wide-data.js';

const execFileAsync = promisify(execFile);
const ROWS_PER_STATEMENT = 100;
const COLUMNS = 8;
const isoMicros = timestampFormatter(2, true);

export interface RowSource {
  rows: number;
  /** Rows per generated chunk (the wide table's rows per file). */
  chunkRows: number;
  seed: number;
}

function* chunks(source: RowSource): Generator<WideChunk> {
  for (let start = 0; start < source.rows; start += source.chunkRows) {
    yield wideChunk(start, Math.min(source.chunkRows, source.rows - start), source.seed);
  }
}

/** A row's values as the SQLite sink stores them: INTEGER, TEXT, REAL, ISO text, 0/1, TEXT, INTEGER, TEXT. */
function sqliteValues(chunk: WideChunk, i: number, out: unknown[], at: number): void {
  out[at] = Number(chunk.id[i]);
  out[at + 1] = textAt(chunk.code, i);
  out[at + 2] = chunk.amount[i];
  out[at + 3] = isoMicros(chunk.eventTime[i]);
  out[at + 4] = activeAt(chunk, i) ? 1 : 0;
  out[at + 5] = textAt(chunk.category, i);
  out[at + 6] = chunk.quantity[i];
  out[at + 7] = textAt(chunk.comment, i);
}

export interface SqliteLimit {
  rowsPerSec: number;
  /** Rows per second of this process's CPU time (SQLite runs in-process): steadier than wall time on a busy machine. */
  rowsPerCpuSec: number;
}

/** 100-row multi-row INSERTs, in one transaction, into a fresh database file. */
export async function sqliteInsertLimit(dir: string, source: RowSource): Promise<SqliteLimit> {
  const file = path.join(dir, 'limit.sqlite');
  await fs.rm(file, { force: true });
  // Opened as the SQLite sink opens its target: the same page size, journal and synchronous settings.
  const db = openSqlite(file);
  try {
    db.exec(
      'CREATE TABLE t (id INTEGER NOT NULL, code TEXT, amount REAL, event_time TEXT, active INTEGER, category TEXT, quantity INTEGER, comment TEXT)',
    );
    const tuple = `(${new Array(COLUMNS).fill('?').join(',')})`;
    const full = db.prepare(`INSERT INTO t VALUES ${new Array(ROWS_PER_STATEMENT).fill(tuple).join(',')}`);
    let seconds = 0;
    let cpuMicros = 0;
    const cpuSince = (start: NodeJS.CpuUsage) => {
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    db.exec('BEGIN');
    for (const chunk of chunks(source)) {
      const statements: unknown[][] = [];
      for (let first = 0; first < chunk.length; first += ROWS_PER_STATEMENT) {
        const n = Math.min(ROWS_PER_STATEMENT, chunk.length - first);
        const values = new Array<unknown>(n * COLUMNS);
        for (let k = 0; k < n; k++) sqliteValues(chunk, first + k, values, k * COLUMNS);
        statements.push(values);
      }
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (const values of statements) {
        if (values.length === ROWS_PER_STATEMENT * COLUMNS) full.run(values);
        else db.prepare(`INSERT INTO t VALUES ${new Array(values.length / COLUMNS).fill(tuple).join(',')}`).run(values);
      }
      seconds += (performance.now() - started) / 1000;
      cpuMicros += cpuSince(cpu);
    }
    const started = performance.now();
    const cpu = process.cpuUsage();
    db.exec('COMMIT');
    seconds += (performance.now() - started) / 1000;
    cpuMicros += cpuSince(cpu);
    const { n } = db.prepare('SELECT count(*) AS n FROM t').get() as { n: number };
    if (n !== source.rows) throw new Error(`the insert limit stored ${n} of ${source.rows} rows`);
    return { rowsPerSec: source.rows / seconds, rowsPerCpuSec: source.rows / (cpuMicros / 1e6) };
  } finally {
    db.close();
  }
}

/** The wide table's columns in PostgreSQL, as the export creates them. */
export const PG_COLUMNS =
  'id bigint NOT NULL, code text, amount double precision, event_time timestamp with time zone, active boolean, category text, quantity integer, comment text';

/** Writes the rows as one CSV file (NULL = empty unquoted field, as COPY's CSV format reads it). */
export async function writeCsv(file: string, source: RowSource): Promise<void> {
  const out = createWriteStream(file);
  for (const chunk of chunks(source)) {
    const lines: string[] = [];
    for (let i = 0; i < chunk.length; i++) {
      // Generated text has no commas, quotes or newlines, so no field needs quoting.
      lines.push(
        `${chunk.id[i]},${textAt(chunk.code, i)},${chunk.amount[i]},${isoMicros(chunk.eventTime[i])},${activeAt(chunk, i) ? 't' : 'f'},` +
          `${textAt(chunk.category, i)},${chunk.quantity[i]},${textAt(chunk.comment, i) ?? ''}\n`,
      );
    }
    if (!out.write(lines.join(''))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

export interface PsqlLimits {
  /** `psql \copy ... FROM file (FORMAT csv)`. */
  csvRowsPerSec: number;
  /** `psql \copy ... FROM file (FORMAT binary)`: the server only checks and stores the values, its fastest load. */
  binaryRowsPerSec: number;
  /** The same rows cut as the export cuts its PostgreSQL transactions (whole batches of `batch.rows` rows until the
   * part holds transactionBytesAt(`batch.bytes`)), each part its own COPY and transaction: the server's cost per COPY
   * counts in. */
  binaryBatchedRowsPerSec: number;
}

/** Rows per second of `psql \copy` into a fresh table, from a CSV file and from a binary COPY file. The binary file is
 * written by the server itself (`\copy ... TO ... (FORMAT binary)` of the CSV-loaded table), so the limit owes
 * nothing to Deltaport's encoder. `aroundBinary` runs the `psql` of the one-file binary load (to measure the server
 * meanwhile). */
export async function psqlCopyLimits(
  dir: string,
  databaseUrl: string,
  source: RowSource,
  batch: TransactionCut,
  aroundBinary: (load: () => Promise<unknown>) => Promise<unknown>,
): Promise<PsqlLimits> {
  const csv = path.join(dir, 'limit.csv');
  const binary = path.join(dir, 'limit.bin');
  await writeCsv(csv, source);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const psql = (args: string[]) => execFileAsync('psql', [databaseUrl, '-v', 'ON_ERROR_STOP=1', '-q', ...args], { maxBuffer: 1 << 20 });
  /** Seconds to load the files (one `\\copy` each, in autocommit) into a fresh table, whose rows are counted and
   * which is then dropped. */
  const load = async (
    files: string[],
    format: string,
    { keep = false, around = (run: () => Promise<unknown>) => run() } = {},
  ): Promise<number> => {
    await client.query('DROP TABLE IF EXISTS bench_limit');
    await client.query(`CREATE TABLE bench_limit (${PG_COLUMNS})`);
    let seconds = 0;
    // Timed inside `around`, which may wait after the load (for the server's backend to end).
    await around(async () => {
      const started = performance.now();
      await psql(files.flatMap((file) => ['-c', `\\copy bench_limit FROM '${file}' WITH (FORMAT ${format})`]));
      seconds = (performance.now() - started) / 1000;
    });
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM bench_limit');
    if (Number(rows[0].n) !== source.rows) throw new Error(`psql \\copy (${format}) loaded ${rows[0].n} of ${source.rows} rows`);
    if (!keep) await client.query('DROP TABLE bench_limit');
    return seconds;
  };
  const parts = path.join(dir, 'limit-parts');
  try {
    const csvSeconds = await load([csv], 'csv', { keep: true });
    await psql(['-c', `\\copy bench_limit TO '${binary}' WITH (FORMAT binary)`]);
    const binarySeconds = await load([binary], 'binary', { around: aroundBinary });
    const batchedSeconds = await load(await splitBinaryCopy(binary, batch, parts), 'binary');
    return {
      csvRowsPerSec: source.rows / csvSeconds,
      binaryRowsPerSec: source.rows / binarySeconds,
      binaryBatchedRowsPerSec: source.rows / batchedSeconds,
    };
  } finally {
    await client.end();
    await fs.rm(csv, { force: true });
    await fs.rm(binary, { force: true });
    await fs.rm(parts, { recursive: true, force: true });
  }
}

/** The header of a binary COPY file without OIDs or extension: signature, flags, extension length. */
const BINARY_HEADER_BYTES = 19;

/** Where the export ends a PostgreSQL transaction: after the batch of `rows` rows that brings it to
 * transactionBytesAt(`bytes`). */
export interface TransactionCut {
  rows: number;
  bytes: number;
}

/** Splits a binary COPY file (as the server wrote it) into files cut as `cut` says, every one with the header and the
 * trailer: the server's bytes, only regrouped. */
async function splitBinaryCopy(file: string, cut: TransactionCut, dir: string): Promise<string[]> {
  const bytes = await fs.readFile(file);
  const header = bytes.subarray(0, BINARY_HEADER_BYTES);
  const trailer = Buffer.from([0xff, 0xff]);
  await fs.mkdir(dir, { recursive: true });
  const files: string[] = [];
  let pos = BINARY_HEADER_BYTES;
  let partStart = pos;
  let inPart = 0;
  const flush = async () => {
    const part = path.join(dir, `part-${files.length}.bin`);
    await fs.writeFile(part, Buffer.concat([header, bytes.subarray(partStart, pos), trailer]));
    files.push(part);
    partStart = pos;
    inPart = 0;
  };
  for (;;) {
    const fields = bytes.readInt16BE(pos);
    if (fields === -1) break;
    pos += 2;
    for (let f = 0; f < fields; f++) {
      const length = bytes.readInt32BE(pos);
      pos += 4 + Math.max(length, 0);
    }
    if (++inPart % cut.rows === 0 && pos - partStart >= transactionBytesAt(cut.bytes, files.length)) await flush();
  }
  if (inPart > 0) await flush();
  return files;
}
