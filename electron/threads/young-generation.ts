// How large V8's young generation may grow where an export runs: the CLI's main thread (its executable's first line,
// bundle.config.ts) and the app's export threads (jobs/task-worker.ts). V8 lets each semi-space grow to 16 MB and
// keeps them, and they grew as an export went on, though its rows live outside the heap, in ArrayBuffers. At 4 MB per
// semi-space, whole processes in turn (docs/benchmark.md, "the young generation of exports"): the 50M-row export to
// SQLite peaked at 202 instead of 252 MiB, the 2M-row exports 2-9% lower (SQLite, PostgreSQL, Parquet, CSV), all at
// 0.93-1.04x the CPU time of V8's default.

/** Megabytes per semi-space, for node's --max-semi-space-size. */
export const SEMI_SPACE_MB = 4;

/** For a worker's resourceLimits.maxYoungGenerationSizeMb: V8 counts two semi-spaces and the young large objects. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;
