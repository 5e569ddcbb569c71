// A read of rows capped by a typed row limit, shown in the grid (the snapshot's preview, a diff, a change feed): the
// limit as typed and why it cannot be used, the latest answer or the host's one-line error, and whether a read is under
// way. The view's first read is made as soon as it has something to read, with the default limit.
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { PREVIEW_MAX_ROWS } from '../../shared/api.js';
import type { Result } from '../../shared/api.js';
import { formatCount } from './format.js';
import { CANCELLED_READ, useLatestRequest, type ReadAsk } from './latest-request.js';

export const DEFAULT_ROW_LIMIT = 1000;

/** Why a typed row limit cannot be used; null when it can. */
export function limitProblemOf(text: string): string | null {
  const limit = Number(text);
  return text.trim() !== '' && Number.isInteger(limit) && limit >= 1 && limit <= PREVIEW_MAX_ROWS
    ? null
    : `Row limit must be a whole number from 1 to ${formatCount(PREVIEW_MAX_ROWS)}.`;
}

/** Asks the host for at most `limit` rows, as the read named `readId` (a newer read under it cancels this one). */
export type LimitedAsk<T> = (limit: number, readId: string) => Promise<Result<T>>;

export interface LimitedRead<T> {
  limitText: string;
  setLimitText(text: string): void;
  limitProblem: string | null;
  /** The latest answer; it stays while another read runs or fails. */
  value: T | null;
  /** How many answers have come: keyed on it, the grid starts afresh (scroll, sort, selection) with each read. */
  reads: number;
  error: string | null;
  busy: boolean;
  /** Reads again with the typed limit, unless it or the request cannot be used; `ask` reads something else than the
   * view's current request (a header click's order, before the field shows it). */
  run(event?: FormEvent, ask?: LimitedAsk<T>): void;
  /** Adds the next page to the answer shown: `page` asks for it, `merge` joins it on. Not a new read: the grid keeps
   * its scroll and selection. */
  extend(page: ReadAsk<T>, merge: (shown: T, next: T) => T): void;
  /** Cancels the read under way; it stops in the host, and its answer says it was cancelled. */
  cancel(): void;
  /** The name of the view's reads, for asking how far the one under way has come. */
  readId: string;
}

/** `ask` is null while the view has nothing it can read (no source yet, a key column that is not there). */
export function useLimitedRead<T>(ask: LimitedAsk<T> | null): LimitedRead<T> {
  const [limitText, setLimitText] = useState(String(DEFAULT_ROW_LIMIT));
  const [state, setState] = useState<{ value: T | null; reads: number; error: string | null; busy: boolean }>({
    value: null,
    reads: 0,
    error: null,
    busy: false,
  });
  const firstRead = useRef(false);
  const latest = useLatestRequest();
  const limitProblem = limitProblemOf(limitText);

  const settle = async (request: ReadAsk<T>, apply: (s: typeof state, value: T) => typeof state) => {
    setState((s) => ({ ...s, error: null, busy: true }));
    const answer = await latest.send(request);
    if (answer === null) return;
    setState((s) =>
      answer.ok
        ? apply(s, answer.value)
        : { ...s, error: answer.error.code === 'CANCELLED' ? CANCELLED_READ : answer.error.message, busy: false },
    );
  };

  const read = (request: LimitedAsk<T>, limit: number) =>
    settle(
      (readId) => request(limit, readId),
      (s, value) => ({ value, reads: s.reads + 1, error: null, busy: false }),
    );

  useEffect(() => {
    if (firstRead.current || ask === null) return;
    firstRead.current = true;
    void read(ask, DEFAULT_ROW_LIMIT);
  });

  const run = (event?: FormEvent, other?: LimitedAsk<T>) => {
    event?.preventDefault();
    const request = other ?? ask;
    if (request && !limitProblem) void read(request, Number(limitText));
  };

  const extend = (page: ReadAsk<T>, merge: (shown: T, next: T) => T) => {
    if (state.busy || state.value === null) return;
    void settle(page, (s, value) => ({ ...s, value: s.value === null ? value : merge(s.value, value), error: null, busy: false }));
  };

  return { limitText, setLimitText, limitProblem, ...state, run, extend, cancel: latest.cancel, readId: latest.readId };
}
