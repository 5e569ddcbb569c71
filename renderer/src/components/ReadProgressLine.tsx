// A long read's progress bar, what it has read so far, and its Cancel: the read stops in the host, and the view says
// it was cancelled.
import type { ReadProgress } from '../../../shared/api.js';
import { formatCount, humanBytes } from '../format.js';
import { fractionDone } from '../read-progress.js';

interface Props {
  /** What is being read, e.g. "Exact scan". */
  what: string;
  progress: ReadProgress | null;
  onCancel(): void;
}

export function progressText(p: ReadProgress | null): string {
  if (p === null || p.filesTotal === 0) return 'Starting…';
  const files = `${formatCount(p.files)} of ${formatCount(p.filesTotal)} ${p.filesTotal === 1 ? 'file' : 'files'}`;
  return p.bytesTotal > 0 ? `${humanBytes(p.bytes)} of ${humanBytes(p.bytesTotal)} read (${files} done)` : `${files} read`;
}

export function ReadProgressLine({ what, progress, onCancel }: Props) {
  const fraction = fractionDone(progress);
  const percent = fraction === null ? 0 : Math.round(fraction * 100);
  return (
    <div className="toolbar-row read-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={`${what}: progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={fraction === null ? undefined : percent}
        aria-valuetext={progressText(progress)}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="small muted" role="status">
        {what}: {progressText(progress)}
      </span>
      <button type="button" className="button small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
