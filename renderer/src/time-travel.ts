// The snapshot the user asks for: latest, a version, or a timestamp. Typed text is checked at once (shape) and then
// against the table (resolveVersion), so the field can say which version it lands on before anything is read.
import { useCallback, useEffect, useState } from 'react';
import { api } from './api-client.js';
import { normalizeTimestampInput } from './timestamp-input.js';

export type TravelStatus =
  | { state: 'latest' }
  | { state: 'checking' }
  | { state: 'invalid'; message: string }
  | { state: 'resolved'; version: number; timestamp: number };

export interface AsOf {
  versionAsOf?: number;
  timestampAsOf?: string;
}

export interface TimeTravel {
  versionText: string;
  timestampText: string;
  status: TravelStatus;
  /** What a source spec carries; null while the fields are being checked or are wrong. */
  asOf: AsOf | null;
  setVersionText(text: string): void;
  setTimestampText(text: string): void;
  travelTo(version: number): void;
  reset(): void;
}

const RESOLVE_DELAY_MS = 200;

type Wanted = { asOf: AsOf } | { problem: string } | null;

/** What the two fields ask for, before the table is asked; null for the latest snapshot. */
function wantedOf(versionText: string, timestampText: string): Wanted {
  if (versionText !== '') {
    const version = Number(versionText);
    return /^\d+$/.test(versionText) && Number.isSafeInteger(version)
      ? { asOf: { versionAsOf: version } }
      : { problem: 'Version must be a whole number: 0 or more.' };
  }
  if (timestampText.trim() === '') return null;
  const exact = normalizeTimestampInput(timestampText);
  return exact === null
    ? { problem: 'Not a date and time; type UTC like 2022-02-24 04:55 or pick one.' }
    : { asOf: { timestampAsOf: exact } };
}

export function useTimeTravel(path: string | null): TimeTravel {
  const [versionText, setVersion] = useState('');
  const [timestampText, setTimestamp] = useState('');
  // The table's answer, with the question it answers: a newer question makes an older answer "checking" again.
  const [answer, setAnswer] = useState<{ key: string; status: TravelStatus } | null>(null);

  const wanted = path === null ? null : wantedOf(versionText, timestampText);
  const asked = wanted && 'asOf' in wanted ? wanted.asOf : null;
  const key = asked && path !== null ? JSON.stringify([path, asked]) : null;

  useEffect(() => {
    if (key === null) return;
    const [tablePath, asOf] = JSON.parse(key) as [string, AsOf];
    let stale = false;
    const timer = setTimeout(() => {
      void api.resolveVersion({ path: tablePath, ...asOf }).then((result) => {
        if (!stale)
          setAnswer({
            key,
            status: result.ok ? { state: 'resolved', ...result.value } : { state: 'invalid', message: result.error.message },
          });
      });
    }, RESOLVE_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [key]);

  let status: TravelStatus;
  if (wanted === null) status = { state: 'latest' };
  else if ('problem' in wanted) status = { state: 'invalid', message: wanted.problem };
  else status = answer !== null && answer.key === key ? answer.status : { state: 'checking' };

  const asOf = status.state === 'latest' ? {} : status.state === 'resolved' ? asked : null;

  // The two fields exclude each other: typing in one clears the other.
  const setVersionText = useCallback((text: string) => {
    setVersion(text.trim());
    setTimestamp('');
  }, []);
  const setTimestampText = useCallback((text: string) => {
    setTimestamp(text);
    setVersion('');
  }, []);
  const travelTo = useCallback((version: number) => {
    setVersion(String(version));
    setTimestamp('');
  }, []);
  const reset = useCallback(() => {
    setVersion('');
    setTimestamp('');
  }, []);

  return { versionText, timestampText, status, asOf, setVersionText, setTimestampText, travelTo, reset };
}
