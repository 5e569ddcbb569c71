// Column profiles. From the log alone (no data decoded): per top-level column the null count, min and max of the
// files' statistics (partition columns from their values, exactly), and the exact row count from numRecords less
// deletion vectors' cardinality; each marked as from statistics, since a string min/max may be truncated and
// timestamps are in milliseconds. On request, an exact scan: nulls, min, max and distinct values counted over
// every row the snapshot holds.
import { TimeUnit } from 'apache-arrow';
import type { ReadProgress } from '../../../shared/api.js';
import { decimalParts, isDecimal, type DeltaType, type StructField } from '../../../shared/delta-schema.js';
import { parseDeltaText, type DeltaValue } from '../../../shared/delta-values.js';
import { comparator, familyOf } from '../../../shared/expression/compare.js';
import type { ColumnProfile, Histogram, TableProfile } from '../../../shared/table-info.js';
import { formatDays } from '../../../shared/timestamp.js';
import { withScale } from '../../values/decimal-text.js';
import { timestampFormatter } from '../../values/time-text.js';
import { columnMappingMode, physicalName } from '../column-mapping.js';
import { valueReader } from '../filter/arrow-values.js';
import type { FileStats, StatsTree } from '../filter/file-stats.js';
import { parsePartitionValue } from '../scan/partition-values.js';
import type { LiveFile, Snapshot } from '../snapshot.js';
import { openSource } from '../source.js';
import type { DeltaTable } from '../table.js';
import { binning, type Binning } from './histogram.js';

/** Distinct values are counted exactly up to this many per column. */
export const DISTINCT_CAP = 100_000;

export function rowCount(snapshot: Snapshot, stats: (FileStats | null)[]): number | null {
  let total = 0;
  for (const [i, file] of snapshot.files.entries()) {
    const n = stats[i]?.numRecords;
    if (typeof n !== 'number') return null;
    total += n - (file.add.deletionVector?.cardinality ?? 0);
  }
  return total;
}

export function statisticsProfile(snapshot: Snapshot, stats: (FileStats | null)[]): TableProfile {
  const mode = columnMappingMode(snapshot.metadata);
  const partitions = new Set(snapshot.partitionColumns);
  const columns = profiled(snapshot.schema.fields).map((field): ColumnProfile => {
    const order = comparator(field.type, field.type);
    const key = physicalName(field, mode);
    let [min, max]: [DeltaValue, DeltaValue] = [null, null];
    let nullCount: number | null = 0;
    snapshot.files.forEach((file, i) => {
      const s = stats[i];
      let [lo, hi, nulls]: [DeltaValue, DeltaValue, number | null] = [null, null, null];
      if (partitions.has(field.name)) {
        lo = hi = parsePartitionValue(file.add.partitionValues[key], field.type, field.name);
        nulls = lo === null ? (s?.numRecords ?? null) : 0;
      } else if (s) {
        [lo, hi] = [statValue(s.minValues, key, field.type), statValue(s.maxValues, key, field.type)];
        const n = s.nullCount?.[key];
        nulls = typeof n === 'number' ? n : null;
      }
      if (lo !== null && (min === null || order(lo, min) < 0)) min = lo;
      if (hi !== null && (max === null || order(hi, max) > 0)) max = hi;
      nullCount = nullCount === null || nulls === null ? null : nullCount + nulls;
    });
    // A deletion vector may have removed nulls the file's count includes: then the count is an upper bound only.
    if (snapshot.files.some((f) => f.add.deletionVector) && !partitions.has(field.name)) nullCount = null;
    return {
      name: field.name,
      type: String(field.type),
      source: 'statistics',
      nullCount,
      min: text(min, field.type),
      max: text(max, field.type),
    };
  });
  return { version: snapshot.version, rowCount: rowCount(snapshot, stats), columns };
}

/** Reads every row of the table's version (through the table's engine), in two passes over its files (values, then
 * histograms); `onProgress` hears how far both have come. */
export async function scanProfile(
  table: DeltaTable,
  version: number,
  signal?: AbortSignal,
  onProgress?: (progress: ReadProgress) => void,
): Promise<TableProfile> {
  const tablePath = table.root;
  const opened = async () => table;
  const all = await openSource({ tablePath, versionAsOf: version }, opened);
  const fields = profiled(all.snapshot.schema.fields);
  // Every row is counted even when no column can be profiled: then the first column is read for its row count.
  const source = await openSource(
    {
      tablePath,
      versionAsOf: version,
      columnNames: fields.length > 0 ? fields.map((f) => f.name) : all.columns.slice(0, 1),
    },
    opened,
  );
  const state = fields.map((f) => ({
    order: comparator(f.type, f.type),
    nulls: 0,
    min: null as DeltaValue,
    max: null as DeltaValue,
    seen: new Set<unknown>(),
    full: false,
  }));
  const pass = passes(source.snapshot.files, onProgress);
  let rows = 0;
  for await (const { batch, filesDone, bytesDone } of source.batches({ signal })) {
    pass(0, filesDone, bytesDone);
    rows += batch.numRows;
    fields.forEach((f, k) => {
      const read = valueReader(batch.getChild(f.name)!.data[0]);
      const s = state[k];
      for (let r = 0; r < batch.numRows; r++) {
        const v = read(r);
        if (v === null) {
          s.nulls++;
          continue;
        }
        if (s.min === null || s.order(v, s.min) < 0) s.min = v;
        if (s.max === null || s.order(v, s.max) > 0) s.max = v;
        if (!s.full) {
          s.seen.add(v);
          if (s.seen.size > DISTINCT_CAP) s.full = true;
        }
      }
    });
  }
  const histograms = await histogramPass(
    table,
    version,
    fields.map((f, k) => binning(f.type, state[k].min, state[k].max)),
    fields,
    signal,
    (filesDone, bytesDone) => pass(1, filesDone, bytesDone),
  );
  const columns = fields.map((f, k): ColumnProfile => {
    const s = state[k];
    const histogram = histograms[k];
    return {
      name: f.name,
      type: String(f.type),
      source: 'scan',
      nullCount: s.nulls,
      min: text(s.min, f.type),
      max: text(s.max, f.type),
      distinct: s.full ? { count: DISTINCT_CAP, atLeast: true } : { count: s.seen.size, atLeast: false },
      ...(histogram ? { histogram } : {}),
    };
  });
  return { version, rowCount: rows, columns };
}

/** The second pass: reads only the columns that have bins and counts their non-null values into them. */
async function histogramPass(
  table: DeltaTable,
  version: number,
  binnings: (Binning | null)[],
  fields: StructField[],
  signal?: AbortSignal,
  onProgress?: (filesDone: number, bytesDone: number) => void,
): Promise<(Histogram | null)[]> {
  const binned = fields.flatMap((field, k) => {
    const bins = binnings[k];
    return bins ? [{ field, k, bins, counts: new Array<number>(bins.count).fill(0) }] : [];
  });
  if (binned.length === 0) return fields.map(() => null);
  const source = await openSource(
    { tablePath: table.root, versionAsOf: version, columnNames: binned.map((b) => b.field.name) },
    async () => table,
  );
  for await (const { batch, filesDone, bytesDone } of source.batches({ signal })) {
    onProgress?.(filesDone, bytesDone);
    for (const { field, bins, counts } of binned) {
      const read = valueReader(batch.getChild(field.name)!.data[0]);
      for (let r = 0; r < batch.numRows; r++) {
        const v = read(r);
        if (v !== null) counts[bins.bin(v)]++;
      }
    }
  }
  const histograms: (Histogram | null)[] = fields.map(() => null);
  for (const { field, k, bins, counts } of binned) {
    histograms[k] = {
      kind: bins.kind,
      bins: counts.map((count, i) => {
        const [from, to] = bins.bounds(i);
        return { from: text(from, field.type)!, to: text(to, field.type)!, count };
      }),
    };
  }
  return histograms;
}

/** Top-level columns with an order (numbers, strings, booleans, dates, timestamps). */
function profiled(fields: StructField[]): StructField[] {
  return fields.filter((f) => {
    const family = familyOf(f.type);
    return family !== null && family !== 'void';
  });
}

function statValue(tree: StatsTree | undefined, key: string, type: DeltaType): DeltaValue {
  const raw = tree?.[key];
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') return parseDeltaText(raw, type) ?? null;
  if (typeof raw !== 'number') return null;
  if (isDecimal(type)) return BigInt(Math.round(raw * 10 ** decimalParts(type).scale));
  return type === 'long' ? BigInt(Math.trunc(raw)) : raw;
}

const formatUtc = timestampFormatter(TimeUnit.MICROSECOND, true);
const formatLocal = timestampFormatter(TimeUnit.MICROSECOND, false);

function text(value: DeltaValue, type: DeltaType): string | null {
  if (value === null) return null;
  if (isDecimal(type)) return withScale(value as bigint, decimalParts(type).scale);
  if (typeof type !== 'string') return String(value);
  switch (type) {
    case 'date':
      return formatDays(value as number);
    case 'timestamp':
      return formatUtc(value as bigint);
    case 'timestamp_ntz':
      return formatLocal(value as bigint);
    case 'byte':
    case 'short':
    case 'integer':
    case 'long':
    case 'float':
    case 'double':
    case 'boolean':
    case 'string':
    case 'binary':
    case 'variant':
    case 'void':
      return String(value);
    default:
      return type satisfies never;
  }
}

/** Progress over both passes, each reading every file: the second's files count after all of the first's. */
function passes(files: LiveFile[], onProgress?: (progress: ReadProgress) => void) {
  const filesTotal = files.length * 2;
  const bytesTotal = files.reduce((sum, f) => sum + f.add.size, 0) * 2;
  return (pass: 0 | 1, filesDone: number, bytesDone: number) =>
    onProgress?.({
      files: pass * files.length + filesDone,
      filesTotal,
      bytes: (pass * bytesTotal) / 2 + bytesDone,
      bytesTotal,
    });
}
