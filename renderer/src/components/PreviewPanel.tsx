// The first rows of the chosen snapshot and columns, read as soon as the table is open. The grid always says which
// snapshot and columns it shows; once the choice moves away from them, it is marked stale with one Refresh action.
import type { PreviewResult, Result } from '../../../shared/api.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { orderByText } from '../../../shared/sort-spec.js';
import { formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import { useLimitedRead } from '../use-limited-read.js';
import { Alert } from './Alert.js';
import { RowLimitField } from './RowLimitField.js';

interface Props {
  source: DeltaSourceSpec | null;
  /** Why there is no source yet, shown next to the disabled button. */
  blocked: string | null;
  /** The version the current choice resolves to; null while unknown. */
  wantedVersion: number | null;
  preview(source: DeltaSourceSpec, limit: number): Promise<Result<PreviewResult>>;
}

/** Why the rows shown are not those of the current choice; null while they are. */
export function staleness(result: PreviewResult, source: DeltaSourceSpec | null, wantedVersion: number | null): string | null {
  const shown = `v${result.version}, ${result.columns.length} column${result.columns.length === 1 ? '' : 's'}`;
  if (source === null) return `These rows are of ${shown}; the choice above has changed.`;
  const columns = result.columns.map((c) => c.name);
  const wanted = source.columnNames ?? columns;
  const sameColumns = wanted.length === columns.length && wanted.every((n, i) => n === columns[i]);
  if (wantedVersion !== null && wantedVersion !== result.version) {
    return `These rows are of ${shown}; the snapshot is now v${wantedVersion}.`;
  }
  if (!sameColumns) return `These rows are of ${shown}; ${wanted.length} column${wanted.length === 1 ? ' is' : 's are'} now chosen.`;
  return null;
}

export function PreviewPanel({ source, blocked, wantedVersion, preview }: Props) {
  // Opening a table shows its first rows: the first time the choice is readable, it is read.
  const read = useLimitedRead(source && ((limit) => preview(source, limit)));
  const result = read.value;
  const stale = result ? staleness(result, source, wantedVersion) : null;
  return (
    <div className="preview">
      <form className="toolbar-row" onSubmit={read.run}>
        <RowLimitField text={read.limitText} onChange={read.setLimitText} />
        <button type="submit" className="button primary" disabled={read.busy || !source || read.limitProblem !== null}>
          {read.busy ? 'Reading…' : 'Preview'}
        </button>
        {blocked && <span className="muted small">{blocked}</span>}
        <span className="spacer" />
        {result && (
          <span className="preview-status" aria-live="polite">
            <span className="pill">snapshot v{result.version}</span> {formatCount(result.rows.length)} rows
            {result.truncated ? ` (first ${formatCount(result.rows.length)}; the table has more)` : ''} · {result.columns.length} columns
            {result.skipping && (
              <span className="skip-note">
                {' '}
                · filter skipped {formatCount(result.skipping.filesSkipped)} of {formatCount(result.skipping.filesTotal)} files
              </span>
            )}
            {result.order && (
              <span className="order-note">
                {' '}
                · ordered by {orderByText(result.order.keys)} over {formatCount(result.order.rowsSorted)} rows
              </span>
            )}
          </span>
        )}
      </form>
      <Alert message={read.limitProblem ?? read.error} />
      {stale && (
        <div className="stale-bar" role="status">
          <span>{stale}</span>
          <button
            type="button"
            className="button small primary"
            onClick={() => read.run()}
            disabled={read.busy || !source || read.limitProblem !== null}
          >
            {read.busy ? 'Reading…' : 'Refresh'}
          </button>
        </div>
      )}
      {result ? (
        <div className={stale ? 'grid-frame stale' : 'grid-frame'}>
          <DataGrid key={read.reads} label={`Rows of snapshot v${result.version}`} columns={result.columns} rows={result.rows} />
        </div>
      ) : (
        <div className="empty-state">
          <p>{read.busy ? 'Reading the first rows…' : (blocked ?? 'Press Preview to read the first rows of this snapshot.')}</p>
        </div>
      )}
    </div>
  );
}
