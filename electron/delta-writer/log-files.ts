// The files of _delta_log: newline-delimited JSON commits, written put-if-absent, with their modification time set
// to the commit time (readers without in-commit timestamps resolve time travel from it).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Action } from '../delta/actions.js';
import { DeltaportError } from '../../shared/errors.js';

export function logDir(tableRoot: string): string {
  return path.join(tableRoot, '_delta_log');
}

export function versionPrefix(version: number): string {
  return String(version).padStart(20, '0');
}

export async function writeCommit(
  tableRoot: string,
  version: number,
  actions: Action[],
  timestampMs: number,
): Promise<void> {
  const file = path.join(logDir(tableRoot), `${versionPrefix(version)}.json`);
  const text = actions.map((a) => JSON.stringify(a)).join('\n') + '\n';
  try {
    await fs.writeFile(file, text, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new DeltaportError('SINK_WRITE', `commit ${version} already exists in ${logDir(tableRoot)}`);
    }
    throw err;
  }
  await setModificationTime(file, timestampMs);
}

/**
 * Sets a file's mtime so that readers, which floor it to whole milliseconds as Hadoop does, see `timestampMs`.
 * utimes takes float seconds, which cannot hold every millisecond exactly; aiming half a millisecond in keeps the
 * rounding error (well under a microsecond) from falling into the millisecond before.
 */
export async function setModificationTime(file: string, timestampMs: number): Promise<void> {
  const seconds = (timestampMs + 0.5) / 1000;
  await fs.utimes(file, seconds, seconds);
}
