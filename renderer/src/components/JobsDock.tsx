// Running and past jobs, always in view at the bottom of the window.
import { useState } from 'react';
import type { JobInfo } from '../../../shared/api.js';
import { api } from '../api-client.js';
import { formatCount, formatDuration, humanBytes } from '../format.js';
import { Alert } from './Alert.js';

interface Props {
  jobs: JobInfo[];
  loadError: string | null;
  onChanged(job: JobInfo): void;
}

const STATE_LABEL: Record<JobInfo['state'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

// What a cancel leaves behind, as the sinks define it: SQL targets keep committed batches, files are not written.
function cancelledNote(job: JobInfo): string {
  const kind = job.request.sink.kind;
  const rows = formatCount(job.progress.rows);
  if (kind === 'sqlite' || kind === 'postgres') {
    return `Cancelled after ${rows} rows: batches already committed stay in the target; the open batch was rolled back.`;
  }
  return `Cancelled after ${rows} rows: the output file was not written.`;
}

function Figures({ job }: { job: JobInfo }) {
  const p = job.progress;
  if (job.state === 'succeeded' && job.result) {
    return (
      <span>
        {formatCount(job.result.rows)} rows in {formatDuration(job.result.seconds)} · {formatCount(Math.round(job.result.rowsPerSec))}{' '}
        rows/s
      </span>
    );
  }
  const parts = [`${formatCount(p.rows)} rows`, `${p.files}/${p.filesTotal} files`];
  if (p.bytesTotal > 0) parts.push(`${humanBytes(p.bytes)} of ${humanBytes(p.bytesTotal)}`);
  if (job.state === 'running') {
    parts.push(`${formatCount(Math.round(p.rowsPerSec))} rows/s`);
    if (p.etaSeconds !== null) parts.push(`about ${formatDuration(p.etaSeconds)} left`);
  }
  return <span>{parts.join(' · ')}</span>;
}

function JobRow({ job, onChanged }: { job: JobInfo; onChanged(job: JobInfo): void }) {
  const [cancelError, setCancelError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const live = job.state === 'queued' || job.state === 'running';
  const cancel = async () => {
    setCancelling(true);
    const result = await api.cancelJob({ id: job.id });
    setCancelling(false);
    if (result.ok) onChanged(result.value);
    else setCancelError(result.error.message);
  };
  const percent = Math.round(job.progress.percent);
  return (
    <li className={`job job-${job.state}`} aria-label={job.title}>
      <div className="job-head">
        <span className={`state-badge ${job.state}`}>{STATE_LABEL[job.state]}</span>
        <span className="job-title" title={job.title}>
          {job.title}
        </span>
        <span className="job-time muted small">{new Date(job.createdAt).toLocaleTimeString()}</span>
        {live && (
          <button type="button" className="button small danger" onClick={() => void cancel()} disabled={cancelling}>
            Cancel
          </button>
        )}
      </div>
      <div className="job-body">
        <div
          className="progress"
          role="progressbar"
          aria-label={`Progress: ${job.title}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="progress-fill" style={{ width: `${percent}%` }} />
        </div>
        <span className="job-percent small">{percent}%</span>
        <span className="job-figures small muted">
          <Figures job={job} />
        </span>
      </div>
      {job.error && job.state !== 'cancelled' && <Alert message={job.error.message} />}
      {job.state === 'cancelled' && <p className="muted small">{cancelledNote(job)}</p>}
      <Alert message={cancelError} />
    </li>
  );
}

export function JobsDock({ jobs, loadError, onChanged }: Props) {
  const [open, setOpen] = useState(true);
  const running = jobs.filter((j) => j.state === 'running' || j.state === 'queued').length;
  return (
    <section className={open ? 'jobs-dock open' : 'jobs-dock'} aria-labelledby="jobs-title">
      <header className="jobs-header">
        <button type="button" className="jobs-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span id="jobs-title">Jobs</span>
        </button>
        <span className="muted small">
          {running > 0 ? `${running} running` : 'idle'} · {jobs.length} recorded
        </span>
      </header>
      {open && (
        <div className="jobs-body">
          <Alert message={loadError} />
          {jobs.length === 0 ? (
            <p className="muted small empty">No exports yet. Configure a sink in the Export tab and press Export.</p>
          ) : (
            <ul className="job-list">
              {jobs.map((job) => (
                <JobRow key={job.id} job={job} onChanged={onChanged} />
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
