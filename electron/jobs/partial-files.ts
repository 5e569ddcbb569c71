// A file export writes PATH.partial-<pid>-<12 hex digits> beside its target (electron/sinks/atomic-file.ts) and removes it
// itself when it fails or is cancelled. A worker terminated because it did not stop in time never gets to, and its
// process (the app's) still runs, so the next export's sweep of dead processes' files would not take them: its job
// runner removes what it left.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isPartialOf, localTargetFor } from '../sinks/atomic-file.js';

/** Removes the partial files of exports to `target`; returns their paths. A missing folder has none. */
export async function removePartialFiles(target: string): Promise<string[]> {
  const absolute = localTargetFor(target);
  const folder = path.dirname(absolute);
  const base = path.basename(absolute);
  const names = await readdir(folder).catch(() => [] as string[]);
  const partials = names.filter((name) => isPartialOf(name, base)).map((name) => path.join(folder, name));
  await Promise.all(partials.map((file) => rm(file, { force: true })));
  return partials;
}
