// Pieces the app-state and API tests (and the benchmark's lag case) share: an encryptor that stands in for the OS's
// (its output differs from the plain text, so a test can see a secret is not stored as given), and the value of an
// API Result, a failed one thrown as its code and message.
import type { Result } from '../../shared/api.js';
import type { Encryptor } from '../../electron/state/secrets.js';

export const xorEncryptor: Encryptor = {
  encrypt: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
  decrypt: (cipher) => Buffer.from(cipher.map((b) => b ^ 0x5a)).toString('utf8'),
};

export function resultValue<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}
