// How far a long read has come (an exact profile, a diff, a change feed), asked of the host while it runs: the files
// and bytes its scan has read of those it reads. Nothing is asked before the read has run `afterMs`, so a quick read
// shows no progress at all.
import { useEffect, useState } from 'react';
import type { ReadProgress } from '../../shared/api.js';
import { api } from './api-client.js';

/** A diff or a change feed shows its progress and Cancel once it has run this long. */
export const SLOW_READ_MS = 1000;
/** How often a running read's progress is asked for. */
const POLL_MS = 250;

export interface ShownProgress {
  /** The read has run longer than the delay: its progress line (and Cancel) is shown. */
  shown: boolean;
  /** The host's latest answer; null until the read's scan has reported. */
  progress: ReadProgress | null;
}

export function useReadProgress(readId: string, busy: boolean, afterMs: number): ShownProgress {
  const [state, setState] = useState<ShownProgress>({ shown: false, progress: null });
  useEffect(() => {
    if (!busy) return;
    let poll: ReturnType<typeof setInterval> | undefined;
    const ask = async () => {
      const answer = await api.readProgress({ readId });
      if (answer.ok) setState((s) => (s.shown ? { shown: true, progress: answer.value ?? s.progress } : s));
    };
    const start = setTimeout(() => {
      setState({ shown: true, progress: null });
      void ask();
      poll = setInterval(() => void ask(), POLL_MS);
    }, afterMs);
    return () => {
      clearTimeout(start);
      clearInterval(poll);
      setState({ shown: false, progress: null });
    };
  }, [readId, busy, afterMs]);
  return busy ? state : { shown: false, progress: null };
}

/** The fraction done (bytes where the total is known, else files); null while unknown. */
export function fractionDone(p: ReadProgress | null): number | null {
  if (p === null) return null;
  if (p.bytesTotal > 0) return Math.min(1, p.bytes / p.bytesTotal);
  return p.filesTotal > 0 ? Math.min(1, p.files / p.filesTotal) : null;
}
