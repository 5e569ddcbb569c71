// Readers of a Delta table without in-commit timestamps resolve time travel from the commit files' modification times.
import { utimes } from 'node:fs/promises';

/**
 * Sets a file's mtime so that readers, which floor it to whole milliseconds as Hadoop does, see `timestampMs`.
 * utimes takes float seconds, which cannot hold every millisecond exactly; aiming half a millisecond in keeps the
 * rounding error (well under a microsecond) from falling into the millisecond before.
 */
export async function setModificationTime(file: string, timestampMs: number): Promise<void> {
  const seconds = (timestampMs + 0.5) / 1000;
  await utimes(file, seconds, seconds);
}
