// The files of _delta_log: newline-delimited JSON commits, written put-if-absent, with their modification time set
// to the commit time (readers without in-commit timestamps resolve time travel from it).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Action } from '../../../electron/delta/log/actions.js';
import { setModificationTime } from '../../../electron/app/modification-time.js';
import { DeltaportError } from '../../../shared/errors.js';

export function logDir(tableRoot: string): string {
  return path.join(tableRoot, '_delta_log');
}

export function versionPrefix(version: number): string {
  return String(version).padStart(20, '0');
}

export async function writeCommit(tableRoot: string, version: number, actions: Action[], timestampMs: number): Promise<void> {
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
