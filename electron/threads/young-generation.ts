// How large V8's young generation may grow in a thread that exports. V8 lets each semi-space grow to 16 MB, and an
// export's steady stream of short-lived objects (Arrow views, CSV text, COPY chunks) makes it do so and keep them,
// though the rows themselves live in ArrayBuffers outside the heap. At 4 MB per semi-space the CLI's export of the
// benchmark's 2M-row table (20 files of 100k rows) peaked ~20 MB lower (CSV 222 -> 200 MB, Parquet 279 -> 257 MB)
// at the same CPU time; at 1 MB it promoted more to the old generation and took ~30% more CPU.
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

const SEMI_SPACE_MB = 4;

/** For a worker's resourceLimits.maxYoungGenerationSizeMb: V8 counts two semi-spaces and the young large objects. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;

/** Caps the young generation of this thread, already started (the CLI runs its export on the main thread).
 * Its size limit is fixed when the heap is made, but V8 reads the growth factor each time the young generation
 * grows: once it has reached the cap, a factor of 1 stops it there. */
export function capYoungGeneration(): void {
  const observer = new PerformanceObserver(() => {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (!young || young.space_size < 2 * SEMI_SPACE_MB * 2 ** 20) return;
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}
