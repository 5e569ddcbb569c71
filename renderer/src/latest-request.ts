// The one rule for reads the window makes again and again (a preview, a profile, a page, a diff): the newest request
// wins. Each hook names its reads with one read id; the host cancels a read still running under that id when the
// next one comes (so a superseded read stops its work in the worker, not only its display), and Cancel or leaving
// the view cancels the one under way. An answer to a request made before the newest is dropped, whichever comes back
// first.
import { useCallback, useEffect, useId, useRef } from 'react';
import type { Result } from '../../shared/api.js';
import { api } from './api-client.js';

/** Read ids of two windows on one `deltaport serve` never meet: each window's start with a name of its own. */
const WINDOW_NAME = Math.random().toString(36).slice(2, 10);

/** What a view says once its read was cancelled; what it showed before stays. */
export const CANCELLED_READ = 'Cancelled: the read stopped.';

/** A request sent under the hook's read id. */
export type ReadAsk<T> = (readId: string) => Promise<Result<T>>;

export interface LatestRequest {
  /** Sends a request under the read id; its answer, or null when a newer request was made meanwhile. */
  send<T>(ask: ReadAsk<T>): Promise<Result<T> | null>;
  /** Cancels the request under way, in the host too: its answer then comes back cancelled. */
  cancel(): void;
  /** The hook's read id, for asking the host how far the read under way has come. */
  readId: string;
}

export function useLatestRequest(): LatestRequest {
  const readId = `${WINDOW_NAME}${useId()}`;
  const latest = useRef(0);
  const answered = useRef(0);
  const mounted = useRef(false);

  const cancel = useCallback(() => {
    if (answered.current !== latest.current) void api.cancelRead({ readId });
  }, [readId]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // Development's StrictMode unmounts and mounts again at once: only a view that stays gone cancels its read.
      setTimeout(() => {
        if (!mounted.current) cancel();
      }, 0);
    };
  }, [cancel]);

  const send = useCallback(
    async <T>(ask: ReadAsk<T>): Promise<Result<T> | null> => {
      const id = ++latest.current;
      const answer = await ask(readId);
      if (latest.current !== id) return null;
      answered.current = id;
      return answer;
    },
    [readId],
  );

  return { send, cancel, readId };
}
