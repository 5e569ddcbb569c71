// Every commit of the table, newest first, one line each (version, time, operation, who, what changed); a commit's
// parameters and metrics open on demand. Long logs are shown a page at a time; picking a version time-travels to it.
// Two commits ticked for comparison (or one commit's "what it changed") open the diff view above the list, or, where
// the table records one, the change feed of that range; either view's rows can go to the Export tab.
import { Fragment, useState } from 'react';
import type { CommitSummary } from '../../../shared/table-info.js';
import { formatEpochMs } from '../../../shared/timestamp.js';
import { commitSummaryText } from '../commit-figures.js';
import type { ChartMetric } from '../commit-figures.js';
import { togglePick, versionRange, type VersionRange } from '../diff-rows.js';
import { formatCount } from '../format.js';
import { Alert } from './Alert.js';
import { ChangeFeedView } from './ChangeFeedView.js';
import { DiffView } from './DiffView.js';
import { HistoryChart } from './HistoryChart.js';
import type { ChangeViewProps, RowsToExport } from './RowsExport.js';

interface Props {
  path: string;
  /** The table's column names, for the diff's pair-by keys. */
  columns: string[];
  commits: CommitSummary[] | null;
  error: string | null;
  currentVersion: number;
  /** Why the snapshot has no change feed to show (one line); null when it records one. */
  feedUnavailable: string | null;
  onPick(version: number): void;
  onExportRows(rows: RowsToExport): void;
}

/** A diff or change feed view is keyed by its range: another range is another view, read afresh. */
const rangeKey = ({ from, to }: VersionRange) => `${from}-${to}`;

/** Commits rendered at once; "Show older" adds as many again. */
export const HISTORY_PAGE = 100;

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function KeyValues({ title, entries }: { title: string; entries: Record<string, unknown> }) {
  const list = Object.entries(entries);
  return (
    <div className="commit-kv">
      <div className="plan-label">{title}</div>
      {list.length === 0 ? (
        <span className="muted small">none recorded</span>
      ) : (
        <dl className="kv-list">
          {list.map(([key, value]) => (
            <Fragment key={key}>
              <dt>{key}</dt>
              <dd>{valueText(value)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </div>
  );
}

function who(c: CommitSummary): string {
  return [c.userName, c.engineInfo].filter(Boolean).join(' · ') || '—';
}

export function HistoryPanel({ path, columns, commits, error, currentVersion, feedUnavailable, onPick, onExportRows }: Props) {
  const [metric, setMetric] = useState<ChartMetric>('rows');
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [shown, setShown] = useState(HISTORY_PAGE);
  const [picked, setPicked] = useState<number[]>([]);
  const [compared, setCompared] = useState<VersionRange | null>(null);
  const [feed, setFeed] = useState<VersionRange | null>(null);
  if (error) return <Alert message={error} />;
  if (!commits) return <p className="muted">Reading the log…</p>;
  const newest = [...commits].sort((a, b) => b.version - a.version);
  const page = newest.slice(0, shown);
  const toggle = (version: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(version)) next.add(version);
      return next;
    });
  const range = versionRange(picked);
  const viewOf = (opened: VersionRange, close: () => void): ChangeViewProps => ({
    path,
    ...opened,
    onClose: close,
    onExport: onExportRows,
  });
  const readable = new Set(commits.map((c) => c.version));
  return (
    <div className="history">
      <section className="card chart-card" aria-labelledby="chart-title">
        <header className="card-header">
          <h3 id="chart-title">Changes per commit</h3>
          {/* "time‑travel" has a hyphen no line breaks at (U+2011): a narrow window wraps the legend between words. */}
          <span className="chart-legend small muted">
            <span className="swatch up" aria-hidden="true" /> written <span className="swatch down" aria-hidden="true" /> removed · from
            commit metrics; click a bar to time‑travel
          </span>
          <span className="spacer" />
          <div className="segmented" role="group" aria-label="Chart measure">
            {(['rows', 'bytes'] as const).map((m) => (
              <button key={m} type="button" aria-pressed={metric === m} onClick={() => setMetric(m)}>
                {m === 'rows' ? 'Rows' : 'Bytes'}
              </button>
            ))}
          </div>
        </header>
        <div className="chart-scroll">
          <HistoryChart commits={commits} metric={metric} currentVersion={currentVersion} onPick={onPick} />
        </div>
      </section>
      <div className="compare-bar" role="group" aria-label="Compare versions">
        <span className="small">
          {range
            ? `Compare v${range.from} with v${range.to}`
            : picked.length === 1
              ? `v${picked[0]} picked; tick one more commit to compare with.`
              : 'Tick two commits to see what changed between them.'}
        </span>
        <button type="button" className="button small primary" disabled={!range} onClick={() => setCompared(range)}>
          Show changes
        </button>
        <button
          type="button"
          className="button small"
          disabled={!range || feedUnavailable !== null}
          title={feedUnavailable ?? 'The change data feed of the commits in this range, both ends included'}
          onClick={() => setFeed(range)}
        >
          Show change feed
        </button>
        {picked.length > 0 && (
          <button type="button" className="button small ghost" onClick={() => setPicked([])}>
            Clear
          </button>
        )}
        {feedUnavailable && <span className="muted small">{feedUnavailable}</span>}
      </div>
      {compared && <DiffView key={rangeKey(compared)} {...viewOf(compared, () => setCompared(null))} columns={columns} />}
      {feed && <ChangeFeedView key={rangeKey(feed)} {...viewOf(feed, () => setFeed(null))} />}
      <table className="history-table" aria-label="Commits">
        <colgroup>
          <col className="col-toggle" />
          <col className="col-version" />
          <col className="col-time" />
          <col className="col-op" />
          <col className="col-summary" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">
              <span className="offscreen">Details and compare</span>
            </th>
            <th scope="col">Ver.</th>
            <th scope="col">Committed (UTC)</th>
            <th scope="col">Operation</th>
            <th scope="col">Changes</th>
            <th scope="col">User / engine</th>
          </tr>
        </thead>
        <tbody>
          {page.map((c) => {
            const expanded = open.has(c.version);
            const summary = commitSummaryText(c);
            return (
              <Fragment key={c.version}>
                <tr
                  className={c.version === currentVersion ? 'commit current' : 'commit'}
                  aria-current={c.version === currentVersion ? 'true' : undefined}
                >
                  <td>
                    <button
                      type="button"
                      className="expand-toggle"
                      aria-expanded={expanded}
                      aria-label={`Details of v${c.version}`}
                      onClick={() => toggle(c.version)}
                    >
                      {expanded ? '▾' : '▸'}
                    </button>
                    <input
                      type="checkbox"
                      className="compare-pick"
                      aria-label={`Compare v${c.version}`}
                      title="Tick two commits to compare them"
                      checked={picked.includes(c.version)}
                      onChange={() => setPicked((current) => togglePick(current, c.version))}
                    />
                  </td>
                  <td>
                    <button type="button" className="version-link" title="Time-travel to this commit" onClick={() => onPick(c.version)}>
                      v{c.version}
                    </button>
                  </td>
                  <td className="nowrap mono small">{formatEpochMs(c.timestamp).replace(/ UTC$/, '')}</td>
                  <td className="nowrap">
                    <span className="op">{c.operation ?? '—'}</span>
                  </td>
                  <td className="nowrap small commit-summary">{summary || <span className="muted">—</span>}</td>
                  <td className="small muted ellipsis" title={who(c)}>
                    {who(c)}
                  </td>
                </tr>
                {expanded && (
                  <tr className="commit-details">
                    <td />
                    <td colSpan={5}>
                      <div className="commit-details-body">
                        <KeyValues title="Parameters" entries={c.operationParameters} />
                        <KeyValues title="Metrics" entries={c.operationMetrics} />
                      </div>
                      {readable.has(c.version - 1) && (
                        <button type="button" className="button small" onClick={() => setCompared({ from: c.version - 1, to: c.version })}>
                          Show what v{c.version} changed
                        </button>
                      )}
                      {feedUnavailable === null && (
                        <button type="button" className="button small" onClick={() => setFeed({ from: c.version, to: c.version })}>
                          Show v{c.version}'s change feed
                        </button>
                      )}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {newest.length > shown && (
        <div className="history-more">
          <span className="muted small">
            Showing the newest {formatCount(shown)} of {formatCount(newest.length)} commits.
          </span>
          <button type="button" className="button small" onClick={() => setShown(shown + HISTORY_PAGE)}>
            Show {formatCount(Math.min(HISTORY_PAGE, newest.length - shown))} older
          </button>
        </div>
      )}
    </div>
  );
}
