// Each column's null count, minimum and maximum at the chosen snapshot: first from the log's file statistics (no
// data read; marked as such, since a bound from statistics may not be a value), then, on request, from an exact
// scan that also counts distinct values and draws each number, date and timestamp column's histogram.
import { useCallback } from 'react';
import type { Histogram, HistogramBin, TableProfile } from '../../../shared/table-info.js';
import { api } from '../api-client.js';
import { formatCount } from '../format.js';
import { useReadProgress } from '../read-progress.js';
import { useSnapshotRead } from '../snapshot-read.js';
import { ReadProblem } from './ReadProblem.js';
import { ReadProgressLine } from './ReadProgressLine.js';
import { Stat } from './Stat.js';

interface Props {
  path: string;
  version: number;
  visible: boolean;
}

function distinctText(distinct: { count: number; atLeast: boolean } | undefined): string {
  if (!distinct) return '—';
  return `${distinct.atLeast ? '≥ ' : ''}${formatCount(distinct.count)}`;
}

const BAR_W = 8;
const BAR_GAP = 2;
const CHART_H = 28;

/** "10 to 19: 1,204 rows" (a bin of one value: "7: 1 row"). */
function binText(bin: HistogramBin): string {
  return `${bin.from === bin.to ? bin.from : `${bin.from} to ${bin.to}`}: ${formatCount(bin.count)} ${bin.count === 1 ? 'row' : 'rows'}`;
}

/** A row of bars, one per bin, as tall as its count; the label and each bar's title say every bin's range and count. */
function HistogramChart({ column, histogram }: { column: string; histogram: Histogram }) {
  const max = Math.max(1, ...histogram.bins.map((b) => b.count));
  const width = histogram.bins.length * (BAR_W + BAR_GAP);
  return (
    <svg
      className="profile-histogram"
      width={width}
      height={CHART_H}
      viewBox={`0 0 ${width} ${CHART_H}`}
      role="img"
      aria-label={`Histogram of ${column}: ${histogram.bins.map(binText).join('; ')}`}
    >
      <line x1={0} x2={width} y1={CHART_H - 0.5} y2={CHART_H - 0.5} className="chart-axis" />
      {histogram.bins.map((bin, i) => {
        const height = bin.count === 0 ? 0 : Math.max(1, (bin.count / max) * (CHART_H - 1));
        return (
          <rect key={i} x={i * (BAR_W + BAR_GAP)} y={CHART_H - 1 - height} width={BAR_W} height={height} className="chart-up">
            <title>{binText(bin)}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function ProfilePanel({ path, version, visible }: Props) {
  const fromStatistics = useCallback((readId: string) => api.profile({ table: { path, versionAsOf: version }, readId }), [path, version]);
  const profile = useSnapshotRead<TableProfile>(`${path}@${version}`, visible, fromStatistics);
  const scanned = profile.value?.columns.some((c) => c.source === 'scan') ?? false;
  // A read while a profile is shown is the exact scan: its progress and Cancel show at once.
  const scan = useReadProgress(profile.readId, profile.busy && profile.value !== null, 0);
  return (
    <div className="profile">
      <div className="toolbar-row">
        <button
          type="button"
          className="button primary"
          disabled={profile.busy || scanned}
          onClick={() => profile.reload((readId) => api.profile({ table: { path, versionAsOf: version }, exact: true, readId }))}
        >
          {profile.busy && profile.value ? 'Scanning…' : 'Exact scan'}
        </button>
        <span className="muted small">
          {scanned
            ? `Counted over every row of v${version}.`
            : 'From the log’s file statistics, no data read; an exact scan reads every row, counts distinct values and draws histograms.'}
        </span>
      </div>
      {scan.shown && <ReadProgressLine what="Exact scan" progress={scan.progress} onCancel={profile.cancel} />}
      <ReadProblem message={profile.error} />
      {!profile.value ? (
        <p className="muted">{profile.busy ? 'Reading the statistics…' : ''}</p>
      ) : (
        <>
          <div className="stats">
            <Stat
              label="Rows"
              value={profile.value.rowCount === null ? '—' : formatCount(profile.value.rowCount)}
              note={profile.value.rowCount === null ? 'some files carry no statistics' : scanned ? 'counted' : 'exact, from statistics'}
            />
            <Stat label="Columns" value={formatCount(profile.value.columns.length)} />
            <Stat label="Snapshot" value={`v${profile.value.version}`} />
          </div>
          <table className="history-table profile-table" aria-label="Column profile">
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Type</th>
                <th scope="col">Nulls</th>
                <th scope="col">Min</th>
                <th scope="col">Max</th>
                <th scope="col">Distinct</th>
                <th scope="col">Source</th>
                {scanned && <th scope="col">Histogram</th>}
              </tr>
            </thead>
            <tbody>
              {profile.value.columns.map((c) => (
                <tr key={c.name}>
                  <td className="mono column-name-cell">{c.name}</td>
                  <td className="mono small">{c.type}</td>
                  <td className="num">{c.nullCount === null ? '—' : formatCount(c.nullCount)}</td>
                  <td className="mono" title={c.min ?? undefined}>
                    {c.min ?? '—'}
                  </td>
                  <td className="mono" title={c.max ?? undefined}>
                    {c.max ?? '—'}
                  </td>
                  <td className="num">{distinctText(c.distinct)}</td>
                  <td className="small muted">{c.source === 'statistics' ? 'from statistics' : 'exact scan'}</td>
                  {scanned && <td>{c.histogram ? <HistogramChart column={c.name} histogram={c.histogram} /> : '—'}</td>}
                </tr>
              ))}
            </tbody>
          </table>
          {!scanned && (
            <p className="muted small">
              Minimum and maximum from statistics are bounds: strings may be truncated, timestamps are to the millisecond.
            </p>
          )}
        </>
      )}
    </div>
  );
}
