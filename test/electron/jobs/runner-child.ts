// The app's job runner in its own process, so that a test can kill it with SIGKILL mid-export as a user's machine
// might. The state file comes in DELTAPORT_CHILD_STATE, the request as JSON in DELTAPORT_CHILD_EXPORT; it prints
// "job ID" once, then "committed N" with each report of the rows committed.
import type { ExportRequest } from '../../../shared/api.js';
import { JobRunner } from '../../../electron/jobs/job-runner.js';
import { AppState } from '../../../electron/state/app-state.js';
import { localEngine } from '../../support/task-tables.js';

const state = AppState.open(process.env.DELTAPORT_CHILD_STATE!, { encryptor: null });
const runner = new JobRunner({ store: state, engine: localEngine });
const job = runner.start(JSON.parse(process.env.DELTAPORT_CHILD_EXPORT!) as ExportRequest);
process.stdout.write(`job ${job.id}\n`);
runner.onJobEvent(({ job: j }) => process.stdout.write(`committed ${j.progress.committedRows ?? 0} rows ${j.progress.rows}\n`));
await runner.wait(job.id);
