// The main thread's responsiveness while the app runs an export: the export goes through the app's own job runner
// (a worker thread), and the main thread's event-loop delay is sampled the whole time.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ExportRequest, JobInfo } from '../../shared/api.js';
import { JobRunner } from '../../electron/jobs/job-runner.js';

export interface LagResult {
  p99Ms: number;
  maxMs: number;
  /** p99 over a quiet spell just before, with nothing running: the machine's own floor. */
  idleP99Ms: number;
  job: JobInfo;
}

const IDLE_SAMPLE_MS = 2_000;

async function idleLagP99(): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
  histogram.disable();
  return histogram.percentile(99) / 1e6;
}

export async function exportLag(request: ExportRequest): Promise<LagResult> {
  const idleP99Ms = await idleLagP99();
  const history: JobInfo[] = [];
  const runner = new JobRunner({ store: { recordJob: (job) => void history.push(job), jobHistory: () => [], unfinishedJobs: () => [] } });
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const { id } = runner.start(request);
    const job = await runner.wait(id);
    if (job.state !== 'succeeded') throw new Error(`the export job ${job.state}: ${job.error?.message ?? 'no message'}`);
    return { p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6, idleP99Ms, job };
  } finally {
    histogram.disable();
  }
}
