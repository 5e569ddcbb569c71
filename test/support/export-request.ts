// An export as the app's job and the CLI's export command run one: the request's source opened (export/open-rows.ts),
// then runExport with the request's sink. Tests of the whole export path call this.
import type { ExportOutcome } from '../../shared/api.js';
import type { ExportSource } from '../../shared/change-source.js';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { openRows } from '../../electron/export/open-rows.js';
import { runExport, type ExportOptions } from '../../electron/export/run-export.js';
import type { StorageResolver } from '../../electron/storage/storage.js';
import { localReads, openLocal } from './task-tables.js';

export interface ExportRequest extends Omit<ExportOptions, 'storage'> {
  /** Where a file target is written: the local disk when absent. */
  storage?: StorageResolver;
  source: ExportSource;
  sink: SinkSpec;
}

export async function exportRequest(req: ExportRequest): Promise<ExportOutcome> {
  return runExport(await openRows(req.source, { measure: true, openTable: openLocal }), req.sink, {
    ...req,
    storage: req.storage ?? localReads.storage,
  });
}
