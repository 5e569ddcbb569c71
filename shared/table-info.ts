// What the reader reports about a table and its history, in a form that crosses IPC/HTTP as plain JSON.
import type { StructType } from './delta-schema.js';

export interface ProtocolInfo {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures: string[];
  writerFeatures: string[];
}

export interface TableInfo {
  /** Absolute path of the table folder. */
  path: string;
  /** Snapshot version this info describes. */
  version: number;
  /** Commit time of that version as its log records it, epoch ms: its in-commit timestamp or its commit file's time.
   * History and time travel make file times monotonic, which takes every earlier commit's: they differ only where
   * file times repeat or go backwards. */
  timestamp: number;
  /** Readable versions: earliest recreatable to latest. */
  versionRange: { earliest: number; latest: number };
  id: string;
  name: string | null;
  description: string | null;
  createdTime: number | null;
  schema: StructType;
  partitionColumns: string[];
  protocol: ProtocolInfo;
  configuration: Record<string, string>;
  numFiles: number;
  sizeBytes: number;
  /** Sum of numRecords from file stats less deletion-vector cardinalities; null when any file lacks stats. */
  numRecords: number | null;
}

export interface CommitSummary {
  version: number;
  /** The commit's time as time travel resolves it, epoch ms. */
  timestamp: number;
  /** commitInfo.timestamp as written by the engine, when present. */
  commitInfoTimestamp: number | null;
  operation: string | null;
  operationParameters: Record<string, unknown>;
  operationMetrics: Record<string, unknown>;
  engineInfo: string | null;
  userName: string | null;
  isBlindAppend: boolean | null;
}

/** What a filter let a read skip before decoding: files whose partition values or statistics rule out a match. */
export interface FilterSkipping {
  filesTotal: number;
  filesSkipped: number;
  bytesTotal: number;
  bytesSkipped: number;
}

/** One partition of a snapshot: its values (raw, as the log writes them; null for null) and what it holds. */
export interface PartitionSummary {
  values: Record<string, string | null>;
  files: number;
  /** numRecords less deleted rows; null when a file has no statistics. */
  rows: number | null;
  bytes: number;
}

/** A column's profile: from the log's statistics without reading data, or from an exact scan. */
export interface ColumnProfile {
  name: string;
  type: string;
  /** 'statistics': null count, min and max from the log (min and max may be bounds, not values: strings are
   * truncated, timestamps in milliseconds); 'scan': counted over every row. */
  source: 'statistics' | 'scan';
  nullCount: number | null;
  min: string | null;
  max: string | null;
  /** Distinct non-null values, exact up to the cap, else at least the cap (scan only). */
  distinct?: { count: number; atLeast: boolean };
  /** Scan only, for numbers, dates and timestamps with a non-null value (and, for float and double, finite bounds). */
  histogram?: Histogram;
}

/** Equal-width bins from a column's exact min to its max, counting its non-null values. */
export interface Histogram {
  /** 'values': a bin holds the values from `from` to `to`, both included (integers, decimals, dates, timestamps:
   * whole steps of the type); 'range': from <= v < to, the last bin also v = to (float, double). */
  kind: 'values' | 'range';
  bins: HistogramBin[];
}

export interface HistogramBin {
  /** Bounds as the column's values are shown (the profile's min and max are the first from and the last to). */
  from: string;
  to: string;
  count: number;
}

export interface TableProfile {
  version: number;
  /** Exact: numRecords less deletion vectors' cardinality (or counted by a scan); null without statistics. */
  rowCount: number | null;
  columns: ColumnProfile[];
}

/** One difference between two versions: a column (its type label), a table property or a protocol field. */
export interface VersionChange {
  name: string;
  from: string | null;
  to: string | null;
}

/** What changed between two versions besides the rows: for the diff as the engine computes it and as the API sends it. */
export interface VersionDiff {
  /** Top-level columns added, removed or of another type (from/to are type labels). */
  schema: VersionChange[];
  properties: VersionChange[];
  protocol: VersionChange[];
  filesAdded: string[];
  filesRemoved: string[];
  /** Files in both versions whose deletion vector changed: rows deleted in place. */
  filesWithNewDeletions: string[];
  /** Where the rows came from and how many files were read for them; with `reason` when the change data feed was
   * not used though the table has one. Final once the rows are read (a feed too large to net gives way to files). */
  rowsFrom: { source: 'change-feed' | 'data-files'; files: number; reason?: string };
}

/** The CLI's and the app's line on VersionDiff.rowsFrom: "rows from the change data feed (3 files read)". */
export function rowsFromText({ source, files, reason }: VersionDiff['rowsFrom']): string {
  const read = `${files} file${files === 1 ? '' : 's'} read${reason ? `; ${reason}` : ''}`;
  return `rows from the ${source === 'change-feed' ? 'change data feed' : 'data files'} (${read})`;
}
