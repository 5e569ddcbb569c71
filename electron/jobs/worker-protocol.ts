// Messages between the job runner (main thread) and a job's worker thread.
import type { ExportRequest, PreviewRequest } from '../../shared/api.js';
import type { ErrorValue } from '../../shared/errors.js';
import type { RawProgress } from './progress.js';

export type WorkerTask =
  | { kind: 'export'; request: ExportRequest }
  | { kind: 'plan'; request: ExportRequest }
  | { kind: 'preview'; request: PreviewRequest };

export type ToWorker = { type: 'cancel' };

export type FromWorker =
  | { type: 'progress'; progress: RawProgress }
  | { type: 'done'; value: unknown }
  | { type: 'failed'; error: ErrorValue };
