// Who may call the API and with what. Pure checks shared by the Electron IPC handlers and the HTTP host: every
// payload is parsed with its method's schema (shared/api-schemas.ts: unknown keys refused, sizes bounded, paths
// absolute, the specs' own rules) before any handler sees it, so nothing reaches the disk or a database unchecked.
import os from 'node:os';
import type { ApiMethod, DeltaportApi } from '../../shared/api.js';
import { API_METHODS } from '../../shared/api.js';
import { REQUEST_SCHEMAS } from '../../shared/api-schemas.js';
import { validationError } from '../../shared/errors.js';
import { LIMITS, parseWith } from '../../shared/schema.js';
import { isAppUrl } from './security.js';
import { catalogConnectionProblems } from './catalog-connections.js';
import { connectionOptionProblems, connectionPrefix } from './storage-connection-rules.js';
import { resolveTableLocation } from './table-location.js';

export interface SenderInfo {
  /** URL of the frame that sent the message, or null when it is gone. */
  frameUrl: string | null;
  isMainFrame: boolean;
  /** The frame belongs to the app's own window (not a devtools or stray webContents). */
  isOurWindow: boolean;
}

/** Only the main frame of our window, showing one of our own pages, may call the API. */
export function isTrustedSender(sender: SenderInfo): boolean {
  return sender.isOurWindow && sender.isMainFrame && sender.frameUrl !== null && isAppUrl(sender.frameUrl);
}

export function isApiMethod(name: string): name is ApiMethod {
  return (API_METHODS as readonly string[]).includes(name);
}

type Checked = { [M in ApiMethod]: Parameters<DeltaportApi[M]>[0] };

/** The checked argument list for a call; throws one VALIDATION error listing every problem, each named by where it
 * is (e.g. "startExport.sink.path: ..."). */
export function validateCall<M extends ApiMethod>(method: M, payload: unknown): Parameters<DeltaportApi[M]> {
  const parsed = parseWith(REQUEST_SCHEMAS[method], payload, method);
  if (!parsed.ok) throw validationError(parsed.problems);
  const value = parsed.value as Checked[M] | undefined;
  if (value === undefined) return [] as unknown as Parameters<DeltaportApi[M]>;
  if (method === 'openTable') return [typedLocation(value as Checked['openTable'])] as Parameters<DeltaportApi[M]>;
  if (method === 'saveStorageConnection')
    return [storageConnection(value as Checked['saveStorageConnection'])] as Parameters<DeltaportApi[M]>;
  if (method === 'saveCatalogConnection') {
    const input = value as Checked['saveCatalogConnection'];
    const problems = catalogConnectionProblems(input.kind, input.options);
    if (problems.length > 0) throw validationError(problems.map((p) => `saveCatalogConnection.options: ${p}`));
  }
  return [value] as Parameters<DeltaportApi[M]>;
}

/** A storage connection to save: its prefix in one spelling, its options known and right for the prefix's store.
 * Problems name options, never a value of a secret one. */
function storageConnection(input: Checked['saveStorageConnection']): Checked['saveStorageConnection'] {
  let place;
  try {
    place = connectionPrefix(input.prefix);
  } catch (err) {
    throw validationError([`saveStorageConnection.prefix: ${(err as Error).message}`]);
  }
  const problems = connectionOptionProblems(place.kind, input.options);
  if (problems.length > 0) throw validationError(problems.map((p) => `saveStorageConnection.options: ${p}`));
  return { name: input.name.trim(), prefix: place.prefix, options: input.options };
}

/** The table a user typed: relative, ~, quoted or file:// locations are resolved here (see table-location.ts). */
function typedLocation(ref: Checked['openTable']): Checked['openTable'] {
  const path = resolveTableLocation(ref.path, { cwd: process.cwd(), home: os.homedir() });
  if (path.length > LIMITS.path) throw validationError([`openTable.path: the table path must be at most ${LIMITS.path} characters`]);
  return { ...ref, path };
}
