// A snapshot is the table's state at one version: the result of replaying its log (see table.ts).
import type { StructType } from '../../shared/delta-schema.js';
import type { AddFile, Metadata, Protocol } from './log/actions.js';

export interface LiveFile {
  add: AddFile;
  /** Absolute local path of the data file, decoded from add.path. */
  absolutePath: string;
}

export interface Snapshot {
  /** Absolute path of the table folder. */
  tableRoot: string;
  version: number;
  protocol: Protocol;
  metadata: Metadata;
  schema: StructType;
  partitionColumns: string[];
  /** Live data files, sorted by absolutePath so that a scan's order (and so a resume position) is stable. */
  files: LiveFile[];
}
