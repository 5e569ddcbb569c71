// How long a caller waits before trying a failed call again: the one rule for the sinks' retries and the storage
// clients' own, so that every retrying writer and reader spreads out the same way.

const BASE_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;

/** Exponential backoff with jitter (between half and all of the step), so that retrying callers spread out. */
export function backoffMs(attempt: number): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return step / 2 + Math.random() * (step / 2);
}
