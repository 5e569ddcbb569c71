// A version whose data files are gone (VACUUM removed the files only older versions still used, or someone deleted
// them) cannot be read; the message says so and which versions still can, found by checking every readable
// version's file list against the disk. Only on that failure: it replays each version.
import { DeltaportError } from '../../shared/errors.js';
import { missingFile } from './errors.js';
import type { DeltaTable } from './table.js';

/** Versions checked for their files, newest first: enough for any usual time travel, bounded for huge logs. */
const MAX_VERSIONS_CHECKED = 500;

export async function missingDataError(table: DeltaTable, version: number, err: DeltaportError): Promise<DeltaportError> {
  const { earliest, latest } = await table.versionRange();
  const present = new Map<string, Promise<boolean>>();
  const exists = (file: string): Promise<boolean> => {
    let known = present.get(file);
    if (!known)
      present.set(
        file,
        (known = table.engine
          .storage(file)
          .stat(file)
          .then(
            () => true,
            () => false,
          )),
      );
    return known;
  };
  const readable: number[] = [];
  const oldest = Math.max(earliest, latest - MAX_VERSIONS_CHECKED + 1);
  for (let v = latest; v >= oldest; v--) {
    try {
      const { files } = await table.snapshot({ version: v });
      if ((await Promise.all(files.map((f) => exists(f.absolutePath)))).every(Boolean)) readable.unshift(v);
    } catch {
      // A version that cannot be replayed cannot be read either.
    }
  }
  const which =
    readable.length === 0
      ? `no version${oldest > earliest ? ` from ${oldest} on` : ''} has all its data files`
      : `${readable.length === 1 ? 'version' : 'versions'} ${versionRanges(readable)} can be read`;
  return missingFile(`version ${version}'s data files were removed, probably by VACUUM (${err.message}); ${which}`);
}

/** Ascending versions as ranges: [1, 3, 4, 5] -> "1, 3-5". */
export function versionRanges(versions: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < versions.length;) {
    let j = i;
    while (j + 1 < versions.length && versions[j + 1] === versions[j] + 1) j++;
    parts.push(i === j ? String(versions[i]) : `${versions[i]}-${versions[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
