// Every commit of the table, newest first; picking one time-travels to it.
import { useState } from 'react';
import type { CommitSummary } from '../../../shared/table-info.js';
import { formatEpochMs } from '../../../shared/timestamp.js';
import { Alert } from './Alert.js';
import { HistoryChart } from './HistoryChart.js';
import type { ChartMetric } from './HistoryChart.js';

interface Props {
  commits: CommitSummary[] | null;
  error: string | null;
  currentVersion: number;
  onPick(version: number): void;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function KeyValues({ entries }: { entries: Record<string, unknown> }) {
  const list = Object.entries(entries);
  if (list.length === 0) return <span className="muted">—</span>;
  return (
    <span className="kv-chips">
      {list.map(([key, value]) => (
        <span key={key} className="kv-chip" title={`${key}: ${valueText(value)}`}>
          <span className="kv-key">{key}</span> {valueText(value)}
        </span>
      ))}
    </span>
  );
}

export function HistoryPanel({ commits, error, currentVersion, onPick }: Props) {
  const [metric, setMetric] = useState<ChartMetric>('rows');
  if (error) return <Alert message={error} />;
  if (!commits) return <p className="muted">Reading the log…</p>;
  const newest = [...commits].sort((a, b) => b.version - a.version);
  return (
    <div className="history">
      <section className="card chart-card" aria-labelledby="chart-title">
        <header className="card-header">
          <h3 id="chart-title">Changes per commit</h3>
          <span className="chart-legend small muted">
            <span className="swatch up" aria-hidden="true" /> written <span className="swatch down" aria-hidden="true" /> removed · from
            commit metrics; click a bar to time-travel
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
      <div className="table-scroll">
        <table className="history-table" aria-label="Commits">
          <thead>
            <tr>
              <th scope="col">Ver.</th>
              <th scope="col">Committed (UTC)</th>
              <th scope="col">Operation</th>
              <th scope="col">Parameters</th>
              <th scope="col">Metrics</th>
              <th scope="col">Engine / user</th>
            </tr>
          </thead>
          <tbody>
            {newest.map((c) => (
              <tr
                key={c.version}
                className={c.version === currentVersion ? 'current' : undefined}
                aria-current={c.version === currentVersion ? 'true' : undefined}
                onClick={() => onPick(c.version)}
              >
                <td>
                  <button type="button" className="version-link" title="Time-travel to this commit">
                    v{c.version}
                  </button>
                </td>
                <td className="nowrap mono small">{formatEpochMs(c.timestamp)}</td>
                <td>
                  <span className="op">{c.operation ?? '—'}</span>
                </td>
                <td>
                  <KeyValues entries={c.operationParameters} />
                </td>
                <td>
                  <KeyValues entries={c.operationMetrics} />
                </td>
                <td className="small muted">{[c.engineInfo, c.userName].filter(Boolean).join(' · ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
