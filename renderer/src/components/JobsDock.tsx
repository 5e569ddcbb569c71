// Running and past jobs at the bottom of the window: a one-line strip (the latest job's state and progress) that
// opens on demand or when a job is started, remembered across runs. Open, it shows the newest job alone and grows
// into this session's list only when asked, the jobs of earlier sessions behind "Show earlier"; it never takes more
// than a quarter of the window (styles.css), its list scrolling within that.
import { useState } from 'react';
import type { JobInfo, RetryAnswer, RetryChoice } from '../../../shared/api.js';
import { isExactlyOnce, isSqlSink } from '../../../shared/sink-spec.js';
import { api } from '../api-client.js';
import { copyText } from '../clipboard.js';
import { formatCount, formatDuration, humanBytes } from '../format.js';
import { isLive, SESSION_START } from '../jobs.js';
import { Alert } from './Alert.js';
import { Notice } from './Notice.js';

interface Props {
  jobs: JobInfo[];
  loadError: string | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onChanged(job: JobInfo): void;
  onClearFinished(): void;
}

const STATE_LABEL: Record<JobInfo['state'], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Rows the target holds from the job: committed ones for SQL sinks (the sink says), else the rows handed over. */
function committed(job: JobInfo): number {
  return job.progress.committedRows ?? job.progress.rows;
}

// What a stop leaves behind, as the sinks define it: SQL targets keep committed batches, files are not written.
function leftBehind(job: JobInfo): string {
  const verb = job.state === 'cancelled' ? 'Cancelled' : 'Stopped';
  if (isSqlSink(job.request.sink)) {
    return (
      `${verb} after ${formatCount(committed(job))} rows committed; they stay in the target, the open batch was rolled back.` +
      (isExactlyOnce(job.request.sink) ? ' Retry resumes after them.' : ' Retry asks whether to write them again or replace them.')
    );
  }
  return `${verb} after ${formatCount(job.progress.rows)} rows: the output file was not written.`;
}

/** " · skipped 93 of 100 files (1.20 GiB of 1.30 GiB)": what the job's filter let it leave unread. */
function skippedText(job: JobInfo): string {
  const s = job.result?.skipping ?? job.progress.skipping;
  if (!s) return '';
  return ` · skipped ${formatCount(s.filesSkipped)} of ${formatCount(s.filesTotal)} files (${humanBytes(s.bytesSkipped)} of ${humanBytes(s.bytesTotal)})`;
}

function Figures({ job }: { job: JobInfo }) {
  const p = job.progress;
  const resumed = p.resumedFromRow ? `Resumed from row ${formatCount(p.resumedFromRow + 1)} · ` : '';
  const sql = isSqlSink(job.request.sink);
  if (job.state === 'succeeded' && job.result) {
    return (
      <span>
        {resumed}
        {formatCount(sql ? committed(job) : job.result.rows)} rows {sql ? 'committed' : 'written'} in {formatDuration(job.result.seconds)} ·{' '}
        {formatCount(Math.round(job.result.rowsPerSec))} rows/s{skippedText(job)}
      </span>
    );
  }
  const parts = [
    sql ? `${formatCount(committed(job))} rows committed` : `${formatCount(p.rows)} rows read`,
    `${p.files}/${p.filesTotal} files`,
  ];
  if (p.bytesTotal > 0) parts.push(`${humanBytes(p.bytes)} of ${humanBytes(p.bytesTotal)}`);
  if (job.state === 'running') {
    parts.push(`${formatCount(Math.round(p.rowsPerSec))} rows/s`);
    if (p.etaSeconds !== null) parts.push(`about ${formatDuration(p.etaSeconds)} left`);
  }
  return (
    <span>
      {resumed}
      {parts.join(' · ')}
      {skippedText(job)}
    </span>
  );
}

function JobRow({ job, onChanged }: { job: JobInfo; onChanged(job: JobInfo): void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<Extract<RetryAnswer, { ask: unknown }>['ask'] | null>(null);
  const live = isLive(job);
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    setNote(null);
    await work();
    setBusy(false);
  };
  const cancel = () =>
    act(async () => {
      const result = await api.cancelJob({ id: job.id });
      if (result.ok) onChanged(result.value);
      else setProblem(result.error.message);
    });
  const retry = (choice?: RetryChoice) =>
    act(async () => {
      setQuestion(null);
      const result = await api.retryJob({ id: job.id, ...(choice ? { choice } : {}) });
      if (!result.ok) return setProblem(result.error.message);
      if ('ask' in result.value) return setQuestion(result.value.ask);
      onChanged(result.value.started);
    });
  const reveal = () =>
    act(async () => {
      const result = await api.revealTarget({ id: job.id });
      if (!result.ok) return setProblem(result.error.message);
      if (result.value.shown) return setNote(`Shown in the file manager: ${result.value.location}`);
      try {
        await copyText(result.value.location);
        setNote(`Target copied: ${result.value.location}`);
      } catch {
        setNote(`Target: ${result.value.location}`);
      }
    });
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
          <button type="button" className="button small danger" onClick={() => void cancel()} disabled={busy}>
            Cancel
          </button>
        )}
        {(job.state === 'failed' || job.state === 'cancelled') && (
          <button type="button" className="button small" onClick={() => void retry()} disabled={busy || question !== null}>
            Retry
          </button>
        )}
        <button type="button" className="button small ghost" onClick={() => void reveal()} disabled={busy}>
          Show target
        </button>
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
      {job.error && job.state === 'failed' && <Alert message={job.error} />}
      {(job.state === 'cancelled' || (job.state === 'failed' && committed(job) > 0)) && <p className="muted small">{leftBehind(job)}</p>}
      {question && (
        <div className="target-choice" role="alertdialog" aria-label={`Retry: ${job.title}`}>
          <p>
            Retry cannot resume: {question.reason}.{' '}
            {question.rowsInTarget === null
              ? 'The target may already hold rows from this job.'
              : `The target already holds ${formatCount(question.rowsInTarget)} rows from this job.`}{' '}
            Append every row again, replace what the target holds, or stop?
          </p>
          <div className="inline-fields">
            <button type="button" className="button small" onClick={() => void retry('append')} disabled={busy}>
              Append
            </button>
            <button type="button" className="button small danger" onClick={() => void retry('replace')} disabled={busy}>
              Replace
            </button>
            <button type="button" className="button small ghost" onClick={() => setQuestion(null)} disabled={busy}>
              Stop
            </button>
          </div>
        </div>
      )}
      <Notice text={note} className="muted small" />
      <Alert message={problem} />
    </li>
  );
}

/** The strip's one line: what is running, else how the latest job ended. */
function Summary({ jobs }: { jobs: JobInfo[] }) {
  const running = jobs.filter(isLive);
  const latest = running[0] ?? jobs[0];
  if (!latest) return <span className="muted small">No exports yet</span>;
  return (
    <span className="jobs-summary small">
      <span className={`state-badge ${latest.state}`}>{STATE_LABEL[latest.state]}</span>
      <span className="job-title" title={latest.title}>
        {latest.title}
      </span>
      {isLive(latest) && <span className="muted">{Math.round(latest.progress.percent)}%</span>}
      <span className="muted">
        · {running.length > 0 ? `${running.length} running` : 'idle'} · {jobs.length} in the list
      </span>
    </span>
  );
}

/** Jobs of earlier sessions that have ended: shown only on request. */
function isEarlier(job: JobInfo): boolean {
  return !isLive(job) && job.createdAt < SESSION_START;
}

export function JobsDock({ jobs, loadError, open, onOpenChange, onChanged, onClearFinished }: Props) {
  const [expanded, setExpanded] = useState(false);
  const [showEarlier, setShowEarlier] = useState(false);
  const finished = jobs.filter((j) => !isLive(j)).length;
  const earlier = jobs.filter(isEarlier).length;
  const shown = !expanded ? jobs.slice(0, 1) : showEarlier ? jobs : jobs.filter((j) => !isEarlier(j));
  const toggle = () => {
    // Opened again, it starts as one line.
    setExpanded(false);
    setShowEarlier(false);
    onOpenChange(!open);
  };
  return (
    <section className={open ? 'jobs-dock open' : 'jobs-dock'} aria-labelledby="jobs-title">
      <header className="jobs-header">
        <button type="button" className="jobs-toggle" aria-expanded={open} onClick={toggle}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▴'}
          </span>
          <span id="jobs-title">Jobs</span>
        </button>
        <Summary jobs={jobs} />
        <span className="spacer" />
        {open && jobs.length > 1 && (
          <button type="button" className="button small ghost" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Show the latest only' : 'Show all'}
          </button>
        )}
        {open && (
          <button type="button" className="button small ghost" onClick={onClearFinished} disabled={finished === 0}>
            Clear finished
          </button>
        )}
      </header>
      {loadError && <Alert message={loadError} />}
      {open && (
        <div className="jobs-body">
          {jobs.length === 0 ? (
            <p className="muted small empty">No exports yet. Configure a sink in the Export tab and press Export.</p>
          ) : (
            <ul className="job-list">
              {shown.map((job) => (
                <JobRow key={job.id} job={job} onChanged={onChanged} />
              ))}
            </ul>
          )}
          {expanded && earlier > 0 && !showEarlier && (
            <button type="button" className="button small ghost show-earlier" onClick={() => setShowEarlier(true)}>
              Show earlier ({formatCount(earlier)} from past sessions)
            </button>
          )}
        </div>
      )}
    </section>
  );
}
