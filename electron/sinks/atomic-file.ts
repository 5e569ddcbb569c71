// A file written beside its target as PATH.partial-<random> and renamed into place only when complete, so that a
// failed or cancelled export leaves neither a file at PATH nor a partial file.
import { randomBytes } from 'node:crypto';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { DeltaportError } from '../../shared/errors.js';

/** PATH.partial-<12 hex digits>: the name a partial file takes beside its target. */
export function partialPathFor(absoluteTarget: string): string {
  return `${absoluteTarget}${PARTIAL_MARK}${randomBytes(6).toString('hex')}`;
}

/** Whether `name` (a file name in the target's folder) is a partial file of the target named `targetName`. */
export function isPartialOf(name: string, targetName: string): boolean {
  return name.startsWith(targetName) && PARTIAL_SUFFIX.test(name.slice(targetName.length));
}

const PARTIAL_MARK = '.partial-';
const PARTIAL_SUFFIX = /^\.partial-[0-9a-f]{12}$/;

export class AtomicFile {
  private constructor(
    readonly target: string,
    readonly partialPath: string,
    private handle: FileHandle | null,
  ) {}

  static async create(target: string): Promise<AtomicFile> {
    const absolute = path.resolve(target);
    const folder = path.dirname(absolute);
    const folderStat = await stat(folder).catch(() => null);
    if (!folderStat?.isDirectory()) throw new DeltaportError('SINK_WRITE', `the output folder does not exist: ${folder}`);
    if ((await stat(absolute).catch(() => null))?.isDirectory()) {
      throw new DeltaportError('SINK_WRITE', `${absolute} is a folder, not a file`);
    }
    const partialPath = partialPathFor(absolute);
    try {
      return new AtomicFile(absolute, partialPath, await open(partialPath, 'wx'));
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

  /** Flushes, closes and renames the file into place (replacing an older file at the target). */
  async commit(): Promise<void> {
    const handle = this.takeHandle();
    try {
      await handle.sync();
      await handle.close();
      await rename(this.partialPath, this.target);
    } catch (err) {
      await rm(this.partialPath, { force: true });
      throw writeError(this.target, err);
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
  const reason =
    code === 'ENOSPC' ? 'the disk is full' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : message;
  return new DeltaportError('SINK_WRITE', `cannot write ${file}: ${String(reason).split('\n')[0]}`);
}
