// Who may talk to `deltaport serve`: requests addressed to our own loopback host and port (a DNS-rebinding page has a
// foreign Host), carrying the session token (query, cookie or header), and, when a browser says where a request
// comes from, coming from our own origin (a page on another local port shares the cookie's site but not our origin).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const TOKEN_COOKIE = 'deltaport_token';
export const TOKEN_HEADER = 'x-deltaport-token';

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).includes(host.toLowerCase());
}

/** An absent Origin is fine (navigations and same-origin GETs omit it); a present one must be ours. */
export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  return origin === undefined || allowedHosts(port).some((h) => origin === `http://${h}`);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Where the request's token came from, if it carries the right one. */
export function presentedToken(url: URL, headers: IncomingHttpHeaders, token: string): 'query' | 'cookie' | 'header' | null {
  const header = headers[TOKEN_HEADER];
  const candidates: ['query' | 'cookie' | 'header', string | undefined][] = [
    ['query', url.searchParams.get('token') ?? undefined],
    ['header', Array.isArray(header) ? header[0] : header],
    ['cookie', cookieValue(headers.cookie, TOKEN_COOKIE)],
  ];
  for (const [where, value] of candidates) if (value !== undefined && sameToken(value, token)) return where;
  return null;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
