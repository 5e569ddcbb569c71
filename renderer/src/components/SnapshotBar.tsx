// The open table and the snapshot everything below reads: latest, or the version/timestamp typed here.
import type { TableInfo } from '../../../shared/table-info.js';
import { formatEpochMs } from '../../../shared/timestamp.js';
import { TIMESTAMP_FORMS } from '../../../shared/source-spec.js';
import { folderName } from '../format.js';
import type { TimeTravel } from '../time-travel.js';
import { Alert } from './Alert.js';

interface Props {
  info: TableInfo;
  travel: TimeTravel;
}

function TravelStatusLine({ travel, latest }: { travel: TimeTravel; latest: number }) {
  const { status } = travel;
  switch (status.state) {
    case 'latest':
      return <span className="travel-status">Latest snapshot · v{latest}</span>;
    case 'checking':
      return <span className="travel-status muted">Resolving…</span>;
    case 'invalid':
      return <Alert message={status.message} />;
    case 'resolved':
      return (
        <span className="travel-status resolved" aria-live="polite">
          → v{status.version} · {formatEpochMs(status.timestamp)}
          {status.version !== latest && <span className="pill warn">time travel</span>}
        </span>
      );
  }
}

export function SnapshotBar({ info, travel }: Props) {
  return (
    <div className="snapshot-bar">
      <div className="snapshot-title">
        <span className="table-icon" aria-hidden="true">
          Δ
        </span>
        <div>
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
            onChange={(e) => travel.setVersionText(e.target.value)}
          />
        </label>
        <span className="or">or</span>
        <label className="field compact wide">
          <span>Timestamp</span>
          <input
            type="text"
            placeholder="2022-02-24 04:55:00"
            title={`UTC, one of: ${TIMESTAMP_FORMS}`}
            spellCheck={false}
            value={travel.timestampText}
            onChange={(e) => travel.setTimestampText(e.target.value)}
          />
        </label>
        {(travel.versionText !== '' || travel.timestampText !== '') && (
          <button type="button" className="button ghost small" onClick={travel.reset}>
            Latest
          </button>
        )}
        <TravelStatusLine travel={travel} latest={info.versionRange.latest} />
      </div>
    </div>
  );
}
