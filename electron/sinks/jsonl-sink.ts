// JSON Lines files (line-formats.ts JSONL_FORMAT).
import { JSONL_FORMAT } from './line-formats.js';
import type { StorageResolver } from '../storage/storage.js';
import type { BatchSink } from './sink.js';
import { textFileSink } from './text-file-sink.js';

export function createJsonlSink(target: string, storage: StorageResolver): BatchSink {
  return textFileSink(target, JSONL_FORMAT, storage);
}
