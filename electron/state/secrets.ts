// Saved sink profiles keep their PostgreSQL password apart from the rest of the spec: encrypted by an injected
// Encryptor (Electron's safeStorage) or not at all. These helpers split a password out of a spec (from the field or
// from the URL's userinfo) and put one back.
import type { SinkSpec } from '../../shared/sink-spec.js';

export interface Encryptor {
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

/** A copy of the spec with every password removed, and the password that was there ('' when none). */
export function splitPassword(spec: SinkSpec): { sink: SinkSpec; password: string } {
  if (spec.kind !== 'postgres') return { sink: spec, password: '' };
  const connection = { ...spec.connection };
  let password = connection.password ?? '';
  delete connection.password;
  if (connection.url) {
    const { url, password: fromUrl } = stripUrlPassword(connection.url);
    connection.url = url;
    if (!password) password = fromUrl;
  }
  return { sink: { ...spec, connection }, password };
}

/** The spec with every password removed: what job history and logs may keep. */
export function redactSink(spec: SinkSpec): SinkSpec {
  return splitPassword(spec).sink;
}

/** Fills a PostgreSQL spec's password when it has none of its own. */
export function withPassword(spec: SinkSpec, password: string): SinkSpec {
  if (spec.kind !== 'postgres' || !password || spec.connection.password) return spec;
  if (spec.connection.url && stripUrlPassword(spec.connection.url).password) return spec;
  return { ...spec, connection: { ...spec.connection, password } };
}

function stripUrlPassword(raw: string): { url: string; password: string } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Not a URL we can take apart: drop anything between "://user:" and "@" so no secret survives.
    return { url: raw.replace(/(:\/\/[^:@/]*):[^@/]*@/, '$1@'), password: '' };
  }
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { url: parsed.toString(), password };
}
