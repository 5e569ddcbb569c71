// The table's change data feed over a range of commits, as the engine reads it (its _change_data files, else the
// commits' adds and removes): the rows in the grid with Delta's _change_type, _commit_version and _commit_timestamp,
// and how many rows of each change type. A range the feed does not cover is the host's one-line refusal.
import type { ChangeRows } from '../../../shared/api.js';
import { api } from '../api-client.js';
import { CHANGE_TYPES, changeTypeCounts } from '../feed-rows.js';
import { formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import { SLOW_READ_MS, useReadProgress } from '../read-progress.js';
import { useLimitedRead } from '../use-limited-read.js';
import { ReadProgressLine } from './ReadProgressLine.js';
import { ReadProblem } from './ReadProblem.js';
import { RowLimitField } from './RowLimitField.js';
import { ChangeViewHeader, type ChangeViewProps } from './RowsExport.js';
import { Stat } from './Stat.js';

function FeedBody({ result, from, to, gridKey }: { result: ChangeRows; from: number; to: number; gridKey: number }) {
  const counts = changeTypeCounts(result);
  const more = result.truncated ? 'in the rows shown; there are more' : undefined;
  return (
    <>
      <div className="stats diff-stats" aria-label="Change feed summary">
        {CHANGE_TYPES.map((type) => (
          <Stat key={type} label={type} value={formatCount(counts[type])} note={more} />
        ))}
      </div>
      {result.rows.length === 0 ? (
        <p className="muted diff-none">
          The commits v{from} to v{to} changed no rows.
        </p>
      ) : (
        <div className="grid-frame diff-grid">
          <DataGrid key={gridKey} label={`Change feed from v${from} to v${to}`} columns={result.columns} rows={result.rows} />
        </div>
      )}
    </>
  );
}

export function ChangeFeedView({ path, from, to, onClose, onExport }: ChangeViewProps) {
  // The view is keyed by its range: showing it is asking for that feed.
  const read = useLimitedRead((limit, readId) => api.changes({ path, from, to, limit, readId }));
  const slow = useReadProgress(read.readId, read.busy, SLOW_READ_MS);

  return (
    <section className="card diff-view" aria-labelledby="feed-title">
      <ChangeViewHeader
        titleId="feed-title"
        title={`Change feed from v${from} to v${to}`}
        rows={read.value && { source: { rows: 'changes', tablePath: path, from, to }, columns: read.value.columns.map((c) => c.name) }}
        onExport={onExport}
        onClose={onClose}
      />
      <form className="toolbar-row" onSubmit={read.run}>
        <span className="muted small grow">
          Every row the commits v{from} to v{to} changed, both included.
        </span>
        <RowLimitField text={read.limitText} onChange={read.setLimitText} />
        <button type="submit" className="button primary" disabled={read.busy || read.limitProblem !== null}>
          {read.busy ? 'Reading…' : 'Read'}
        </button>
      </form>
      {slow.shown && <ReadProgressLine what="Change feed" progress={slow.progress} onCancel={read.cancel} />}
      <ReadProblem message={read.error} />
      {read.value ? (
        <FeedBody result={read.value} from={from} to={to} gridKey={read.reads} />
      ) : (
        <p className="muted">{read.busy ? 'Reading the change feed…' : ''}</p>
      )}
    </section>
  );
}
