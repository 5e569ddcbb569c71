// The rows an export request names (shared/change-source.ts ExportSource), opened: the one place that tells a
// snapshot from a table's changes, for the export, its plan and the CLI alike. A new kind of source is a case here
// (or in export/change-source.ts, for another kind of a table's changes).
import { isChangeSource, type ExportSource, type SqlSourceSpec } from '../../shared/change-source.js';
import { openSource } from '../delta/source.js';
import { openChangeSource, type OpenChangeOptions } from './change-source.js';
import type { RowSource } from './row-source.js';
import { snapshotRows } from './snapshot-rows.js';

/** A query's result is not opened here: it lives only as long as its engine (sql/sql-export.ts withSqlSource). */
export async function openRows(spec: Exclude<ExportSource, SqlSourceSpec>, options: OpenChangeOptions): Promise<RowSource> {
  if (isChangeSource(spec)) return openChangeSource(spec, options);
  return snapshotRows(await openSource(spec, options.openTable));
}
