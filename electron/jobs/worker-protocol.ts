// Messages between the main thread and a task worker. A worker runs any number of tasks, each under its own id: an
// export job gets a worker of its own (so a cancel can always end it by terminating the thread), while previews and
// plans share one long-lived worker so that they do not pay for a thread start and module loading each time.
import type { ChangeRowsRequest, ExportRequest, PreviewRequest, ProfileRequest } from '../../shared/api.js';
import type { ErrorValue } from '../../shared/errors.js';
import type { RawProgress } from './progress.js';

export type WorkerTask =
  | { kind: 'export'; request: ExportRequest }
  | { kind: 'plan'; request: ExportRequest }
  | { kind: 'preview'; request: PreviewRequest }
  | { kind: 'profile'; request: ProfileRequest }
  | { kind: 'diff'; request: ChangeRowsRequest }
  | { kind: 'changes'; request: ChangeRowsRequest };

export type ToWorker = { type: 'run'; id: number; task: WorkerTask } | { type: 'cancel'; id: number };

export type FromWorker =
  | { type: 'progress'; id: number; progress: RawProgress }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: ErrorValue };
