// A scan of a table in an object store reads ahead: while the decoder works on one data file, the next is fetched
// whole (storage/read-ahead.ts), so that the scan never waits on a GET it could have started earlier. Small files go
// through the decoder faster than a GET's first byte comes (tens of milliseconds in a bucket), so several of them are
// on their way at once (AheadLimits). The scan's first file is fetched whole too, before its footer is read: read in
// parts, it would cost a round trip for the footer's end, one for the footer, and one or more for its columns. Only
// where the scan reads every row (no limit: a preview stops early) and every column of the files (else most of a
// fetched file would go unread), and only as much as its bound holds: a file too large for it is read as without it.
// A local file is not: a disk answers at once, and a copy held would only cost memory.
import { ReadAhead } from '../../storage/read-ahead.js';
import { isCloudLocation } from '../../storage/storage.js';
import type { EngineContext } from '../engine/engine-context.js';
import type { Snapshot } from '../snapshot.js';
import type { FilePlan } from './scan-plan.js';

/** How far a scan reads ahead. */
export interface AheadLimits {
  /** What it holds at most: the file being decoded and the next, for the 1-10 MB files of a usual table. */
  boundBytes: number;
  /** Files after the next are fetched only while what is held stays within this: many small files, never a second
   * large one. */
  depthBytes: number;
  /** Files on their way at most, the one being decoded aside. */
  files: number;
}

const AHEAD_LIMITS: AheadLimits = { boundBytes: 32 << 20, depthBytes: 8 << 20, files: 8 };

export interface FileReadAhead {
  /** The scan's engine, whose storage serves the ranges fetched ahead. */
  engine: EngineContext;
  /** The scan starts at this file: if it reads every column of the table, the file is fetched whole now. Alone: the
   * files after it wait until it is open, so a scan cancelled during its first read has asked for no other file. */
  starting(fileIndex: number, everyColumn: boolean): void;
  /** A file was planned (opened): fetches the files after it if this one is read whole. */
  planned(file: FilePlan): void;
  /** A file's reading ended: what was held of it is dropped. */
  done(file: FilePlan): void;
}

export function fileReadAhead(snapshot: Snapshot, engine: EngineContext, limit: number, limits = AHEAD_LIMITS): FileReadAhead | null {
  if (limit !== Infinity || !isCloudLocation(snapshot.tableRoot)) return null;
  const ahead = new ReadAhead(limits.boundBytes);
  /** The first file not fetched yet. */
  let unfetched = 0;
  /** Fetches `first` (always, if the bound holds it), then the files after it while they fit the limits: `files` in
   * all at most. */
  const fetchFrom = (first: number, files: number): void => {
    const last = Math.min(snapshot.files.length - 1, first - 1 + files);
    for (let i = Math.max(unfetched, first); i <= last; i++) {
      const { absolutePath, add } = snapshot.files[i];
      if (i > first && ahead.bytesHeld + add.size > limits.depthBytes) return;
      if (!ahead.fetch(engine.storage(absolutePath), absolutePath, 0, add.size)) return;
      unfetched = i + 1;
    }
  };
  return {
    engine: { storage: (location) => ahead.through(engine.storage(location)), settings: () => engine.settings() },
    starting(fileIndex, everyColumn) {
      if (everyColumn) fetchFrom(fileIndex, 1);
    },
    planned(file) {
      if (file.columns.length < file.handle.schema.fields.length) return;
      fetchFrom(file.fileIndex + 1, limits.files);
    },
    done(file) {
      ahead.release(file.file.absolutePath);
    },
  };
}
