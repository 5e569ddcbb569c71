// The open table and the snapshot everything below reads: latest, or the version/timestamp typed or picked here.
import { useCallback, useEffect, useId, useState } from 'react';
import type { CommitSummary, TableInfo } from '../../../shared/table-info.js';
import { folderName } from '../format.js';
import type { TimeTravel } from '../time-travel.js';
import { fromLocalPicker, utcAndLocal } from '../timestamp-input.js';
import { formatEpochMs } from '../../../shared/timestamp.js';

interface Props {
  info: TableInfo;
  travel: TimeTravel;
  commits: CommitSummary[] | null;
}

function TravelStatusLine({ travel, latest }: { travel: TimeTravel; latest: number }) {
  const { status } = travel;
  switch (status.state) {
    case 'latest':
      return <span className="travel-status">Latest snapshot · v{latest}</span>;
    case 'checking':
      return <span className="travel-status muted">Resolving…</span>;
    case 'invalid':
      // The bar stays one line: it only points at the whole sentence, shown below it.
      return (
        <span className="travel-status invalid">
          <span className="alert-icon" aria-hidden="true">
            !
          </span>
          Not a snapshot of this table
        </span>
      );
    case 'resolved': {
      const { utc, local } = utcAndLocal(status.timestamp);
      return (
        <span className="travel-status resolved" aria-live="polite" title={`${utc}\n${local}`}>
          → v{status.version} · {utc} <span className="muted">({local})</span>
          {status.version !== latest && <span className="pill warn">time travel</span>}
        </span>
      );
    }
  }
}

/** A date-time picker (in the user's zone, sent as UTC) and the commits to pick from, in one small popover. */
function PickPopover({ travel, commits, onClose }: { travel: TimeTravel; commits: CommitSummary[] | null; onClose(): void }) {
  const ids = useId();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const newest = commits ? [...commits].sort((a, b) => b.version - a.version) : [];
  return (
    <div className="pick-popover" role="dialog" aria-label="Pick a snapshot">
      <label className="field" htmlFor={`${ids}-when`}>
        <span>Date and time (your zone)</span>
        <input
          id={`${ids}-when`}
          type="datetime-local"
          step={1}
          onChange={(e) => {
            const exact = fromLocalPicker(e.target.value);
            if (exact) travel.setTimestampText(exact);
          }}
        />
      </label>
      <div className="field">
        <span id={`${ids}-commits`}>Commits</span>
        {newest.length === 0 ? (
          <p className="muted small">Reading the log…</p>
        ) : (
          <ul className="pick-commits" aria-labelledby={`${ids}-commits`}>
            {newest.map((c) => (
              <li key={c.version}>
                <button
                  type="button"
                  className="pick-commit"
                  onClick={() => {
                    travel.travelTo(c.version);
                    onClose();
                  }}
                >
                  <span className="mono">v{c.version}</span>
                  <span className="mono small">{formatEpochMs(c.timestamp)}</span>
                  <span className="op">{c.operation ?? '—'}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="button small" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/** The id of the whole time-travel problem, which the Version and Timestamp fields name as their description. */
const TRAVEL_PROBLEM_ID = 'travel-problem';

export function SnapshotBar({ info, travel, commits }: Props) {
  const [picking, setPicking] = useState(false);
  const closePicker = useCallback(() => setPicking(false), []);
  const problem = travel.status.state === 'invalid' ? travel.status.message : null;
  const describedBy = problem === null ? undefined : TRAVEL_PROBLEM_ID;
  return (
    <>
      <div className="snapshot-bar">
        <div className="snapshot-title">
          <span className="table-icon" aria-hidden="true">
            Δ
          </span>
          <div className="snapshot-names">
            <div className="table-name">{info.name ?? folderName(info.path)}</div>
            <div className="table-path" title={info.path}>
              {info.path}
            </div>
          </div>
        </div>
        <div className="travel-fields" role="group" aria-label="Time travel">
          <label className="field compact">
            <span>Version</span>
            <input
              type="number"
              min={info.versionRange.earliest}
              max={info.versionRange.latest}
              placeholder={`${info.versionRange.earliest}–${info.versionRange.latest}`}
              value={travel.versionText}
              aria-invalid={problem !== null && travel.versionText !== ''}
              aria-describedby={travel.versionText !== '' ? describedBy : undefined}
              onChange={(e) => travel.setVersionText(e.target.value)}
            />
          </label>
          <span className="or">or</span>
          <label className="field compact wide">
            <span>Timestamp</span>
            <input
              type="text"
              placeholder="2022-02-24 04:55 (UTC)"
              title="UTC: a date, or a date and time such as 2022-02-24 04:55 or 2022-02-24T04:55:00.5Z; a time with an offset (2022-02-24T04:55:00+02:00) is converted to UTC"
              spellCheck={false}
              value={travel.timestampText}
              aria-invalid={problem !== null && travel.timestampText !== ''}
              aria-describedby={travel.timestampText !== '' ? describedBy : undefined}
              onChange={(e) => travel.setTimestampText(e.target.value)}
            />
          </label>
          <div className="pick-anchor">
            <button
              type="button"
              className="button small"
              aria-expanded={picking}
              aria-haspopup="dialog"
              onClick={() => setPicking(!picking)}
              title="Pick a date and time or a commit"
            >
              Pick…
            </button>
            {picking && <PickPopover travel={travel} commits={commits} onClose={closePicker} />}
          </div>
          {(travel.versionText !== '' || travel.timestampText !== '') && (
            <button type="button" className="button ghost small" onClick={travel.reset}>
              Latest
            </button>
          )}
          <TravelStatusLine travel={travel} latest={info.versionRange.latest} />
        </div>
      </div>
      {problem !== null && (
        <p id={TRAVEL_PROBLEM_ID} role="alert" className="travel-problem">
          {problem}
        </p>
      )}
    </>
  );
}
