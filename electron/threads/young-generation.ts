// How large V8's young generation may grow in a worker thread that exports (the app's export jobs). V8 lets each
// semi-space grow to 16 MB and keeps them, and a young generation that large also keeps short-lived ArrayBuffers
// (decoded pieces, IPC copies, the writer's output) alive between its rarer collections, though the rows live
// outside the heap. At 4 MB per semi-space an export of the benchmark's 2M-row table (20 files of 100k rows) to
// Parquet peaked at 244 instead of 276 MB at the same user CPU time. Sinks that make JavaScript values of the rows pay
// for the cap with more collections and keep V8's default: CSV 215 -> 196 MB for 12% more CPU (8 MB semi-spaces:
// 204 MB, 5% more), PostgreSQL 224 -> 196 MB for 10% more, SQLite 234 -> 228 MB for 3% more. A thread's limit is
// fixed when it starts; the CLI exports on its main thread, which keeps the default (V8's flags are not meant to be
// changed once it runs).
import type { SinkKind } from '../../shared/sink-spec.js';

const SEMI_SPACE_MB = 4;

/** For a worker's resourceLimits.maxYoungGenerationSizeMb: V8 counts two semi-spaces and the young large objects. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;

/** Whether an export into this kind of sink runs with the young generation capped. */
export function capsYoungGeneration(sink: SinkKind): boolean {
  return sink === 'parquet';
}
