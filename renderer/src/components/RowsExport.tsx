// Exporting a diff's, a change feed's or a query's rows instead of the snapshot: the head of the diff and feed views,
// whose button hands their rows to the Export tab, and the bar over the Export tab's sink form that says which rows
// it now exports.
import type { RowsSourceSpec } from '../../../shared/change-source.js';
import { changeRangeLabel } from '../../../shared/change-source.js';
import type { VersionRange } from '../diff-rows.js';

/** Rows handed to the Export tab: the source, and the columns they have (for the custom SQL's parameters). */
export interface RowsToExport {
  source: RowsSourceSpec;
  columns: string[];
}

/** What the diff and change feed views are opened with: a range of a table's commits, and where their rows go. */
export interface ChangeViewProps extends VersionRange {
  path: string;
  onClose(): void;
  /** Sends every row of the view (not only those shown, paired as shown) to the Export tab's sink form. */
  onExport(rows: RowsToExport): void;
}

/** The head of the diff and change feed views: their title, and Export these rows, disabled until the view has
 * read its rows (a range the host refused has none to export). */
export function ChangeViewHeader({
  titleId,
  title,
  rows,
  onExport,
  onClose,
}: {
  titleId: string;
  title: string;
  rows: RowsToExport | null;
  onExport(rows: RowsToExport): void;
  onClose(): void;
}) {
  return (
    <header className="card-header">
      <h3 id={titleId}>{title}</h3>
      <button type="button" className="button small" disabled={!rows} onClick={() => rows && onExport(rows)}>
        Export these rows
      </button>
      <button type="button" className="button small ghost" onClick={onClose}>
        Close
      </button>
    </header>
  );
}

function rowsText(tableName: string, source: RowsSourceSpec): string {
  if (source.rows === 'sql')
    return `Exporting the rows of the query "${source.sql.replace(/\s+/g, ' ')}" over ${tableName}, run again by the export,`;
  const paired = source.pairBy?.length ? `, updates paired by ${source.pairBy.join(', ')}` : '';
  return `Exporting the rows of ${tableName} ${changeRangeLabel(source)}${paired}, with their change columns,`;
}

export function RowsSourceBar({ tableName, source, onBack }: { tableName: string; source: RowsSourceSpec; onBack(): void }) {
  return (
    <div className="banner news rows-source" role="status">
      <span>{rowsText(tableName, source)} instead of the snapshot. Exactly once does not apply to them.</span>
      <button type="button" className="button small" onClick={onBack}>
        Export the snapshot instead
      </button>
    </div>
  );
}
