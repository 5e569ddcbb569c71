// Each column's null count, minimum and maximum at the chosen snapshot: first from the log's file statistics (no
// data read; marked as such, since a bound from statistics may not be a value), then, on request, from an exact
// scan that also counts distinct values.
import { useCallback } from 'react';
import type { TableProfile } from '../../../shared/table-info.js';
import { api } from '../api-client.js';
import { formatCount } from '../format.js';
import { useSnapshotRead } from '../snapshot-read.js';
import { Alert } from './Alert.js';
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

export function ProfilePanel({ path, version, visible }: Props) {
  const fromStatistics = useCallback(() => api.profile({ table: { path, versionAsOf: version } }), [path, version]);
  const profile = useSnapshotRead<TableProfile>(`${path}@${version}`, visible, fromStatistics);
  const scanned = profile.value?.columns.some((c) => c.source === 'scan') ?? false;
  return (
    <div className="profile">
      <div className="toolbar-row">
        <button
          type="button"
          className="button primary"
          disabled={profile.busy || scanned}
          onClick={() => profile.reload(() => api.profile({ table: { path, versionAsOf: version }, exact: true }))}
        >
          {profile.busy && profile.value ? 'Scanning…' : 'Exact scan'}
        </button>
        <span className="muted small">
          {scanned
            ? `Counted over every row of v${version}.`
            : 'From the log’s file statistics, no data read; an exact scan reads every row and counts distinct values.'}
        </span>
      </div>
      <Alert message={profile.error} />
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
