/** The line report-usage.ts writes to a child's stderr at exit: this marker, then JSON of ChildUsage. */
export const USAGE_MARKER = '__deltaport_bench_usage=';

export interface ChildUsage {
  maxRssKb: number;
  /** User plus system CPU time, microseconds: on a busy machine, what the process itself cost. */
  cpuMicros: number;
}
