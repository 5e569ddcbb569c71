// The one way the UI reaches the engine: Electron's preload bridge when present, else the HTTP protocol of
// `deltaport serve` (POST /api/<method>, server-sent events on /api/events, token from the page URL or cookie).
import { API_METHODS } from '../../shared/api.js';
import type { DeltaportApi, DeltaportEvents, JobEvent, Result } from '../../shared/api.js';
import { plainResult } from './plain-errors.js';

export type Client = DeltaportApi & DeltaportEvents;

/** Only the desktop app can say where a dropped folder lives (Electron's webUtils, through the preload). */
export interface DesktopBridge extends Client {
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    deltaport?: DesktopBridge;
  }
}

function tokenFromPage(): string | null {
  return new URLSearchParams(window.location.search).get('token');
}

async function postCall(method: string, arg: unknown, token: string | null): Promise<Result<unknown>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['X-Deltaport-Token'] = token;
  let response: Response;
  try {
    response = await fetch(`api/${method}`, {
      method: 'POST',
      headers,
      credentials: 'same-origin',
      body: JSON.stringify(arg ?? null),
    });
  } catch {
    return {
      ok: false,
      error: { code: 'INTERNAL', message: 'Cannot reach the Deltaport host; check that `deltaport serve` is still running.' },
    };
  }
  if (response.status === 403) {
    return {
      ok: false,
      error: { code: 'FORBIDDEN', message: 'The Deltaport host refused this page; open the exact URL it printed (with its token).' },
    };
  }
  if (!response.ok) {
    return { ok: false, error: { code: 'INTERNAL', message: `The Deltaport host answered HTTP ${response.status} to ${method}.` } };
  }
  return (await response.json()) as Result<unknown>;
}

function subscribeToEvents(token: string | null, listener: (event: JobEvent) => void): () => void {
  const url = token ? `api/events?token=${encodeURIComponent(token)}` : 'api/events';
  const source = new EventSource(url, { withCredentials: true });
  source.onmessage = (message: MessageEvent<string>) => {
    listener(JSON.parse(message.data) as JobEvent);
  };
  return () => source.close();
}

function httpClient(): Client {
  const token = tokenFromPage();
  const calls = Object.fromEntries(
    API_METHODS.map((method) => [method, (arg?: unknown) => postCall(method, arg, token)]),
  ) as unknown as DeltaportApi;
  return { ...calls, onJobEvent: (listener) => subscribeToEvents(token, listener) };
}

/** Every call's error in a user's words (plain-errors.ts), whichever way the call went. */
function inPlainWords(client: Client): Client {
  const calls = Object.fromEntries(
    API_METHODS.map((method) => [
      method,
      async (arg?: unknown) => plainResult(await (client[method] as (a?: unknown) => Promise<Result<unknown>>)(arg)),
    ]),
  ) as unknown as DeltaportApi;
  return { ...client, ...calls };
}

export const api: Client = inPlainWords(window.deltaport ?? httpClient());
