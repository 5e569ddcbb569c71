// Where the files a log names live on the local disk.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CorruptLogError } from './errors.js';

// A plain relative path (no encoding, scheme, dot segments or doubled slashes), the common case, joins without
// the cost of decoding and normalizing; on Windows every path takes the general route to get its separators.
const PLAIN_RELATIVE = /^(?![/.])(?!.*(?:[%:\\]|\/\/|\/\.\.?(?:\/|$)|\/$))/;

// A URI scheme of two or more letters; one letter followed by ':' is a Windows drive, not a scheme.
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/**
 * The absolute local path of a file named in the log (add.path, remove.path, sidecar.path). Log paths are URI-encoded
 * (PROTOCOL.md "Add File and Remove File"), relative to `base` or absolute, possibly `file:` URIs. The result is
 * normalized so that the add and the remove of one file yield the same string however each spelled it.
 */
export function resolveDataPath(base: string, logPath: string): string {
  if (path.sep === '/' && PLAIN_RELATIVE.test(logPath) && path.isAbsolute(base)) {
    return base.endsWith('/') ? base + logPath : `${base}/${logPath}`;
  }
  if (logPath.startsWith('file:')) {
    try {
      return path.normalize(fileURLToPath(new URL(logPath)));
    } catch {
      throw new CorruptLogError(`cannot read file path '${logPath}' in the log: not a local file URI`);
    }
  }
  if (SCHEME.test(logPath)) {
    throw new CorruptLogError(`cannot read file path '${logPath}': only local files are supported`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(logPath);
  } catch {
    throw new CorruptLogError(`cannot decode file path '${logPath}' in the log: bad percent-encoding`);
  }
  return path.isAbsolute(decoded) ? path.normalize(decoded) : path.resolve(base, decoded);
}
