// The app's API as main.ts and `deltaport serve` build it: the job runner and the API read through the same saved
// storage connections.
import type { DeltaportApi } from '../../shared/api.js';
import { createApiService, type ApiServiceDeps } from '../../electron/app/api-service.js';
import { StorageConnections } from '../../electron/app/storage-connections.js';
import { JobRunner, type JobRunnerOptions } from '../../electron/jobs/job-runner.js';
import type { AppState } from '../../electron/state/app-state.js';

export interface AppService {
  api: DeltaportApi;
  jobs: JobRunner;
  connections: StorageConnections;
}

export function appService(
  state: AppState,
  deps: Omit<ApiServiceDeps, 'state' | 'jobs' | 'connections'>,
  runner: Omit<JobRunnerOptions, 'store' | 'engine'> = {},
): AppService {
  const connections = new StorageConnections(state);
  const jobs = new JobRunner({ ...runner, store: state, engine: connections.settings });
  return { api: createApiService({ ...deps, state, jobs, connections }), jobs, connections };
}
