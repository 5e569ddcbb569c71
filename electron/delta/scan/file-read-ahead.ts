// A scan of a table in an object store reads ahead: while the decoder works on one data file, the next is fetched
// whole (storage/read-ahead.ts), so that the scan never waits on a GET it could have started earlier. Only where the
// scan reads every row (no limit: a preview stops early) and every column of the files (else most of a fetched file
// would go unread), and only as much as READ_AHEAD_BYTES holds: a file too large for it is read as without it. A
// local file is not: a disk answers at once, and a copy held would only cost memory.
import { ReadAhead } from '../../storage/read-ahead.js';
import { isCloudLocation } from '../../storage/storage.js';
import type { EngineContext } from '../engine/engine-context.js';
import type { Snapshot } from '../snapshot.js';
import type { FilePlan } from './scan-plan.js';

/** Bounds what a scan holds fetched ahead: the file being decoded and the next, for the 1-10 MB files of a usual table. */
export const READ_AHEAD_BYTES = 32 << 20;

export interface FileReadAhead {
  /** The scan's engine, whose storage serves the ranges fetched ahead. */
  engine: EngineContext;
  /** A file was planned (opened): fetches the one after it if this one is read whole. */
  planned(file: FilePlan): void;
  /** A file's reading ended: what was held of it is dropped. */
  done(file: FilePlan): void;
}

export function fileReadAhead(
  snapshot: Snapshot,
  engine: EngineContext,
  limit: number,
  boundBytes = READ_AHEAD_BYTES,
): FileReadAhead | null {
  if (limit !== Infinity || !isCloudLocation(snapshot.tableRoot)) return null;
  const ahead = new ReadAhead(boundBytes);
  return {
    engine: { storage: (location) => ahead.through(engine.storage(location)), settings: () => engine.settings() },
    planned(file) {
      const next = snapshot.files[file.fileIndex + 1];
      if (!next || file.columns.length < file.handle.schema.fields.length) return;
      ahead.fetch(engine.storage(next.absolutePath), next.absolutePath, 0, next.add.size);
    },
    done(file) {
      ahead.release(file.file.absolutePath);
    },
  };
}
