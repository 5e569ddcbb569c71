// Which of the app's exports keep the exactly-once ledger in their target, and what Retry says when a job cannot
// resume from it. Every snapshot export into a SQL table keeps one, under its own job id: a Retry then resumes after
// the rows it committed, while a new export of the same rows starts afresh. The ledger (and not, say, PostgreSQL's
// transaction status) because it is one mechanism for every SQL sink, the one the CLI's --exactly-once already uses,
// and it also knows where in the snapshot a committed transaction ended.
import type { ExportRequest, JobInfo, RetryAnswer } from '../../shared/api.js';
import { isChangeSource, ledgerAlwaysKept } from '../../shared/change-source.js';
import { isSqlSink } from '../../shared/sink-spec.js';

/** The request as the app runs it: a snapshot export into a SQL table (other than with the user's own statement)
 * keeps the ledger under the job's id. */
export function withLedger(request: ExportRequest, jobId: string): ExportRequest {
  const { source, sink } = request;
  if (!isSqlSink(sink) || !ledgerAlwaysKept(source, sink.kind, sink.mode)) return request;
  return { ...request, sink: { ...sink, exactlyOnce: true, jobId } };
}

/** A job the app quit during: the next start marks it failed with a cancel's error (job-runner.ts), and what it had
 * committed was never reported. */
function quitDuring(job: JobInfo): boolean {
  return job.state === 'failed' && job.error?.code === 'CANCELLED';
}

/** Rows the stopped job left in its target, as its last report says; null when the app quit before it could say. A
 * job that failed before its sink reported anything left none. */
function rowsLeft(job: JobInfo): number | null {
  if (job.startedAt === null) return 0;
  return quitDuring(job) ? (job.progress.committedRows ?? null) : (job.progress.committedRows ?? 0);
}

/** Whether a stopped job surely left nothing in its target. */
export function leftNothing(job: JobInfo): boolean {
  return rowsLeft(job) === 0;
}

/** The question Retry puts when the job cannot resume; `ledgerGone` when it kept a ledger that is no longer there. */
export function retryQuestion(job: JobInfo, ledgerGone: boolean): RetryAnswer {
  const { source, sink } = job.request;
  const reason = ledgerGone
    ? "the target no longer holds this job's record of the rows it committed (the _deltaport_progress table or its row was removed)"
    : isChangeSource(source)
      ? source.rows === 'sql'
        ? "a query result's export cannot resume: it runs the query again and starts from its first row"
        : 'a diff or change-feed export cannot resume: it starts again from its first row'
      : isSqlSink(sink) && sink.mode === 'sql'
        ? 'an export through your own SQL statement keeps no record of the rows it committed, so it cannot resume'
        : 'this export kept no record of the rows it committed, so it cannot resume';
  return { ask: { reason, rowsInTarget: rowsLeft(job) } };
}
