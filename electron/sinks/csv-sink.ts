// CSV files, in the export's style (line-formats.ts csvFormat).
import type { CsvStyle } from '../../shared/csv-style.js';
import { csvFormat } from './line-formats.js';
import type { StorageResolver } from '../storage/storage.js';
import type { BatchSink } from './sink.js';
import { textFileSink } from './text-file-sink.js';

export function createCsvSink(target: string, style: CsvStyle, storage: StorageResolver): BatchSink {
  return textFileSink(target, csvFormat(style), storage);
}
