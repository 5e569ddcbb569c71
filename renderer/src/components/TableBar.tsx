// Where a table is chosen: typed or pasted location, native folder picker (Electron only), recent tables, sample;
// and the storage connections that tables in the cloud are read with.
import type { FormEvent } from 'react';
import type { RecentTable } from '../../../shared/api.js';

interface Props {
  location: string;
  onLocationChange(text: string): void;
  onOpen(path: string): void;
  onBrowse: (() => void) | null;
  onSample(): void;
  onConnections(): void;
  recent: RecentTable[];
  busy: boolean;
}

export function TableBar({ location, onLocationChange, onOpen, onBrowse, onSample, onConnections, recent, busy }: Props) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (location.trim() !== '') onOpen(location.trim());
  };
  return (
    <form className="table-bar" onSubmit={submit} aria-busy={busy}>
      <input
        className="location-input"
        type="text"
        aria-label="Table location"
        placeholder="Path or cloud URL of a Delta table, e.g. /data/events or s3://bucket/events"
        spellCheck={false}
        autoComplete="off"
        value={location}
        onChange={(e) => onLocationChange(e.target.value)}
      />
      <button type="submit" className="button primary" disabled={busy || location.trim() === ''}>
        Open
      </button>
      {onBrowse && (
        <button type="button" className="button" onClick={onBrowse} aria-label="Browse for a folder">
          Browse…
        </button>
      )}
      <select
        className="recent-select"
        aria-label="Recent tables"
        value=""
        disabled={recent.length === 0}
        onChange={(e) => {
          if (e.target.value) onOpen(e.target.value);
        }}
      >
        <option value="">{recent.length === 0 ? 'No recent tables' : 'Recent…'}</option>
        {recent.map((r) => (
          <option key={r.path} value={r.path}>
            {r.path}
          </option>
        ))}
      </select>
      <button type="button" className="button ghost" onClick={onSample} disabled={busy}>
        Sample table
      </button>
      <button
        type="button"
        className="button ghost"
        onClick={onConnections}
        aria-label="Storage connections"
        title="Storage connections: settings for tables in S3, Azure or GCS"
      >
        Connections
      </button>
    </form>
  );
}
