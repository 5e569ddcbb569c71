// The snapshot the user asks for: latest, a version, or a timestamp. Typed text is checked at once (shape) and then
// against the table (resolveVersion), so the field can say which version it lands on before anything is read.
import { useEffect, useState } from 'react';
import { TIMESTAMP_FORMS } from '../../shared/source-spec.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { api } from './api-client.js';

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

function shapeProblem(versionText: string, timestampText: string): string | null {
  if (versionText !== '' && !/^\d+$/.test(versionText)) return 'Version must be a whole number: 0 or more.';
  if (timestampText !== '' && parseTimestampAsOf(timestampText) === null) {
    return `Not a timestamp Deltaport understands; type UTC time in one of these forms: ${TIMESTAMP_FORMS}.`;
  }
  return null;
}

export function useTimeTravel(path: string | null): TimeTravel {
  const [versionText, setVersion] = useState('');
  const [timestampText, setTimestamp] = useState('');
  const [status, setStatus] = useState<TravelStatus>({ state: 'latest' });

  useEffect(() => {
    if (path === null || (versionText === '' && timestampText === '')) {
      setStatus({ state: 'latest' });
      return;
    }
    const problem = shapeProblem(versionText, timestampText);
    if (problem) {
      setStatus({ state: 'invalid', message: problem });
      return;
    }
    setStatus({ state: 'checking' });
    let stale = false;
    const timer = setTimeout(() => {
      const ref = versionText !== '' ? { path, versionAsOf: Number(versionText) } : { path, timestampAsOf: timestampText };
      void api.resolveVersion(ref).then((result) => {
        if (stale) return;
        setStatus(result.ok ? { state: 'resolved', ...result.value } : { state: 'invalid', message: result.error.message });
      });
    }, RESOLVE_DELAY_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [path, versionText, timestampText]);

  let asOf: AsOf | null = null;
  if (status.state === 'latest') asOf = {};
  else if (status.state === 'resolved') {
    asOf = versionText !== '' ? { versionAsOf: Number(versionText) } : { timestampAsOf: timestampText };
  }

  return {
    versionText,
    timestampText,
    status,
    asOf,
    // The two fields exclude each other: typing in one clears the other.
    setVersionText: (text) => {
      setVersion(text.trim());
      setTimestamp('');
    },
    setTimestampText: (text) => {
      setTimestamp(text);
      setVersion('');
    },
    travelTo: (version) => {
      setVersion(String(version));
      setTimestamp('');
    },
    reset: () => {
      setVersion('');
      setTimestamp('');
    },
  };
}
