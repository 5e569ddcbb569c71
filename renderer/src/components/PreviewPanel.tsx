// The first rows of the chosen snapshot and columns, read as soon as the table is open. The grid always says which
// snapshot, columns, filter, order and limit it shows; once the choice moves away from them, it is marked stale with
// one Refresh action. Enter in any field of the form reads. A header click orders the whole snapshot (the Order by
// field's top-N read, after the filter), never just the rows loaded; scrolling to the end loads the next page of the
// same read (same snapshot, filter and order).
import type { ReactNode } from 'react';
import { PREVIEW_MAX_OFFSET, type PreviewRequest, type PreviewResult, type Result } from '../../../shared/api.js';
import { orderByInput, orderByText, type SortKey } from '../../../shared/sort-spec.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { counted, formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import type { SortState } from '../grid/sorting.js';
import { limitProblemOf, useLimitedRead } from '../use-limited-read.js';
import { ReadProblem } from './ReadProblem.js';
import { RowLimitField } from './RowLimitField.js';

/** An answer with the request it answers, so the panel can tell when the choice has moved away from it. */
export interface ShownRows extends PreviewResult {
  asked: PreviewRequest;
}

interface Props {
  source: DeltaSourceSpec | null;
  /** The order the Order by field gives; null for file order. */
  order: SortKey[] | null;
  /** Why there is no source yet, shown next to the disabled button. */
  blocked: string | null;
  /** The version the current choice resolves to; null while unknown. */
  wantedVersion: number | null;
  /** The exact row count of a version, from its log (numRecords less deletion vectors); null when unknown. */
  snapshotRows: { version: number; rows: number | null } | null;
  /** The fields that narrow the read (filter, order), inside the panel's form so that Enter in them reads. */
  fields: ReactNode;
  /** Puts a header click's order into the Order by field. */
  onOrderChange(text: string): void;
  /** Adds a cell's "filter by this value" condition to the Filter rows field. */
  onAddFilter(condition: string): void;
  preview(request: PreviewRequest): Promise<Result<PreviewResult>>;
}

/** Why the rows shown are not those of the current choice; null while they are. */
export function staleness(
  shown: ShownRows,
  source: DeltaSourceSpec | null,
  wantedVersion: number | null,
  order: SortKey[] | null = shown.asked.orderBy ?? null,
  limit: number | null = shown.asked.limit,
): string | null {
  const label = `v${shown.version}, ${counted(shown.columns.length, 'column')}`;
  const prefix = `These rows are of ${label}`;
  if (source === null) return `${prefix}; the choice above has changed.`;
  const columns = shown.columns.map((c) => c.name);
  const wanted = source.columnNames ?? columns;
  const sameColumns = wanted.length === columns.length && wanted.every((n, i) => n === columns[i]);
  if (wantedVersion !== null && wantedVersion !== shown.version) return `${prefix}; the snapshot is now v${wantedVersion}.`;
  if (!sameColumns) return `${prefix}; ${counted(wanted.length, 'column')} ${wanted.length === 1 ? 'is' : 'are'} now chosen.`;
  const shownFilter = shown.asked.source.filter ?? null;
  if ((source.filter ?? null) !== shownFilter) {
    return shownFilter === null
      ? `${prefix}, unfiltered; the filter has changed.`
      : `${prefix}, filtered by ${shownFilter}; the filter has changed.`;
  }
  const shownOrder = orderByText(shown.asked.orderBy ?? []);
  if (orderByText(order ?? []) !== shownOrder) {
    return `${prefix}, ${shownOrder === '' ? 'in file order' : `ordered by ${shownOrder}`}; the order has changed.`;
  }
  if (limit !== null && limit !== shown.asked.limit)
    return `${prefix}, read ${formatCount(shown.asked.limit)} at a time; the row limit is now ${formatCount(limit)}.`;
  return null;
}

/** The header mark for the order asked for (the Order by field, which a header click also sets, so a second click
 * during the first one's read goes on from it): a single key on a shown column; null otherwise. */
function headerSort(keys: SortKey[] | undefined, shown: ShownRows): SortState | null {
  if (!keys || keys.length !== 1) return null;
  const column = shown.columns.findIndex((c) => c.name === keys[0].column);
  return column < 0 ? null : { column, direction: keys[0].descending ? 'descending' : 'ascending' };
}

/** The same read pinned to the version it was answered at: later pages must not move to a newer snapshot. */
function pinned(spec: DeltaSourceSpec, version: number): DeltaSourceSpec {
  const copy = { ...spec, versionAsOf: version };
  delete copy.timestampAsOf;
  return copy;
}

/** "1,000 of 8,000 rows loaded": of the snapshot's rows (from its log), or of the rows the filter keeps once known. */
function countsText(shown: ShownRows, snapshotRows: Props['snapshotRows']): string {
  const loaded = formatCount(shown.rows.length);
  const exact = snapshotRows && snapshotRows.version === shown.version ? snapshotRows.rows : null;
  const more = shown.truncated ? ' · scroll to the end for more' : '';
  if (shown.asked.source.filter === undefined) {
    return `${exact === null ? loaded : `${loaded} of ${formatCount(exact)}`} rows loaded${more}`;
  }
  const matching = shown.order?.rowsSorted ?? (shown.truncated ? null : shown.rows.length);
  const of = matching === null ? `${loaded} matching rows loaded` : `${loaded} of ${formatCount(matching)} matching rows loaded`;
  return `${of}${exact === null ? '' : ` (the snapshot has ${formatCount(exact)})`}${more}`;
}

export function PreviewPanel({ source, order, blocked, wantedVersion, snapshotRows, fields, onOrderChange, onAddFilter, preview }: Props) {
  const ask =
    (spec: DeltaSourceSpec, keys: SortKey[] | null) =>
    async (limit: number, readId: string): Promise<Result<ShownRows>> => {
      const asked: PreviewRequest = { source: spec, limit, ...(keys && keys.length > 0 ? { orderBy: keys } : {}) };
      const answer = await preview({ ...asked, readId });
      return answer.ok ? { ok: true, value: { ...answer.value, asked } } : answer;
    };
  // Opening a table shows its first rows: the first time the choice is readable, it is read.
  const read = useLimitedRead(source && ask(source, order));
  const shown = read.value;
  const typedLimit = limitProblemOf(read.limitText) === null ? Number(read.limitText) : null;
  const stale = shown ? staleness(shown, source, wantedVersion, order, typedLimit) : null;
  const canRead = !read.busy && source !== null && read.limitProblem === null;

  const sortBy = (next: SortState | null) => {
    if (!shown || !source) return;
    const keys = next ? [{ column: shown.columns[next.column].name, descending: next.direction === 'descending' }] : [];
    onOrderChange(orderByInput(keys));
    read.run(undefined, ask(source, keys));
  };
  const loadMore = () => {
    if (!shown || !shown.truncated || shown.rows.length + shown.asked.limit > PREVIEW_MAX_OFFSET) return;
    const next = { ...shown.asked, source: pinned(shown.asked.source, shown.version), offset: shown.rows.length };
    read.extend(
      async (readId) => {
        const answer = await preview({ ...next, readId });
        return answer.ok ? { ok: true, value: { ...answer.value, asked: shown.asked } } : answer;
      },
      (before, page) => ({ ...before, rows: [...before.rows, ...page.rows], truncated: page.truncated }),
    );
  };

  return (
    <div className="preview">
      <form className="preview-form" onSubmit={read.run}>
        {fields}
        <div className="toolbar-row">
          <RowLimitField text={read.limitText} onChange={read.setLimitText} />
          <button type="submit" className="button primary" disabled={!canRead}>
            {read.busy ? 'Reading…' : 'Preview'}
          </button>
          {blocked && <span className="muted small">{blocked}</span>}
          <span className="spacer" />
          {shown && (
            <span className="preview-status" aria-live="polite">
              <span className="pill">snapshot v{shown.version}</span> {countsText(shown, snapshotRows)} ·{' '}
              {counted(shown.columns.length, 'column')}
              {shown.skipping && (
                <span className="skip-note">
                  {' '}
                  · filter skipped {formatCount(shown.skipping.filesSkipped)} of {formatCount(shown.skipping.filesTotal)} files
                </span>
              )}
              <span className="order-note">
                {' '}
                ·{' '}
                {shown.order
                  ? `ordered by ${orderByText(shown.order.keys)} over ${shown.asked.source.filter === undefined ? 'all' : 'the'} ${formatCount(shown.order.rowsSorted)} rows${shown.asked.source.filter === undefined ? ' of the snapshot' : ' matching the filter'}`
                  : 'in file order'}
              </span>
              {shown.rows.length + shown.asked.limit > PREVIEW_MAX_OFFSET && shown.truncated && (
                <span> · the grid loads at most {formatCount(PREVIEW_MAX_OFFSET)} rows; export for the rest</span>
              )}
            </span>
          )}
        </div>
      </form>
      <ReadProblem message={read.error} />
      {stale && (
        <div className="stale-bar" role="status">
          <span>{stale}</span>
          <button type="button" className="button small primary" onClick={() => read.run()} disabled={!canRead}>
            {read.busy ? 'Reading…' : 'Refresh'}
          </button>
        </div>
      )}
      {shown ? (
        <div className={stale ? 'grid-frame stale' : 'grid-frame'}>
          <DataGrid
            key={read.reads}
            label={`Rows of snapshot v${shown.version}`}
            columns={shown.columns}
            rows={shown.rows}
            sorting={{ sort: headerSort(order ?? undefined, shown), onSort: sortBy }}
            onEndReached={shown.truncated && !read.busy ? loadMore : undefined}
            onFilterByValue={onAddFilter}
          />
        </div>
      ) : (
        <div className="empty-state">
          <p>{read.busy ? 'Reading the first rows…' : (blocked ?? 'Press Preview to read the first rows of this snapshot.')}</p>
        </div>
      )}
    </div>
  );
}
