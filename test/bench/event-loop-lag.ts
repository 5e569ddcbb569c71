// The main thread's responsiveness while the app works: during an export through the app's own job runner, and while
// the API service (the one both hosts use) opens a long log, lists its history and travels to a timestamp. The main
// thread's event-loop delay is sampled the whole time.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ExportRequest, JobInfo } from '../../shared/api.js';
import { createApiService } from '../../electron/app/api-service.js';
import { JobRunner } from '../../electron/jobs/job-runner.js';
import { AppState } from '../../electron/state/app-state.js';
import { resultValue } from '../support/app-state-helpers.js';
import { StorageConnections } from '../../electron/app/storage-connections.js';
import { localEngine } from '../support/task-tables.js';

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
  const runner = new JobRunner({ store: memoryStore(history), engine: localEngine });
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

function memoryStore(history: JobInfo[]) {
  return { recordJob: (job: JobInfo) => void history.push(job), jobHistory: () => [], unfinishedJobs: () => [] };
}

/**
 * Lag while the app opens a table it has not read before (a long log), shows its history and resolves a timestamp,
 * each call made as the window makes it. `expected` checks the answers: the latest version and the middle one.
 */
export async function openLag(
  tablePath: string,
  stateDir: string,
  timestamp: string,
  expected: { latest: number; atTimestamp: number },
): Promise<Omit<LagResult, 'job' | 'idleP99Ms'>> {
  const state = AppState.open(path.join(stateDir, 'bench-state.db'), { encryptor: null });
  const jobs = new JobRunner({ store: memoryStore([]), engine: localEngine });
  const connections = new StorageConnections(state);
  const api = createApiService({
    state,
    jobs,
    connections,
    sampleTable: () => Promise.reject(new Error('no sample in the benchmark')),
    sqlTempDirectory: path.join(stateDir, 'sql-temp'),
  });
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const info = resultValue(await api.openTable({ path: tablePath }));
    if (info.version !== expected.latest) throw new Error(`opened version ${info.version}, not ${expected.latest}`);
    const commits = resultValue(await api.history({ path: tablePath }));
    if (commits.length !== expected.latest + 1) throw new Error(`history listed ${commits.length} commits`);
    const resolved = resultValue(await api.resolveVersion({ path: tablePath, timestampAsOf: timestamp }));
    if (resolved.version !== expected.atTimestamp) throw new Error(`the timestamp resolved to version ${resolved.version}`);
    return { p99Ms: histogram.percentile(99) / 1e6, maxMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
    state.close();
  }
}
