// The reads a window may cancel (a preview, a profile, a diff, a change feed, history, a query), known by the id the
// caller gave each. Cancellation is a value handed down, as VS Code's CancellationTokenSource hands down its token:
// here the platform's AbortController, whose signal goes with the task to the worker and on to the scan, which stops
// at its next row group or file. A read started under an id that is still running cancels the one before: the window
// only ever wants its newest request answered.
import type { ReadProgress } from '../../shared/api.js';

/** What a read is given: the signal that says it was cancelled, and where to report how far it has come. */
export interface ReadControl {
  signal: AbortSignal;
  onProgress(progress: ReadProgress): void;
}

interface Running {
  controller: AbortController;
  progress: ReadProgress | null;
}

export class RunningReads {
  private readonly running = new Map<string, Running>();

  /** Runs `read` under `readId` (none: it cannot be cancelled by name), cancelling a read still running under it. */
  async run<T>(readId: string | undefined, read: (control: ReadControl) => Promise<T>): Promise<T> {
    const entry: Running = { controller: new AbortController(), progress: null };
    const control: ReadControl = { signal: entry.controller.signal, onProgress: (progress) => (entry.progress = progress) };
    if (readId === undefined) return read(control);
    this.running.get(readId)?.controller.abort();
    this.running.set(readId, entry);
    try {
      return await read(control);
    } finally {
      if (this.running.get(readId) === entry) this.running.delete(readId);
    }
  }

  /** Cancels the read running under this id; false when none is. */
  cancel(readId: string): boolean {
    const entry = this.running.get(readId);
    entry?.controller.abort();
    return entry !== undefined;
  }

  progress(readId: string): ReadProgress | null {
    return this.running.get(readId)?.progress ?? null;
  }
}
