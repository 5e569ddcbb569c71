// Saved sink profiles keep their PostgreSQL or MySQL password apart from the rest of the spec: encrypted by an injected
// Encryptor (Electron's safeStorage) or not at all. These helpers split a password out of a spec (from the field or
// from the URL's userinfo) and put one back.
import type { SinkSpec } from '../../shared/sink-spec.js';

export interface Encryptor {
  encrypt(plain: string): Buffer;
  decrypt(cipher: Buffer): string;
}

/** A copy of the spec with every password removed, and the password that was there ('' when none). */
export function splitPassword(spec: SinkSpec): { sink: SinkSpec; password: string } {
  if (!('connection' in spec)) return { sink: spec, password: '' };
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

/** Fills a PostgreSQL or MySQL spec's password when it has none of its own. */
export function withPassword(spec: SinkSpec, password: string): SinkSpec {
  if (!('connection' in spec) || !password || spec.connection.password) return spec;
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

/** The parts of Electron's safeStorage that decide whether secrets are saved. */
export interface PlatformStorage {
  isEncryptionAvailable(): boolean;
  /** Linux only: which secret store backs the key; 'basic_text' is Chromium's fixed key when no keyring runs. */
  getSelectedStorageBackend?(): string;
  encryptString(plain: string): Buffer;
  decryptString(cipher: Buffer): string;
}

/**
 * An Encryptor over the platform's secret store, or null when it offers none. On Linux without a keyring Electron
 * still says encryption is available, but with a key compiled into Chromium, which protects nothing: secrets are then
 * not saved, as in the browser host.
 */
export function platformEncryptor(storage: PlatformStorage, platform: NodeJS.Platform = process.platform): Encryptor | null {
  if (!storage.isEncryptionAvailable()) return null;
  if (platform === 'linux' && storage.getSelectedStorageBackend?.() === 'basic_text') return null;
  return { encrypt: (plain) => storage.encryptString(plain), decrypt: (cipher) => storage.decryptString(cipher) };
}
