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
