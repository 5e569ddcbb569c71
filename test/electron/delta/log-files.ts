// Names of _delta_log files and scratch folders for the reader's tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A version as log file names spell it: 20 digits. */
export const v = (version: number): string => String(version).padStart(20, '0');

/** A multi-part checkpoint's part number or part count: 10 digits. */
export const part = (n: number): string => String(n).padStart(10, '0');

/** Temporary folders made by one test file, removed together (call removeAll from afterEach). */
export function scratchFolders(prefix: string): { make(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(path.join(tmpdir(), `deltaport-${prefix}-`));
      made.push(dir);
      return dir;
    },
    removeAll() {
      made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    },
  };
}
