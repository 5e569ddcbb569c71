// The live files of a benchmark table at a version, as the tests' independent log reader (test/support/delta-oracle.ts)
// replays them: the count that the reader's own skipping figures are checked against.
import { liveFiles } from '../support/delta-oracle.js';

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

export async function liveFilesFromLog(root: string, version: number): Promise<LoggedFile[]> {
  return (await liveFiles(root, version)).map((add) => {
    const stats = JSON.parse(add.stats ?? '{}') as Partial<Pick<LoggedFile, 'numRecords' | 'minValues' | 'maxValues'>>;
    return {
      path: decodeURIComponent(add.path as string),
      size: add.size as number,
      partitionValues: add.partitionValues as LoggedFile['partitionValues'],
      numRecords: stats.numRecords ?? 0,
      minValues: stats.minValues ?? {},
      maxValues: stats.maxValues ?? {},
      deleted: (add.deletionVector?.cardinality as number | undefined) ?? 0,
    };
  });
}

export const liveRowsOf = (files: LoggedFile[]) => files.reduce((n, f) => n + f.numRecords - f.deleted, 0);
export const bytesOf = (files: LoggedFile[]) => files.reduce((n, f) => n + f.size, 0);
