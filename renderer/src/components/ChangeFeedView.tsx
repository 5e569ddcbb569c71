// The table's change data feed over a range of commits, as the engine reads it (its _change_data files, else the
// commits' adds and removes): the rows in the grid with Delta's _change_type, _commit_version and _commit_timestamp,
// and how many rows of each change type. A range the feed does not cover is the host's one-line refusal.
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { PREVIEW_MAX_ROWS } from '../../../shared/api.js';
import type { ChangeRows } from '../../../shared/api.js';
import { api } from '../api-client.js';
import { CHANGE_TYPES, changeTypeCounts } from '../feed-rows.js';
import { formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import { Alert } from './Alert.js';
import { ChangeViewHeader, type RowsToExport } from './RowsExport.js';
import { limitProblemOf } from './PreviewPanel.js';
import { Stat } from './Stat.js';

interface Props {
  path: string;
  from: number;
  to: number;
  onClose(): void;
  /** Sends every row of this feed (not only those shown) to the Export tab's sink form. */
  onExport(rows: RowsToExport): void;
}

const DEFAULT_LIMIT = 1000;

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

export function ChangeFeedView({ path, from, to, onClose, onExport }: Props) {
  const [limitText, setLimitText] = useState(String(DEFAULT_LIMIT));
  const [shown, setShown] = useState<ChangeRows | null>(null);
  const [reads, setReads] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const autoRead = useRef(false);
  const limitProblem = limitProblemOf(limitText);

  const read = async (rows: number) => {
    setBusy(true);
    setError(null);
    const answer = await api.changes({ path, from, to, limit: rows });
    setBusy(false);
    if (!answer.ok) return setError(answer.error.message);
    setShown(answer.value);
    setReads((n) => n + 1);
  };

  // The view is keyed by its range: showing it is asking for that feed.
  useEffect(() => {
    if (autoRead.current) return;
    autoRead.current = true;
    void read(DEFAULT_LIMIT);
  });

  const run = (event: FormEvent) => {
    event.preventDefault();
    if (!limitProblem) void read(Number(limitText));
  };

  return (
    <section className="card diff-view" aria-labelledby="feed-title">
      <ChangeViewHeader
        titleId="feed-title"
        title={`Change feed from v${from} to v${to}`}
        rows={shown && { source: { rows: 'changes', tablePath: path, from, to }, columns: shown.columns.map((c) => c.name) }}
        onExport={onExport}
        onClose={onClose}
      />
      <form className="toolbar-row" onSubmit={run}>
        <span className="muted small grow">
          Every row the commits v{from} to v{to} changed, both included.
        </span>
        <label className="field compact">
          <span>Row limit</span>
          <input type="number" min={1} max={PREVIEW_MAX_ROWS} step={1} value={limitText} onChange={(e) => setLimitText(e.target.value)} />
        </label>
        <button type="submit" className="button primary" disabled={busy || limitProblem !== null}>
          {busy ? 'Reading…' : 'Read'}
        </button>
      </form>
      <Alert message={limitProblem ?? error} />
      {shown ? (
        <FeedBody result={shown} from={from} to={to} gridKey={reads} />
      ) : (
        <p className="muted">{busy ? 'Reading the change feed…' : ''}</p>
      )}
    </section>
  );
}
