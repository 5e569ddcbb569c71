// The live files of a benchmark table at a version, replayed here from its JSON commits alone: the independent count
// that the reader's own skipping figures are checked against. The benchmark's tables are written with every commit
// kept as JSON, so no checkpoint is needed (or read).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Action, AddFile } from '../../electron/delta/actions.js';
import { logDir, versionPrefix } from '../support/delta-writer/log-files.js';

export interface LoggedFile {
  /** Relative to the table root, decoded ('/' separators). */
  path: string;
  size: number;
  partitionValues: Record<string, string | null>;
  numRecords: number;
  minValues: Record<string, unknown>;
  maxValues: Record<string, unknown>;
  /** Rows its deletion vector removes. */
  deleted: number;
}

export function liveFilesFromLog(root: string, version: number): LoggedFile[] {
  const live = new Map<string, AddFile>();
  for (let v = 0; v <= version; v++) {
    const text = readFileSync(path.join(logDir(root), `${versionPrefix(v)}.json`), 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const action = JSON.parse(line) as Action;
      if (action.remove) live.delete(action.remove.path);
      if (action.add) live.set(action.add.path, action.add);
    }
  }
  return [...live.values()].map((add) => {
    const stats = JSON.parse(add.stats ?? '{}') as Partial<Pick<LoggedFile, 'numRecords' | 'minValues' | 'maxValues'>>;
    return {
      path: decodeURIComponent(add.path),
      size: add.size,
      partitionValues: add.partitionValues,
      numRecords: stats.numRecords ?? 0,
      minValues: stats.minValues ?? {},
      maxValues: stats.maxValues ?? {},
      deleted: add.deletionVector?.cardinality ?? 0,
    };
  });
}

export const liveRowsOf = (files: LoggedFile[]) => files.reduce((n, f) => n + f.numRecords - f.deleted, 0);
export const bytesOf = (files: LoggedFile[]) => files.reduce((n, f) => n + f.size, 0);
