// What the app:// protocol answers: a file of the built renderer with its content type and the CSP, or 404 for
// anything else (another host, a path leaving the folder, a missing file). window.ts hands it to protocol.handle.
import { readFile } from 'node:fs/promises';
import { APP_HOST, CONTENT_SECURITY_POLICY } from './security.js';
import { contentTypeFor, resolveStaticFile } from './static-files.js';

export interface ProtocolAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

export async function answerAppRequest(rendererRoot: string, requestUrl: string): Promise<ProtocolAnswer> {
  const headers: Record<string, string> = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' };
  const url = new URL(requestUrl);
  const file = url.host === APP_HOST ? resolveStaticFile(rendererRoot, url.pathname) : null;
  const body = file ? await readFile(file).catch(() => null) : null;
  if (!file || !body) return { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }, body: 'not found' };
  return { status: 200, headers: { ...headers, 'Content-Type': contentTypeFor(file) }, body };
}
