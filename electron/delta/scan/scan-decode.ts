// Decoding the rows a file's plan (scan-plan.ts) reads: its Parquet columns through parquet-wasm, a row group at a
// time, normalized to the output's canonical Arrow types (normalize.ts), with the partition constants in their
// places. Rows are decoded in pieces of tens of thousands (see decodedPieces), whatever the deletion vector keeps:
// choosing the kept rows is scan-emit.ts's.
import type * as arrow from 'apache-arrow';
import { concatColumn } from '../engine/concat-batches.js';
import { normalizeColumn } from './normalize.js';
import type { ColumnScratch } from '../engine/arrow-ffi.js';
import type { ParquetHandle, ReadRequest } from '../engine/parquet-file.js';
import type { FilePlan, GroupRows, ScanPlan } from './scan-plan.js';

/** Rows decoded per piece of an export's read; see decodedPieces. */
export const DECODE_ROWS = 1 << 15;
/** Rows of a row group asked of parquet-wasm at once, at most where its pages allow; see streamedGroup. */
const READ_ROWS = 1 << 17;

/** Rows [start, start + length) of a file (physical row numbers) in the output's columns. */
export interface DecodedRows {
  start: number;
  length: number;
  /** The output's columns for `length` rows from physical row `at`. */
  slice(at: number, length: number): arrow.Data[];
  /** The output's columns for the rows of `runs` ([from, to) physical rows, in order, `length` in all), copied
   * together; flat columns only (canConcat). */
  gather(runs: [number, number][], length: number): arrow.Data[];
}

/** Decoded rows of one file; `data` is absent when no column is read from the file. */
interface Piece {
  length: number;
  data?: arrow.RecordBatch;
}

/** The group's rows still to come, in order. `wanted` (Infinity for all) is how many kept rows the scan still needs:
 * a preview's read stops at those plus at most every deleted row. */
export async function* decodeGroup(plan: ScanPlan, file: FilePlan, group: GroupRows, wanted: number): AsyncGenerator<DecodedRows> {
  const available = group.to - group.from;
  const limit = wanted === Infinity ? undefined : Math.min(available, wanted + file.deleted.length);
  const pieces =
    file.columns.length === 0
      ? [{ length: limit ?? available }]
      : decodedPieces(
          file.handle,
          { columns: file.columns, rowGroups: [group.group], offset: group.from - group.start, limit },
          plan.batchSize,
          plan.scratch,
        );
  let start = group.from;
  for await (const piece of pieces) {
    yield outputRows(plan, file, piece, start);
    start += piece.length;
  }
}

/** The rows of a read as pieces of decoded columns. A read to the end of a row group (an export) comes in pieces of
 * a whole number of batches near DECODE_ROWS (so that, without deletions, a piece's end cuts no batch short but where
 * one of parquet-wasm's reads of the group ends: streamedGroup), each crossing from WebAssembly on its own. Whole row
 * groups at once cost the export of the 10M-row benchmark table ~45 MB of peak RSS: WebAssembly memory, which never
 * shrinks, sized for a row group's IPC copy, and allocations of that size, which glibc's malloc then serves from a
 * heap it cannot give back. A limited read (a preview) is one piece. */
async function* decodedPieces(
  handle: ParquetHandle,
  request: ReadRequest,
  batchSize: number,
  scratch: ColumnScratch | undefined,
): AsyncGenerator<Piece> {
  const tables =
    request.limit === undefined
      ? streamedGroup(handle, request, Math.ceil(DECODE_ROWS / batchSize) * batchSize, scratch)
      : [await handle.read(request)];
  for await (const table of tables) {
    for (const data of table.batches) yield { length: data.numRows, data };
  }
}

/** The rest of one row group from `request.offset`, in batches of `batchRows`. parquet-wasm decodes all of a call's
 * rows of a row group before it yields the first batch, and its WebAssembly memory keeps the size of the largest call
 * for the rest of the process (a whole 100k-row group of the benchmark's table: 23 MB of it, 1M-row groups 175 MB).
 * So where the group's pages are indexed, it is asked for in reads of at most READ_ROWS rows, cut where pages start
 * (readEnds): a cut inside a page would have two reads decode that page. Without an index, each read would fetch the
 * whole group's column chunks again, so the group is read whole. */
async function* streamedGroup(
  handle: ParquetHandle,
  request: ReadRequest,
  batchRows: number,
  scratch: ColumnScratch | undefined,
): AsyncGenerator<arrow.Table> {
  const [group] = request.rowGroups!;
  let at = request.offset ?? 0;
  const end = handle.rowGroupRows[group];
  const pages = end - at > READ_ROWS ? await handle.pageStarts(group, request.columns) : null;
  if (!pages) {
    yield* handle.stream({ ...request, batchSize: batchRows, scratch });
    return;
  }
  for (const to of readEnds(pages, at, end, READ_ROWS)) {
    yield* handle.stream({ ...request, offset: at, limit: to - at, batchSize: batchRows, scratch });
    at = to;
  }
}

/** Where the reads of rows [from, end) of a row group end, given where its pages start: each at the last page start
 * at most `most` rows past the read's first row, or at the next one where a page alone holds more; the last at `end`.
 * The page starts are those of the group's largest column: another column's pages may still be cut, and their rows
 * decoded twice. */
export function readEnds(pageStarts: number[], from: number, end: number, most: number): number[] {
  const ends: number[] = [];
  let at = from;
  let k = 0;
  while (end - at > most) {
    while (k < pageStarts.length && pageStarts[k] <= at) k++;
    if (k === pageStarts.length) break;
    while (k + 1 < pageStarts.length && pageStarts[k + 1] <= at + most) k++;
    at = pageStarts[k];
    ends.push(at);
  }
  ends.push(end);
  return ends;
}

function outputRows(plan: ScanPlan, file: FilePlan, piece: Piece, start: number): DecodedRows {
  const columns = plan.fields.map((f, k) => {
    const constant = file.constants[k];
    if (constant) return constant;
    const source = file.sources[k] && piece.data?.getChild(file.sources[k].name)?.data[0];
    return normalizeColumn(source, f.type, piece.length, { mode: plan.mode, column: f.name });
  });
  return {
    start,
    length: piece.length,
    // A constant column holds batchSize copies of its value, the most a batch takes.
    slice: (at, length) => columns.map((d, k) => (file.constants[k] ? d.slice(0, length) : d.slice(at - start, length))),
    gather: (runs, length) =>
      columns.map((d, k) =>
        file.constants[k]
          ? d.slice(0, length)
          : concatColumn(
              d.type,
              runs.map(([from, to]) => ({ data: d, from: from - start, length: to - from })),
              length,
            ),
      ),
  };
}
