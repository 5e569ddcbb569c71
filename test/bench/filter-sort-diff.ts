// The benchmark's reads that should touch little: a filter on one partition of the partitioned table (files pruned
// by partition values), a selective filter on the wide table's clustered `id` (files skipped by statistics), the
// top 100 rows by one column over the whole wide table (bounded memory), and the diff of the partitioned table's
// last two versions, a deletion-vector delete (only the changed file read). Skipping is reported three ways: the
// reader's own figures, the same counted here from the table's log, and the data files the reader touched.
import { DeltaTable } from '../../electron/delta/table.js';
import { openSource } from '../../electron/delta/source.js';
import { diffSnapshots } from '../../electron/delta/change/snapshot-diff.js';
import { runCli } from './child-run.js';
import { dataFilesTouched } from './file-reads.js';
import { bytesOf, liveFilesFromLog, liveRowsOf, type LoggedFile } from './log-replay.js';
import { PARTITIONS, regionOf, type PartitionedTable } from './partitioned-table.js';
import type { Figure } from './report.js';
import { localReads, openLocal } from '../support/task-tables.js';

/** One filtered read of every matching row. "Read" is what the filter left to read (files and bytes not skipped), as
 * the reader reports it and as counted here from the log (files whose partition values or statistics leave them
 * possible); `filesOpened` is the data files the reader touched through its storage. */
const FILTER_FIGURES = [
  'filesRead',
  'filesTotal',
  'bytesRead',
  'bytesTotal',
  'filesReadFromLog',
  'bytesReadFromLog',
  'filesOpened',
  'rows',
  'ms',
] as const;
export type FilterFigures = Record<(typeof FILTER_FIGURES)[number], Figure>;

/** The time and the peak RSS (VmHWM) of the `deltaport preview --order-by` process, and the rows it ordered. */
const SORT_FIGURES = ['ms', 'peakRssMb', 'rowsOrdered'] as const;
export type SortFigures = Record<(typeof SORT_FIGURES)[number], Figure>;

/** The data files the diff touched, against the table's files and those the diff found changed; the rows it found,
 * against those the delete between the two versions removed (as the benchmark wrote it). */
const DIFF_FIGURES = ['ms', 'filesRead', 'filesTotal', 'filesChanged', 'rowsAdded', 'rowsRemoved', 'rowsDeleted'] as const;
export type DiffFigures = Record<(typeof DIFF_FIGURES)[number], Figure>;

export interface QueryFigures {
  /** What was asked, for the report: each filter's `--where`, the partitions of the table, the order and its rows. */
  partitionWhere: string;
  partitions: number;
  statsWhere: string;
  sortBy: string;
  sortLimit: number;
  partitionFilter: FilterFigures;
  statsFilter: FilterFigures;
  sort: SortFigures;
  diff: DiffFigures;
}

const SORT_LIMIT = 100;
const SORT_COLUMN = 'amount';
/** Rows the stats filter selects, from inside one file. */
const SELECTED_IDS = 1000;

type Log = (line: string) => void;

export async function queryCases(wide: { root: string; version: number }, partitioned: PartitionedTable, log: Log): Promise<QueryFigures> {
  const region = regionOf(3);
  const partitionWhere = `region = '${region}'`;
  const partitionFilter = await orFailed('filter on one partition', FILTER_FIGURES, log, () =>
    filterCase(partitioned.root, partitioned.version, partitionWhere, (f) => f.partitionValues.region === region, log),
  );

  let statsWhere = 'id BETWEEN (no file to choose the range from)';
  const statsFilter = await orFailed('filter on clustered id', FILTER_FIGURES, log, async () => {
    const range = selectiveRange(await liveFilesFromLog(wide.root, wide.version));
    statsWhere = `id BETWEEN ${range.from} AND ${range.to}`;
    const mayMatch = (f: LoggedFile) => Number(f.minValues.id) <= range.to && Number(f.maxValues.id) >= range.from;
    return filterCase(wide.root, wide.version, statsWhere, mayMatch, log, SELECTED_IDS);
  });

  const sortBy = `${SORT_COLUMN} desc`;
  const sort = await orFailed('top rows over the whole table', SORT_FIGURES, log, () => sortCase(wide, sortBy, log));
  const diff = await orFailed('diff of adjacent versions', DIFF_FIGURES, log, () => diffCase(partitioned, log));
  return { partitionWhere, partitions: PARTITIONS, statsWhere, sortBy, sortLimit: SORT_LIMIT, partitionFilter, statsFilter, sort, diff };
}

/** A case that fails gives its reason for each of its figures; the benchmark goes on. */
async function orFailed<K extends string>(
  name: string,
  keys: readonly K[],
  log: Log,
  fn: () => Promise<Record<K, Figure>>,
): Promise<Record<K, Figure>> {
  try {
    return await fn();
  } catch (err) {
    const error = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    log(`${name}: not measured (${error})`);
    return Object.fromEntries(keys.map((k) => [k, { error }])) as Record<K, Figure>;
  }
}

/** Ids from inside the middle file without a deletion vector, so that exactly SELECTED_IDS rows match. */
function selectiveRange(files: LoggedFile[]): { from: number; to: number } {
  const whole = files.filter((f) => f.deleted === 0 && f.numRecords >= SELECTED_IDS + 100);
  if (whole.length === 0) throw new Error(`no file of ${SELECTED_IDS + 100} rows without deletions`);
  const from = Number(whole[whole.length >> 1].minValues.id) + 100;
  return { from, to: from + SELECTED_IDS - 1 };
}

async function filterCase(
  root: string,
  version: number,
  where: string,
  mayMatch: (file: LoggedFile) => boolean,
  log: Log,
  expectedRows?: number,
): Promise<FilterFigures> {
  const files = await liveFilesFromLog(root, version);
  const possible = files.filter(mayMatch);
  const started = performance.now();
  const { result, files: touched } = await dataFilesTouched(root, async () => {
    const source = await openSource({ tablePath: root, versionAsOf: version, filter: where }, openLocal);
    let rows = 0;
    // With a limit the scan stays in this thread, where its reads are seen (a whole-table read may take a thread of
    // its own); this one is never reached.
    for await (const { batch } of source.batches({ limit: Number.MAX_SAFE_INTEGER })) rows += batch.numRows;
    return { rows, skipping: source.filter!.skipping };
  });
  const ms = performance.now() - started;
  const wantRows = expectedRows ?? liveRowsOf(possible);
  if (result.rows !== wantRows) throw new Error(`--where "${where}" gave ${result.rows} rows, expected ${wantRows}`);
  const { filesTotal, filesSkipped, bytesTotal, bytesSkipped } = result.skipping;
  log(
    `--where "${where}": the reader reports ${filesTotal - filesSkipped} of ${filesTotal} files to read, the log ` +
      `${possible.length} of ${files.length}; it touched ${touched.size}; ${result.rows} rows in ${ms.toFixed(1)} ms`,
  );
  return {
    filesRead: { value: filesTotal - filesSkipped },
    filesTotal: { value: filesTotal },
    bytesRead: { value: bytesTotal - bytesSkipped },
    bytesTotal: { value: bytesTotal },
    filesReadFromLog: { value: possible.length },
    bytesReadFromLog: { value: bytesOf(possible) },
    filesOpened: { value: touched.size },
    rows: { value: result.rows },
    ms: { value: ms },
  };
}

/** `deltaport preview --order-by` in a process of its own, whose peak RSS is the sort's. */
async function sortCase(wide: { root: string; version: number }, sortBy: string, log: Log): Promise<SortFigures> {
  const run = await runCli(['preview', wide.root, '--order-by', sortBy, '--limit', String(SORT_LIMIT), '--format', 'jsonl']);
  const values = run.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as Record<string, number>)[SORT_COLUMN]);
  if (values.length !== SORT_LIMIT) throw new Error(`the ordered preview gave ${values.length} rows`);
  if (values.some((v, i) => i > 0 && v > values[i - 1])) throw new Error(`the ordered preview is not in ${sortBy} order`);
  // The log's maxima bound the top value: at most the largest of all files', at least the largest of files that
  // lost no rows.
  const files = await liveFilesFromLog(wide.root, wide.version);
  const maxOf = (list: LoggedFile[]) => Math.max(...list.map((f) => Number(f.maxValues[SORT_COLUMN])));
  if (values[0] > maxOf(files) || values[0] < maxOf(files.filter((f) => f.deleted === 0))) {
    throw new Error(`the top ${SORT_COLUMN} ${values[0]} is not the table's largest, from its log`);
  }
  log(`top ${SORT_LIMIT} by ${sortBy} over ${liveRowsOf(files)} rows: ${run.ms.toFixed(0)} ms, peak RSS ${run.maxRssMb?.toFixed(0)} MB`);
  return {
    ms: { value: run.ms },
    peakRssMb: run.maxRssMb === null ? { error: 'the process did not report it' } : { value: run.maxRssMb },
    rowsOrdered: { value: liveRowsOf(files) },
  };
}

async function diffCase(table: PartitionedTable, log: Log): Promise<DiffFigures> {
  const { beforeDelete: from, version: to } = table;
  const started = performance.now();
  const { result, files } = await dataFilesTouched(table.root, async () => {
    const diff = await diffSnapshots(await DeltaTable.open(table.root, localReads), from, to);
    let added = 0;
    let removed = 0;
    for await (const batch of diff.rows()) {
      const change = batch.getChild('_change')!;
      for (let r = 0; r < batch.numRows; r++) {
        if (change.get(r) === 'added') added++;
        else removed++;
      }
    }
    return { added, removed, changed: diff.filesAdded.length + diff.filesRemoved.length + diff.filesWithNewDeletions.length };
  });
  const ms = performance.now() - started;
  const total = (await liveFilesFromLog(table.root, to)).length;
  log(`diff ${from} -> ${to}: touched ${files.size} of ${total} files, ${result.removed} rows removed in ${ms.toFixed(1)} ms`);
  return {
    ms: { value: ms },
    filesRead: { value: files.size },
    filesTotal: { value: total },
    filesChanged: { value: result.changed },
    rowsAdded: { value: result.added },
    rowsRemoved: { value: result.removed },
    rowsDeleted: { value: table.deletedRows },
  };
}
