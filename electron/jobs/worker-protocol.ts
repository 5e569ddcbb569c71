// Messages between the main thread and a task worker. A worker runs any number of tasks, each under its own id: an
// export job gets a worker of its own (so a cancel can always end it by terminating the thread), while previews and
// plans, like the table reads behind the window, share one long-lived worker so that they do not pay for a thread
// start and module loading each time, and find the tables it has already read.
import type { ChangeRowsRequest, DiffRequest, ExportRequest, PreviewRequest, ProfileRequest, TableRef } from '../../shared/api.js';
import type { RowsSourceSpec } from '../../shared/change-source.js';
import type { ErrorValue } from '../../shared/errors.js';
import type { EngineSettings } from '../delta/engine/engine-context.js';
import type { RawProgress } from './progress.js';

export type WorkerTask =
  | { kind: 'export'; request: ExportRequest }
  | { kind: 'plan'; request: ExportRequest }
  | { kind: 'preview'; request: PreviewRequest }
  | { kind: 'open'; request: TableRef }
  | { kind: 'history'; request: { path: string; limit?: number } }
  | { kind: 'resolve'; request: TableRef }
  | { kind: 'latest'; request: { path: string } }
  | { kind: 'profile'; request: ProfileRequest }
  | { kind: 'partitions'; request: TableRef }
  | { kind: 'diff'; request: DiffRequest }
  | { kind: 'changes'; request: ChangeRowsRequest }
  | { kind: 'checkChanges'; request: RowsSourceSpec }
  | { kind: 'ledger'; request: ExportRequest };

/** What a task worker is started with: the settings of the engine its tasks read through, as data (it makes the
 * same engine, with clients of its own). */
export interface WorkerStart {
  engine: EngineSettings;
}

/** engine: the settings changed (a storage connection saved or deleted); tasks sent after it read through them. */
export type ToWorker =
  { type: 'run'; id: number; task: WorkerTask } | { type: 'cancel'; id: number } | { type: 'engine'; settings: EngineSettings };

export type FromWorker =
  | { type: 'progress'; id: number; progress: RawProgress }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: ErrorValue };
