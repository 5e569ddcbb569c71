// The full benchmark's scale cases (`npm run bench -- --scale`; refused with --quick, which must stay quick): an
// export of a 50M-row table whose peak RSS is held against the same export of a 2M-row table (an export's memory
// must not grow with the table), and delta-rs's 100,000-commit log opened by a new process of each
// (long-log-peer.ts). Both tables have the benchmark's shape (bench-tables.ts: files of 100,000 rows, a deletion
// vector in the first); each is written, exported once to SQLite and removed before the next, so the disk holds one
// at a time (the 50M-row table is about 2.3 GB, its SQLite file about 4.5 GB). The 100,000-commit log is written only
// on request (--write-scale-log), then kept in the cache folder like the 2,000- and 10,000-commit logs. Its every
// 25th commit also deletes the rows older than the last SCALE_RETAIN versions (deltars-long-log.py's RETAIN), so that
// it keeps about that many live files: delta-rs's commit costs time in proportion to the live files (13 ms at 2,000,
// 45 ms at 10,000 on this machine), and without that delete the log would take the better part of a day to write
// (about 96,000 files by its end); with it, 65 minutes here (30 commits a second, niced, on a busy machine). What a
// long log adds to an open (the listing of 101,000 log files, a checkpoint among 1,000, time travel half way back) is
// all there; the cost of many live files is the 10,000-commit log's, beside it. `--only scale-log` runs this case
// alone.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SEED, writeWideTable } from './bench-tables.js';
import { runCli } from './child-run.js';
import { sqliteRows } from './landed-rows.js';
import { longLogPeerCase, type LongLogPeerFigures } from './long-log-peer.js';
import type { Figure } from './report.js';

const SMALL_ROWS = 2_000_000;
const LARGE_ROWS = 50_000_000;
/** The benchmark's file size (bench-tables.ts writes `rows / files` rows a file). */
const ROWS_PER_FILE = 100_000;
const SCALE_COMMITS = 100_000;
const SCALE_RETAIN = 200;

export interface ScaleFigures {
  smallRows: number;
  largeRows: number;
  /** Peak RSS of each export process, MB. */
  smallRssMb: Figure;
  largeRssMb: Figure;
  largeRowsPerSec: Figure;
  longLog: LongLogPeerFigures;
}

export async function scaleCases(dir: string, writeLog: boolean, log: (line: string) => void): Promise<ScaleFigures> {
  const small = await exportOnce(dir, SMALL_ROWS, log);
  const large = await exportOnce(dir, LARGE_ROWS, log);
  const longLog = await scaleLogCase(writeLog, log);
  return {
    smallRows: SMALL_ROWS,
    largeRows: LARGE_ROWS,
    smallRssMb: small.rssMb,
    largeRssMb: large.rssMb,
    largeRowsPerSec: large.rowsPerSec,
    longLog,
  };
}

/** delta-rs's 100,000-commit log opened by a new process of each. */
export function scaleLogCase(writeLog: boolean, log: (line: string) => void): Promise<LongLogPeerFigures> {
  return longLogPeerCase(SCALE_COMMITS, log, { write: writeLog, retain: SCALE_RETAIN });
}

/** Writes a wide table of `rows` rows, exports it to SQLite through the CLI once, checks the rows landed, and removes
 * both; a failure becomes the figures' reason. */
async function exportOnce(dir: string, rows: number, log: (line: string) => void): Promise<{ rssMb: Figure; rowsPerSec: Figure }> {
  const folder = path.join(dir, `scale-${rows}`);
  try {
    const started = performance.now();
    const table = await writeWideTable(folder, rows, Math.ceil(rows / ROWS_PER_FILE));
    log(`scale: wrote ${rows} rows (seed ${SEED}) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const target = path.join(folder, 'export.sqlite');
    const run = await runCli(['export', table.root, '--sink', `sqlite:${target}`, '--target', 'wide']);
    const landed = sqliteRows(target, 'wide');
    if (landed !== table.liveRows) throw new Error(`the ${rows}-row export landed ${landed} rows, expected ${table.liveRows}`);
    const rssMb: Figure = run.maxRssMb === null ? { error: 'the process did not report it' } : { value: run.maxRssMb };
    log(`scale: export of ${rows} rows to SQLite, peak RSS ${'value' in rssMb ? rssMb.value.toFixed(1) : rssMb.error} MB`);
    return { rssMb, rowsPerSec: { value: table.liveRows / (run.ms / 1000) } };
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    log(`scale: export of ${rows} rows not measured (${error})`);
    return { rssMb: { error }, rowsPerSec: { error } };
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
