// A read about one snapshot that a panel shows (its profile, its partitions): made when the panel is first shown for
// that snapshot, not when the table opens, so hidden tabs cost no worker time.
import { useCallback, useEffect, useState } from 'react';
import { CANCELLED_READ, useLatestRequest, type ReadAsk } from './latest-request.js';

export interface SnapshotRead<T> {
  value: T | null;
  error: string | null;
  busy: boolean;
  /** Reads again now, with another request (e.g. an exact scan instead of statistics). */
  reload(read: ReadAsk<T>): void;
  /** Cancels the read under way; it stops in the host, and its answer says it was cancelled. */
  cancel(): void;
  /** The name of the panel's reads, for asking how far the one under way has come. */
  readId: string;
}

/** `key` names the snapshot (path and version); `read` asks for it. */
export function useSnapshotRead<T>(key: string, visible: boolean, read: ReadAsk<T>): SnapshotRead<T> {
  const [state, setState] = useState<{ key: string | null; value: T | null; error: string | null; busy: boolean }>({
    key: null,
    value: null,
    error: null,
    busy: false,
  });
  // Only the latest request's answer is kept: one for a snapshot the window has left, or a statistics answer that
  // arrives after an exact scan was asked for, is dropped.
  const { send, cancel, readId } = useLatestRequest();

  const reload = useCallback(
    (request: ReadAsk<T>) => {
      setState((s) => ({ key, value: s.key === key ? s.value : null, error: null, busy: true }));
      void send(request).then((result) => {
        if (result === null) return;
        setState((s) => {
          if (result.ok) return { key, value: result.value, error: null, busy: false };
          // A cancelled read leaves what was shown before it.
          if (result.error.code === 'CANCELLED') return { ...s, error: CANCELLED_READ, busy: false };
          return { key, value: null, error: result.error.message, busy: false };
        });
      });
    },
    [key, send],
  );

  useEffect(() => {
    // Starting the read is what this effect is for; its busy state belongs to the same render pass.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (visible && state.key !== key) reload(read);
  }, [visible, key, state.key, reload, read]);

  const current = state.key === key;
  return {
    value: current ? state.value : null,
    error: current ? state.error : null,
    busy: current && state.busy,
    reload,
    cancel,
    readId,
  };
}
