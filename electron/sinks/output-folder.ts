// Every export that writes a file (CSV, JSON Lines, Parquet, a SQLite database) creates the file, never its folder:
// a missing folder is more likely a typo than a wish, and is named as what it is before anything is written.
import { statSync } from 'node:fs';
import path from 'node:path';
import { DeltaportError } from '../../shared/errors.js';

/** The folder of `target` (absolute); throws when it is not an existing folder. */
export function requireOutputFolder(target: string): string {
  const folder = path.dirname(path.resolve(target));
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new DeltaportError('SINK_WRITE', `the output folder does not exist: ${folder}`);
  return folder;
}

/** The file export `target` would write (absolute), checked as an export checks it before writing: its folder exists
 * and it is not itself a folder. The plan checks the same, so it never promises what the export then refuses. */
export function requireOutputFile(target: string): string {
  const absolute = path.resolve(target);
  requireOutputFolder(absolute);
  if (statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    throw new DeltaportError('SINK_WRITE', `${absolute} is a folder, not a file`);
  }
  return absolute;
}
