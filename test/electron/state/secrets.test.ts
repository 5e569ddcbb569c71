import { describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { platformEncryptor, redactSink, splitPassword, withPassword, type PlatformStorage } from '../../../electron/state/secrets.js';

const base = { table: 't', mode: 'append', execution: { batchSize: 10, batchIntervalMs: 0, maxRetries: 0 }, exactlyOnce: false } as const;
const pg = (connection: Extract<SinkSpec, { kind: 'postgres' }>['connection']): SinkSpec => ({ kind: 'postgres', connection, ...base });

describe('sink passwords', () => {
  it('splits a password out of the field or the URL (percent-decoded)', () => {
    expect(splitPassword(pg({ host: 'h', user: 'u', password: 's3cret' }))).toEqual({
      sink: pg({ host: 'h', user: 'u' }),
      password: 's3cret',
    });
    expect(splitPassword(pg({ url: 'postgres://u:p%40ss@h:5432/db?sslmode=require' }))).toEqual({
      sink: pg({ url: 'postgres://u@h:5432/db?sslmode=require' }),
      password: 'p@ss',
    });
    expect(redactSink(pg({ url: 'postgres://u:x@h/db', password: 'y' }))).toEqual(pg({ url: 'postgres://u@h/db' }));
    const file: SinkSpec = { kind: 'csv', path: '/o.csv' };
    expect(splitPassword(file)).toEqual({ sink: file, password: '' });
  });

  it('splits and fills a MySQL password the same way', () => {
    const my = (connection: Extract<SinkSpec, { kind: 'mysql' }>['connection']): SinkSpec => ({ kind: 'mysql', connection, ...base });
    expect(splitPassword(my({ url: 'mysql://u:p%40ss@h:3306/db' }))).toEqual({
      sink: my({ url: 'mysql://u@h:3306/db' }),
      password: 'p@ss',
    });
    expect(withPassword(my({ host: 'h' }), 'saved')).toEqual(my({ host: 'h', password: 'saved' }));
  });

  it('never keeps a secret from a URL it cannot parse', () => {
    expect(JSON.stringify(redactSink(pg({ url: 'postgres://u:topsecret@[bad/db' })))).not.toContain('topsecret');
  });

  it('fills a password only where none is given', () => {
    expect(withPassword(pg({ host: 'h' }), 'saved')).toEqual(pg({ host: 'h', password: 'saved' }));
    expect(withPassword(pg({ host: 'h', password: 'typed' }), 'saved')).toEqual(pg({ host: 'h', password: 'typed' }));
    expect(withPassword(pg({ url: 'postgres://u:typed@h/db' }), 'saved')).toEqual(pg({ url: 'postgres://u:typed@h/db' }));
    expect(withPassword({ kind: 'jsonl', path: '/x' }, 'saved')).toEqual({ kind: 'jsonl', path: '/x' });
  });
});

describe("the platform's secret store (Electron's safeStorage)", () => {
  /** A stand-in for safeStorage: reversible, so that what the encryptor does with it can be seen. */
  function storage(available: boolean, backend?: string): PlatformStorage {
    return {
      isEncryptionAvailable: () => available,
      ...(backend === undefined ? {} : { getSelectedStorageBackend: () => backend }),
      encryptString: (plain) => Buffer.from([...plain].reverse().join('')),
      decryptString: (cipher) => [...cipher.toString()].reverse().join(''),
    };
  }

  it('encrypts with a keyring on Linux, and with the system store on macOS and Windows', () => {
    for (const [backend, platform] of [
      ['gnome_libsecret', 'linux'],
      ['kwallet5', 'linux'],
      [undefined, 'darwin'],
      [undefined, 'win32'],
    ] as const) {
      const encryptor = platformEncryptor(storage(true, backend), platform);
      expect(encryptor?.encrypt('pw1').toString()).toBe('1wp');
      expect(encryptor?.decrypt(Buffer.from('1wp'))).toBe('pw1');
    }
  });

  it("saves no secret on Linux without a keyring, where Chromium's key is a fixed one ('basic_text'), or with no store", () => {
    expect(platformEncryptor(storage(true, 'basic_text'), 'linux')).toBeNull();
    expect(platformEncryptor(storage(false, 'gnome_libsecret'), 'linux')).toBeNull();
    expect(platformEncryptor(storage(false), 'darwin')).toBeNull();
  });
});
