// What a new window shows before a table is open: how to start, and the tables opened before.
import type { RecentTable } from '../../../shared/api.js';
import { folderName } from '../format.js';

interface Props {
  recent: RecentTable[];
  onOpen(path: string): void;
  onSample(): void;
  onConnections(): void;
}

export function Welcome({ recent, onOpen, onSample, onConnections }: Props) {
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-card">
        <h1 id="welcome-title">Open a Delta table</h1>
        <p className="muted">
          Type or paste the path of a table folder (the one holding <code>_delta_log</code>) above, drop the folder onto this window, or
          start with the built-in sample table. Tables in S3, Azure or Google Cloud Storage open by URL (<code>s3://bucket/path</code>,{' '}
          <code>gs://</code>, <code>az://</code>, <code>abfss://</code>); give their endpoint or keys under{' '}
          <button type="button" className="link-button" onClick={onConnections}>
            Storage connections
          </button>
          .
        </p>
        <button type="button" className="button primary" onClick={onSample}>
          Explore the sample table
        </button>
        <h2>Recent tables</h2>
        {recent.length === 0 ? (
          <p className="muted">Tables you open appear here.</p>
        ) : (
          <ul className="recent-list">
            {recent.map((r) => (
              <li key={r.path}>
                <button type="button" className="recent-item" onClick={() => onOpen(r.path)} title={r.path}>
                  <span className="recent-name">{folderName(r.path)}</span>
                  <span className="recent-path">{r.path}</span>
                  <span className="recent-time">{new Date(r.openedAt).toLocaleString()}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
