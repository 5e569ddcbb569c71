// What a person types or pastes into Table location, made into the location the reader opens: quotes around it (a
// file manager's "copy as path" adds them), a file:// URI, ~ for the home folder, a path relative to the folder the
// host was started in, a cloud URL (s3://, s3a://, gs://, az://, abfss://), or a table's name through a saved catalog
// connection (uc://<connection>/catalog.schema.table, glue://<connection>/database/table). The UI shows the location this
// returns, so the user sees what was opened.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogNameText, isCatalogName, parseCatalogName } from '../../shared/catalog-name.js';
import { DeltaportError } from '../../shared/errors.js';
import { isStoreUrl, parseStoreLocation, storeUrl } from '../../shared/store-location.js';

export interface LocationBase {
  cwd: string;
  home: string;
}

const QUOTED = /^(['"])(.*)\1$/s;

export function resolveTableLocation(text: string, base: LocationBase): string {
  let location = text.trim();
  const quoted = QUOTED.exec(location);
  if (quoted) location = quoted[2].trim();
  if (location === '') throw new DeltaportError('VALIDATION', 'Type or paste the path of a Delta table folder.');
  if (location.includes('\0')) throw new DeltaportError('VALIDATION', 'A table location cannot contain a NUL character.');
  if (isCatalogName(location)) return catalogName(location);
  if (/^file:/i.test(location)) {
    try {
      location = fileURLToPath(location);
    } catch {
      throw new DeltaportError('VALIDATION', `"${location.slice(0, 200)}" is not the file:// address of a folder on this computer.`);
    }
  } else if (isStoreUrl(location)) {
    try {
      return storeUrl(parseStoreLocation(location)!);
    } catch (err) {
      throw new DeltaportError('VALIDATION', `${(err as Error).message}.`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new DeltaportError(
      'VALIDATION',
      `Deltaport opens tables in local folders and in S3, Azure and Google Cloud Storage; "${location.slice(0, 200)}" is none of these.`,
    );
  } else if (location === '~' || location.startsWith('~/') || location.startsWith(`~${path.sep}`)) {
    location = path.join(base.home, location.slice(1));
  }
  return path.resolve(base.cwd, location);
}

/** A catalog name in its one spelling; the app's name the saved connection they go through. */
function catalogName(text: string): string {
  let name;
  try {
    name = parseCatalogName(text)!;
  } catch (err) {
    throw new DeltaportError('VALIDATION', `${(err as Error).message}.`);
  }
  if (name.connection === null)
    throw new DeltaportError(
      'VALIDATION',
      `"${text.slice(0, 200)}" names no catalog connection: write ${name.kind === 'unity' ? 'uc://<connection>/catalog.schema.table' : 'glue://<connection>/database/table'}.`,
    );
  return catalogNameText(name);
}
