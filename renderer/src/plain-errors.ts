// What the window says of a host's error: the same facts in a user's words. The API labels each problem with where
// it is in the request ("planExport.sink.table: …"), which helps a script but is noise beside a form field; and a
// network failure arrives in Node's words ("getaddrinfo ENOTFOUND db", "connect ECONNREFUSED 127.0.0.1:5432").
import { API_METHODS, type Result } from '../../shared/api.js';
import type { ErrorValue } from '../../shared/errors.js';

const CALL_LABEL = new RegExp(`(^|; )(?:${API_METHODS.join('|')})(?:\\.[\\w.]+)?: `, 'g');

/** Node's network error codes, said as what the user can check. */
const NETWORK_WORDS: [RegExp, (match: RegExpExecArray) => string][] = [
  [/getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)/, (m) => `the host name '${m[1]}' was not found (check its spelling and your network)`],
  [/connect ECONNREFUSED (\S+)/, (m) => `nothing is listening at ${m[1]} (is the server running, and on that port?)`],
  [/connect ETIMEDOUT (\S+)/, (m) => `${m[1]} did not answer in time (check the host, the port and any firewall)`],
  [/connect EHOSTUNREACH (\S+)/, (m) => `${m[1]} cannot be reached from this computer (check the host and your network)`],
  [/\bECONNRESET\b/, () => 'the server closed the connection'],
];

export function plainText(message: string): string {
  let text = message.replace(CALL_LABEL, '$1');
  for (const [pattern, words] of NETWORK_WORDS) {
    const match = pattern.exec(text);
    if (match) text = text.replace(match[0], words(match));
  }
  // The first letter of a sentence that began with a label.
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function plainError(error: ErrorValue): ErrorValue {
  return {
    ...error,
    message: plainText(error.message),
    ...(error.problems ? { problems: error.problems.map(plainText) } : {}),
  };
}

/** The same result with its error, if any, in plain words. */
export function plainResult<T>(result: Result<T>): Result<T> {
  return result.ok ? result : { ok: false, error: plainError(result.error) };
}
