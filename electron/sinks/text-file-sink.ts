// The shared shape of the line-oriented file sinks (CSV, JSON Lines): an optional header, then each batch turned
// into one string and appended to an AtomicFile.
import type { ScanBatch } from '../delta/scan/scan-types.js';
import type { StorageResolver } from '../storage/storage.js';
import { AtomicFile } from './atomic-file.js';
import type { BatchSink, SinkOpenContext } from './sink.js';

export interface TextFormat {
  header?(columnNames: string[]): string;
  /** The text of every row of the batch, each line ending in the format's line break. */
  body(batch: Pick<ScanBatch, 'batch'>): string;
}

export function textFileSink(target: string, format: TextFormat, storage: StorageResolver): BatchSink {
  let file: AtomicFile | null = null;
  return {
    async open(ctx: SinkOpenContext) {
      file = await AtomicFile.create(target, storage);
      if (format.header) await file.write(format.header(ctx.schema.fields.map((f) => f.name)));
      return null;
    },
    async write(batch: ScanBatch) {
      const text = format.body(batch);
      if (text) await file!.write(text);
    },
    async close() {
      await file!.commit();
    },
    async abort() {
      await file?.discard();
    },
  };
}
