// Turns the export's raw counters into what a progress bar shows. The fraction comes from bytes when the scan knows
// its total size (rows are unknown up front: stats can be missing), else from files; it never goes back, stays
// below 100 until the job has actually finished, and drives the rate and ETA.
import type { JobProgress } from '../../shared/api.js';
import type { FilterSkipping } from '../../shared/table-info.js';

export interface RawProgress {
  rows: number;
  committedRows?: number;
  resumedFromRow?: number;
  files: number;
  filesTotal: number;
  bytes: number;
  bytesTotal: number;
  skipping?: FilterSkipping;
}

/** Shown while running, however far the counters say: the last commit or rename is still to come. */
const RUNNING_CEILING = 99.9;

export const NO_PROGRESS: JobProgress = {
  rows: 0,
  files: 0,
  filesTotal: 0,
  bytes: 0,
  bytesTotal: 0,
  rowsPerSec: 0,
  etaSeconds: null,
  percent: 0,
};

export class ProgressMeter {
  private current: JobProgress = NO_PROGRESS;

  constructor(private readonly startedAtMs: number) {}

  get progress(): JobProgress {
    return this.current;
  }

  update(raw: RawProgress, nowMs: number): JobProgress {
    const fraction = raw.bytesTotal > 0 ? raw.bytes / raw.bytesTotal : raw.filesTotal > 0 ? raw.files / raw.filesTotal : 0;
    const percent = Math.max(this.current.percent, Math.min(RUNNING_CEILING, Math.max(0, fraction * 100)));
    const seconds = Math.max(0, nowMs - this.startedAtMs) / 1000;
    const done = percent / 100;
    this.current = {
      ...raw,
      rowsPerSec: seconds > 0 ? raw.rows / seconds : 0,
      etaSeconds: done > 0 && seconds > 0 ? (seconds * (1 - done)) / done : null,
      percent,
    };
    return this.current;
  }

  /** The job succeeded: everything is done, whatever the counters said. */
  finish(rows: number, rowsPerSec: number): JobProgress {
    this.current = {
      ...this.current,
      rows,
      rowsPerSec,
      files: this.current.filesTotal,
      bytes: this.current.bytesTotal,
      etaSeconds: 0,
      percent: 100,
    };
    return this.current;
  }
}
