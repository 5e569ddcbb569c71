// An export's rows can be a table's changes instead of a snapshot: a diff's rows between two versions (updates
// paired by key columns when asked) or the change data feed of a range of commits; or a SQL query's result over
// snapshots (the SQL tab's Export these rows). The spec and its rules that need
// no table live here, for the host's boundary (shared/api-schemas.ts) and the window alike; the rules that need the
// table (the versions exist, the feed is recorded, the key columns are columns) are the engine's
// (electron/export/change-source.ts).
import * as v from 'valibot';
import type { TableRef } from './api.js';
import { isExactlyOnce, isSqlKind, type SinkKind, type SinkSpec, type WriteMode } from './sink-spec.js';
import { versionSchema, type DeltaSourceSpec } from './source-spec.js';
import { nameList, tableLocation, withRules } from './schema.js';

export type ChangeRowsKind = 'diff' | 'changes';

export interface ChangeSourceSpec {
  /** 'diff': the rows that differ between the snapshots at `from` and `to`; 'changes': the change data feed of the
   * commits `from` to `to`, both included. */
  rows: ChangeRowsKind;
  tablePath: string;
  from: number;
  to: number;
  /** A diff's key columns: a removed and an added row with the same key become one update. */
  pairBy?: string[];
}

/** A query's result (electron/sql/), run again by the export: its rows have no position in any snapshot. */
export interface SqlSourceSpec {
  rows: 'sql';
  /** The table the query's `t` names: the job's title and the sink's record of where rows came from name it. */
  tablePath: string;
  sql: string;
  /** The tables by the names the query uses, as the sql API takes them. */
  tables: Record<string, TableRef>;
}

/** Rows an export reads instead of a snapshot: a table's changes or a query's result. */
export type RowsSourceSpec = ChangeSourceSpec | SqlSourceSpec;

/** What an export reads: a snapshot, a table's changes, or a query's result. */
export type ExportSource = DeltaSourceSpec | RowsSourceSpec;

/** Whether the export reads rows other than a snapshot's (none of which can resume or be exported exactly once). */
export function isChangeSource(source: ExportSource): source is RowsSourceSpec {
  return 'rows' in source;
}

/** Whether the app keeps the exactly-once ledger of an export whatever was asked: a snapshot's rows into a SQL table
 * written by the sink's own statements (not the user's Custom SQL), so that a Retry resumes after what committed. */
export function ledgerAlwaysKept(source: ExportSource, kind: SinkKind, mode: WriteMode | undefined): boolean {
  return !isChangeSource(source) && isSqlKind(kind) && mode !== 'sql';
}

export function isSqlSource(source: ExportSource): source is SqlSourceSpec {
  return 'rows' in source && source.rows === 'sql';
}

/** Whether a table's configuration records a change data feed (delta.enableChangeDataFeed). */
export function recordsChangeFeed(configuration: Record<string, string> | undefined): boolean {
  return configuration?.['delta.enableChangeDataFeed'] === 'true';
}

export const CHANGES_NOT_EXACTLY_ONCE = 'changes cannot be exported exactly once: they have no position to resume from';

const changeShape = v.strictObject({
  rows: v.picklist(['diff', 'changes'], 'the rows must be "diff" or "changes"'),
  tablePath: tableLocation('the table path'),
  from: versionSchema('from'),
  to: versionSchema('to'),
  pairBy: v.optional(nameList('pairBy')),
});

export const changeSourceSchema = withRules(changeShape, changeSourceProblems);

/** Every problem of a change source that needs no table. */
export function changeSourceProblems(spec: ChangeSourceSpec): string[] {
  const problems: string[] = [];
  if (spec.from > spec.to) problems.push(`from (${spec.from}) is after to (${spec.to}): give the older version first`);
  if (spec.pairBy !== undefined) {
    if (spec.rows !== 'diff') problems.push('pairBy applies to a diff only: a change feed pairs its updates itself');
    else if (spec.pairBy.length === 0) problems.push('pairBy is empty: name a key column or leave it out');
    const blank = spec.pairBy.some((k) => k.trim() === '');
    if (blank) problems.push('pairBy: a key column name is empty');
    const repeated = spec.pairBy.find((k, i) => spec.pairBy!.indexOf(k) !== i);
    if (repeated !== undefined) problems.push(`pairBy: column '${repeated}' is named twice`);
  }
  return problems;
}

/** What a sink may not do with changes, whatever the table. */
export function changeSinkProblems(sink: SinkSpec): string[] {
  return isExactlyOnce(sink) ? [CHANGES_NOT_EXACTLY_ONCE] : [];
}

/** How the rows are named in a job's title and a default target: "v3→v5 diff", "v3→v5 changes". */
export function changeRangeLabel(spec: Pick<ChangeSourceSpec, 'rows' | 'from' | 'to'>): string {
  return `v${spec.from}→v${spec.to} ${spec.rows}`;
}

/** A job's title's name for rows other than a snapshot's: "v3→v5 diff", "query result". */
export function rowsLabel(spec: RowsSourceSpec): string {
  return spec.rows === 'sql' ? 'query result' : changeRangeLabel(spec);
}
