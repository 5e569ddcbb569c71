// The browser host: the built renderer and the API over HTTP on 127.0.0.1 only. API calls are POST /api/<method>
// with the method's argument as JSON and answer a JSON Result; job events stream as server-sent events on
// GET /api/events. Every request must pass request-auth.ts; every response carries the app's CSP.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeltaportApi, DeltaportEvents, Result } from '../../shared/api.js';
import { dispatchCall } from '../app/dispatch.js';
import { isApiMethod } from '../app/ipc-validation.js';
import { CONTENT_SECURITY_POLICY } from '../app/security.js';
import { contentTypeFor, resolveStaticFile } from '../app/static-files.js';
import { isAllowedHost, isAllowedOrigin, presentedToken, TOKEN_COOKIE } from './request-auth.js';

/** Larger than any valid payload (validation bounds every field), small enough to refuse floods early. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Comments on the event stream keep proxies and idle timers from closing it. */
const HEARTBEAT_MS = 15_000;

export interface HttpHostOptions {
  api: DeltaportApi;
  events: DeltaportEvents;
  /** Folder of the built renderer (index.html and assets). */
  staticRoot: string;
  /** 0 = any free port. */
  port?: number;
}

export interface HttpHost {
  port: number;
  token: string;
  /** The address to open, token included. */
  url: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The page's address holds the token: never send it on to anyone.
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const token = randomBytes(32).toString('base64url');
  const streams = new Set<http.ServerResponse>();
  let port = 0;

  const server = http.createServer((req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!isAllowedHost(req.headers.host, port)) return sendText(res, 403, 'forbidden: wrong Host');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const origin = req.headers.origin;
    if (!isAllowedOrigin(origin, port)) return sendText(res, 403, 'forbidden: foreign Origin');
    const tokenFrom = presentedToken(url, req.headers, token);
    if (!tokenFrom) return sendText(res, 403, 'forbidden: this address needs the token printed by deltaport serve');
    if (tokenFrom === 'query') {
      res.setHeader('Set-Cookie', `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }

    if (url.pathname === '/api/events') {
      if (req.method !== 'GET') return sendText(res, 405, 'method not allowed');
      return openEventStream(req, res);
    }
    if (url.pathname.startsWith('/api/')) {
      const method = url.pathname.slice('/api/'.length);
      if (!isApiMethod(method)) return sendJson(res, 404, failure('NOT_FOUND', `no API method "${method.slice(0, 100)}"`));
      if (req.method !== 'POST') return sendText(res, 405, 'method not allowed: API calls are POST');
      return answerCall(req, res, method);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed');
    return sendFile(req, res, url.pathname);
  }

  async function answerCall(req: http.IncomingMessage, res: http.ServerResponse, method: string): Promise<void> {
    const body = await readBody(req);
    if (body === null) return sendJson(res, 413, failure('VALIDATION', `request body larger than ${MAX_BODY_BYTES} bytes`));
    let payload: unknown;
    try {
      payload = body.length === 0 ? null : JSON.parse(body.toString('utf8'));
    } catch {
      return sendJson(res, 400, failure('VALIDATION', 'request body is not valid JSON'));
    }
    sendJson(res, 200, await dispatchCall(options.api, method, payload));
  }

  function openEventStream(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    streams.add(res);
    const unsubscribe = options.events.onJobEvent((event) => res.write(`data: ${JSON.stringify(event)}\n\n`));
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    });
  }

  async function sendFile(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    const file = resolveStaticFile(options.staticRoot, pathname);
    const info = file ? await stat(file).catch(() => null) : null;
    if (!file || !info?.isFile()) {
      const hint = pathname === '/' ? ' (the renderer is not built: run npm run build:renderer)' : '';
      return sendText(res, 404, `not found${hint}`);
    }
    res.writeHead(200, {
      'Content-Type': contentTypeFor(file),
      'Content-Length': info.size,
      // Vite's asset names carry a content hash; index.html does not and must be fetched fresh.
      'Cache-Control': pathname.startsWith('/assets/') ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of streams) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function failure(code: 'VALIDATION' | 'NOT_FOUND', message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text + '\n');
}

/** The whole body, or null when it exceeds the limit. */
async function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
