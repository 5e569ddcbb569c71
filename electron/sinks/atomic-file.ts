// A file written beside its target as PATH.partial-<pid>-<random> and renamed into place only when complete, so that
// a failed or cancelled export leaves neither a file at PATH nor a partial file. A process killed mid-way cannot
// clean up: the next export to the same target removes the partial files of processes that no longer run (the
// process id in the name says whose a file is). A target in a bucket is written to a local temporary file the same
// way, then uploaded in one upload that the store shows only once complete (storage.ts upload).
import { randomBytes } from 'node:crypto';
import { readdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeltaportError } from '../../shared/errors.js';
import { canonicalLocation, isCloudLocation, locationName, type StorageResolver } from '../storage/storage.js';
import { uploadFile } from '../storage/target-files.js';
import { processRuns } from './process-runs.js';
import { requireOutputFile } from './output-folder.js';

/** The local path whose partial files hold a target's rows while they are written: the target itself, or for a
 * target in a bucket a file of that name in the temporary folder. */
export function localTargetFor(target: string): string {
  return isCloudLocation(target)
    ? path.join(tmpdir(), `deltaport-upload-${locationName(canonicalLocation(target))}`)
    : path.resolve(target);
}

/** PATH.partial-<pid>-<12 hex digits>: the name a partial file of this process takes beside its target. */
export function partialPathFor(absoluteTarget: string): string {
  return `${absoluteTarget}${PARTIAL_MARK}${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** Whether `name` (a file name in the target's folder) is a partial file of the target named `targetName`. */
export function isPartialOf(name: string, targetName: string): boolean {
  return partialOwner(name, targetName) !== null;
}

/** The process id in the name of a partial file of `targetName`, or null when `name` is not one. */
function partialOwner(name: string, targetName: string): number | null {
  if (!name.startsWith(targetName)) return null;
  const match = PARTIAL_SUFFIX.exec(name.slice(targetName.length));
  return match ? Number(match[1]) : null;
}

const PARTIAL_MARK = '.partial-';
const PARTIAL_SUFFIX = /^\.partial-(\d{1,10})-[0-9a-f]{12}$/;

/** Removes the partial files of `absoluteTarget` whose process has ended (killed before it could clean up); returns
 * their paths. Partial files of running processes, this one included, are theirs to finish or remove. */
export async function sweepStalePartials(absoluteTarget: string): Promise<string[]> {
  const folder = path.dirname(absoluteTarget);
  const base = path.basename(absoluteTarget);
  const names = await readdir(folder).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = partialOwner(name, base);
    return pid !== null && !processRuns(pid);
  });
  const paths = stale.map((name) => path.join(folder, name));
  await Promise.all(paths.map((file) => rm(file, { force: true })));
  return paths;
}

export class AtomicFile {
  private constructor(
    readonly target: string,
    readonly partialPath: string,
    private handle: FileHandle | null,
    private readonly storage: StorageResolver,
  ) {}

  /** `storage`: where a target in a bucket is uploaded to (the export's engine's storage). */
  static async create(target: string, storage: StorageResolver): Promise<AtomicFile> {
    if (isCloudLocation(target)) {
      const location = canonicalLocation(target);
      await sweepStalePartials(localTargetFor(location));
      const partialPath = partialPathFor(localTargetFor(location));
      try {
        return new AtomicFile(location, partialPath, await open(partialPath, 'wx'), storage);
      } catch (err) {
        throw writeError(partialPath, err);
      }
    }
    const absolute = requireOutputFile(target);
    await sweepStalePartials(absolute);
    const partialPath = partialPathFor(absolute);
    try {
      return new AtomicFile(absolute, partialPath, await open(partialPath, 'wx'), storage);
    } catch (err) {
      throw writeError(partialPath, err);
    }
  }

  async write(data: string | Uint8Array): Promise<void> {
    if (!this.handle) throw new DeltaportError('INTERNAL', `${this.target} is already closed`);
    try {
      if (typeof data === 'string') await this.handle.write(data, null, 'utf8');
      else await this.handle.write(data);
    } catch (err) {
      throw writeError(this.partialPath, err);
    }
  }

  /** Flushes, closes and renames the file into place (replacing an older file at the target), or uploads it. */
  async commit(): Promise<void> {
    const handle = this.takeHandle();
    try {
      await handle.sync();
      await handle.close();
      if (isCloudLocation(this.target)) await uploadFile(this.storage, this.partialPath, this.target);
      else await rename(this.partialPath, this.target);
    } catch (err) {
      if (err instanceof DeltaportError) throw err;
      throw writeError(this.target, err);
    } finally {
      await rm(this.partialPath, { force: true });
    }
  }

  /** Closes and removes the partial file; safe to call more than once and after commit. */
  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (!handle) return;
    await handle.close().catch(() => undefined);
    await rm(this.partialPath, { force: true });
  }

  private takeHandle(): FileHandle {
    const handle = this.handle;
    if (!handle) throw new DeltaportError('INTERNAL', `${this.target} is already closed`);
    this.handle = null;
    return handle;
  }
}

function writeError(file: string, err: unknown): DeltaportError {
  const { code, message } = err as NodeJS.ErrnoException;
  const reason = code === 'ENOSPC' ? 'the disk is full' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : message;
  return new DeltaportError('SINK_WRITE', `cannot write ${file}: ${String(reason).split('\n')[0]}`);
}
