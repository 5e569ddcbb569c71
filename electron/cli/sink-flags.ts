// The flags that say where and how an export writes, apart from the export itself: `sql` parses them without loading
// the export's code, which it needs only with --sink.
/** The CSV sink's style, each flag a field of its spec (checked there). */
export const CSV_FLAGS = {
  'csv-delimiter': 'value',
  'csv-quote': 'value',
  'csv-header': 'value',
  'csv-null': 'value',
  'csv-line-ending': 'value',
} as const;

/** The flags that say where and how to write, for every command that exports (export, diff, changes). */
export const SINK_FLAGS = {
  sink: 'value',
  target: 'value',
  mode: 'value',
  key: 'value',
  sql: 'value',
  'batch-size': 'value',
  'batch-interval-ms': 'value',
  'max-retries': 'value',
  'exactly-once': 'switch',
  force: 'switch',
  'statement-timeout-ms': 'value',
  connections: 'value',
  ...CSV_FLAGS,
} as const;
