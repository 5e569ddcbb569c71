// Where the files a log names live: on the local disk or in the table's bucket.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStoreUrl } from '../../../shared/store-location.js';
import { canonicalLocation, isCloudLocation, joinLocation } from '../../storage/storage.js';
import { corruptLog } from '../errors.js';

// A plain relative path (no encoding, scheme, dot segments or doubled slashes), the common case, joins without
// the cost of decoding and normalizing; on Windows every path takes the general route to get its separators. What
// makes a path not plain is searched for, not its absence asserted from the start: half the time per path.
const NOT_PLAIN = /^[/.]|[%:\\]|\/\/|\/\.\.?(?:\/|$)|\/$/;

// A URI scheme of two or more letters; one letter followed by ':' is a Windows drive, not a scheme.
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]+:/;

/**
 * The location of a file named in the log (add.path, remove.path, sidecar.path). Log paths are URI-encoded
 * (PROTOCOL.md "Add File and Remove File"), relative to `base` or absolute: a `file:` URI or path, or a cloud URL.
 * The result is normalized so that the add and the remove of one file yield the same string however each spelled it.
 */
export function resolveDataPath(base: string, logPath: string): string {
  return dataPathResolver(base)(logPath);
}

/** resolveDataPath for the many paths of one base (a replay's adds): what the base is, is found once. */
export function dataPathResolver(base: string): (logPath: string) => string {
  const cloudBase = isCloudLocation(base);
  const plainJoins = !cloudBase && path.sep === '/' && path.isAbsolute(base);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return (logPath) => {
    if (plainJoins && !NOT_PLAIN.test(logPath)) return prefix + logPath;
    if (SCHEME.test(logPath)) return absoluteLocation(logPath);
    const decoded = decodeLogPath(logPath);
    if (cloudBase) {
      if (decoded.startsWith('/')) throw corruptLog(`cannot read file path '${logPath}': an absolute local path in a table in the cloud`);
      return joinLocation(base, decoded);
    }
    return path.isAbsolute(decoded) ? path.normalize(decoded) : path.resolve(base, decoded);
  };
}

/** An absolute URI in the log (a data file, a 'p' deletion vector): a local file: URI or a cloud URL. */
export function absoluteLocation(uri: string): string {
  if (uri.startsWith('file:')) {
    try {
      return path.normalize(fileURLToPath(new URL(uri)));
    } catch {
      throw corruptLog(`cannot read file path '${uri}' in the log: not a local file URI`);
    }
  }
  if (isStoreUrl(uri)) {
    const at = uri.indexOf('//') + 2;
    const slash = uri.indexOf('/', at);
    try {
      return canonicalLocation(slash < 0 ? uri : uri.slice(0, slash) + decodeLogPath(uri.slice(slash)));
    } catch (err) {
      throw corruptLog(`cannot read file path '${uri}' in the log: ${(err as Error).message}`);
    }
  }
  // A 'p' deletion vector given as a bare absolute path.
  if (!SCHEME.test(uri)) return uri;
  throw corruptLog(`cannot read file path '${uri}': Deltaport reads local files and s3://, gs:// and Azure URLs`);
}

function decodeLogPath(logPath: string): string {
  try {
    return decodeURIComponent(logPath);
  } catch {
    throw corruptLog(`cannot decode file path '${logPath}' in the log: bad percent-encoding`);
  }
}
