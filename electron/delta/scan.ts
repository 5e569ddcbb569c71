// Snapshot -> stream of canonical Arrow record batches. Files are read one at a time, row group by row group, only
// the chosen columns decoded (in pieces of tens of thousands of rows: see decodedPieces); emitted batches hold at
// most batchSize rows and never straddle a row group. Without deletions they are zero-copy slices; where deletion
// vectors cut a decoded piece into many short runs, the runs are copied together into full batches, since every
// batch costs each sink a fixed overhead (a file with every tenth row deleted would otherwise yield batches of nine
// rows).
import * as arrow from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import type { Expr } from '../../shared/expression/index.js';
import { constantData } from './arrow-data.js';
import { concatBatches } from './concat-batches.js';
import { selectFields, toArrowField, toArrowType } from './arrow-types.js';
import { columnMappingMode, findFileField, physicalName, type ColumnMappingMode } from './column-mapping.js';
import { loadDeletionVector } from './deletion-vectors.js';
import { skippedRowGroups } from './filter/row-group-skipping.js';
import { normalizeColumn } from './normalize.js';
import { openParquet, type ParquetHandle, type ReadRequest } from './parquet-file.js';
import { parsePartitionValue } from './partition-values.js';
import type { ScanBatch, ScanOptions, ScanPosition } from './scan-types.js';
import type { LiveFile, Snapshot } from './snapshot.js';

const DEFAULT_BATCH_SIZE = 2048;
const NO_DELETIONS = new Float64Array(0);
/** Rows decoded per piece of an export's read; see decodedPieces. */
const DECODE_ROWS = 1 << 15;

interface Plan {
  fields: StructField[];
  schema: arrow.Schema;
  structType: arrow.Struct;
  partitions: Set<string>;
  mode: ColumnMappingMode;
  batchSize: number;
  signal?: AbortSignal;
  rowGroupFilter?: Expr;
}

/** Decoded rows of one file; `data` is absent when no column is read from the file. */
interface Piece {
  length: number;
  data?: arrow.RecordBatch;
}

interface Progress {
  remaining: number;
  bytesDone: number;
  filesDone: number;
}

export async function* scan(snapshot: Snapshot, options: ScanOptions = {}): AsyncGenerator<ScanBatch> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalid(`batch size must be a positive integer, got ${batchSize}`);
  const limit = options.limit ?? Infinity;
  if (limit !== Infinity && (!Number.isInteger(limit) || limit < 0)) throw invalid(`limit must be a non-negative integer, got ${limit}`);
  const start: ScanPosition = options.resumeFrom ?? { fileIndex: 0, rowsInFile: 0 };
  if (
    !Number.isInteger(start.fileIndex) ||
    start.fileIndex < 0 ||
    start.fileIndex > snapshot.files.length ||
    !Number.isInteger(start.rowsInFile) ||
    start.rowsInFile < 0
  ) {
    throw invalid(`cannot resume at file ${start.fileIndex}, row ${start.rowsInFile}: the snapshot has ${snapshot.files.length} files`);
  }
  const fields = selectFields(snapshot, options.columns);
  const schema = new arrow.Schema(fields.map(toArrowField));
  const plan: Plan = {
    fields,
    schema,
    structType: new arrow.Struct(schema.fields),
    partitions: new Set(snapshot.partitionColumns),
    mode: columnMappingMode(snapshot.metadata),
    batchSize,
    signal: options.signal,
    rowGroupFilter: options.rowGroupFilter,
  };
  const progress: Progress = {
    remaining: limit,
    bytesDone: snapshot.files.slice(0, start.fileIndex).reduce((n, f) => n + f.add.size, 0),
    filesDone: start.fileIndex,
  };
  for (let i = start.fileIndex; i < snapshot.files.length && progress.remaining > 0; i++) {
    checkAborted(plan.signal);
    yield* scanFile(snapshot, plan, progress, i, i === start.fileIndex ? start.rowsInFile : 0);
    progress.bytesDone += snapshot.files[i].add.size;
    progress.filesDone++;
  }
}

async function* scanFile(
  snapshot: Snapshot,
  plan: Plan,
  progress: Progress,
  fileIndex: number,
  skipRows: number,
): AsyncGenerator<ScanBatch> {
  const file = snapshot.files[fileIndex];
  const deleted = file.add.deletionVector ? await loadDeletionVector(snapshot.tableRoot, file.add.deletionVector) : NO_DELETIONS;
  const constants = partitionConstants(plan, file);
  const handle = await openParquet(file.absolutePath);
  try {
    const skippedGroups = plan.rowGroupFilter
      ? await skippedRowGroups(file, plan.rowGroupFilter, {
          fields: snapshot.schema.fields,
          partitionColumns: plan.partitions,
          mode: plan.mode,
        })
      : null;
    const sources = plan.fields.map((f) => (plan.partitions.has(f.name) ? undefined : findFileField(handle.schema.fields, f, plan.mode)));
    const columns = [...new Set(sources.filter((s) => s !== undefined).map((s) => s.name))];
    let emitted = skipRows;
    let next = physicalRowOfKept(skipRows, deleted);
    let groupStart = 0;
    for (const [group, groupRows] of handle.rowGroupRows.entries()) {
      const groupEnd = groupStart + groupRows;
      if (groupEnd <= next) {
        groupStart = groupEnd;
        continue;
      }
      if (skippedGroups?.has(group)) {
        emitted += groupEnd - next - countIn(deleted, next, groupEnd);
        next = groupEnd;
        groupStart = groupEnd;
        continue;
      }
      checkAborted(plan.signal);
      const offset = next - groupStart;
      // Reading stops early for previews: the rows still wanted plus at most every deleted row.
      const limit = progress.remaining === Infinity ? undefined : Math.min(groupRows - offset, progress.remaining + deleted.length);
      const decoded =
        columns.length === 0
          ? [{ length: limit ?? groupRows - offset, data: undefined }]
          : decodedPieces(handle, { columns, rowGroups: [group], offset, limit }, plan.batchSize);
      for await (const piece of decoded) {
        const normalized = plan.fields.map((f, k) => {
          const constant = constants[k];
          if (constant) return constant;
          const source = sources[k] && piece.data?.getChild(sources[k].name)?.data[0];
          return normalizeColumn(source, f.type, piece.length, { mode: plan.mode, column: f.name });
        });
        // Slices of kept rows not yet emitted, each with the position after it; together at most batchSize rows.
        let pending: ScanBatch[] = [];
        let pendingRows = 0;
        for (const [from, to] of keptRuns(deleted, next, next + piece.length)) {
          for (let at = from; at < to && progress.remaining > 0;) {
            checkAborted(plan.signal);
            const length = Math.min(plan.batchSize - pendingRows, to - at, progress.remaining);
            const children = normalized.map((d, k) => (constants[k] ? d.slice(0, length) : d.slice(at - next, length)));
            const data = arrow.makeData({ type: plan.structType, length, nullCount: 0, children });
            emitted += length;
            progress.remaining -= length;
            at += length;
            pending.push({
              batch: new arrow.RecordBatch(plan.schema, data),
              end: { fileIndex, rowsInFile: emitted },
              // The current file counts in proportion to its rows read: an export of a few big files would
              // otherwise show no progress for a long time.
              bytesDone: progress.bytesDone + Math.floor((file.add.size * at) / handle.numRows),
              filesDone: progress.filesDone,
            });
            pendingRows += length;
            if (pendingRows === plan.batchSize) {
              yield* joined(pending);
              pending = [];
              pendingRows = 0;
            }
          }
          if (progress.remaining <= 0) break;
        }
        yield* joined(pending);
        if (progress.remaining <= 0) return;
        next += piece.length;
      }
      groupStart = groupEnd;
    }
  } finally {
    handle.close();
  }
}

/** The rows of a read as pieces of decoded columns. A read to the end of a row group (an export) comes in pieces of
 * a whole number of batches near DECODE_ROWS (so that, without deletions, a piece's end cuts no batch short), each
 * crossing from WebAssembly on its own. Whole row groups at once cost the export of the 10M-row benchmark table
 * ~45 MB of peak RSS: WebAssembly memory, which never shrinks, sized for a row group's IPC copy, and allocations of
 * that size, which glibc's malloc then serves from a heap it cannot give back. A limited read (a preview) is one
 * piece. */
async function* decodedPieces(handle: ParquetHandle, request: ReadRequest, batchSize: number): AsyncGenerator<Piece> {
  const tables =
    request.limit === undefined
      ? handle.stream({ ...request, batchSize: Math.ceil(DECODE_ROWS / batchSize) * batchSize })
      : [await handle.read(request)];
  for await (const table of tables) {
    for (const data of table.batches) yield { length: data.numRows, data };
  }
}

/** Consecutive slices of one file as one batch ending where the last ends; one by one where columns cannot be joined
 * (nested types). */
function joined(slices: ScanBatch[]): ScanBatch[] {
  if (slices.length <= 1) return slices;
  const batch = concatBatches(slices.map((s) => s.batch));
  return batch ? [{ ...slices[slices.length - 1], batch }] : slices;
}

/** Per output column, the file's partition value repeated batchSize times (sliced per batch), else undefined. */
function partitionConstants(plan: Plan, file: LiveFile): (arrow.Data | undefined)[] {
  return plan.fields.map((f) => {
    if (!plan.partitions.has(f.name)) return undefined;
    const raw = file.add.partitionValues[physicalName(f, plan.mode)];
    return constantData(toArrowType(f.type), parsePartitionValue(raw, f.type, f.name), plan.batchSize);
  });
}

/** The physical index of the k-th (0-based) row not deleted. */
export function physicalRowOfKept(k: number, deleted: Float64Array): number {
  let row = k;
  for (const d of deleted) {
    if (d > row) break;
    row++;
  }
  return row;
}

/** Maximal [from, to) runs of rows within [lo, hi) that are not deleted. */
export function keptRuns(deleted: Float64Array, lo: number, hi: number): [number, number][] {
  const runs: [number, number][] = [];
  let at = lo;
  for (let i = lowerBound(deleted, lo); i < deleted.length && deleted[i] < hi; i++) {
    if (deleted[i] > at) runs.push([at, deleted[i]]);
    at = deleted[i] + 1;
  }
  if (at < hi) runs.push([at, hi]);
  return runs;
}

/** Deleted rows within [lo, hi). */
function countIn(deleted: Float64Array, lo: number, hi: number): number {
  return lowerBound(deleted, hi) - lowerBound(deleted, lo);
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError('scan');
}

function invalid(message: string): DeltaportError {
  return new DeltaportError('VALIDATION', message);
}
