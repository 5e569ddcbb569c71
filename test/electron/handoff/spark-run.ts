// Running generated Spark jobs in Spark local mode, for the hand-off's tests: whether Spark can run here, the
// settings that make it bearable on two busy cores, and the runner that puts every job of a test file into one JVM.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { SPARK_PACKAGES } from '../../../electron/handoff/spark-job.js';

/** Why Spark cannot run here, or null when Java, pyspark and delta-spark are present. */
export function sparkMissing(): string | null {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return 'Java is not installed';
  const python = spawnSync('python3', ['-c', 'import pyspark, delta'], { encoding: 'utf8' });
  if (python.error || python.status !== 0)
    return 'pyspark and delta-spark are not installed (pip install "pyspark==4.0.*" delta-spark==4.0.0)';
  return null;
}

// Jobs take 20 to 100 s each on two busy cores; a timeout is not a measurement.
export const SPARK_TIMEOUT_MS = 1_200_000;

// Settings for tiny tables on two busy cores come from outside the job, as a cluster's would: the scripts run
// unchanged. Little JIT compiling, no code generation and no adaptive re-planning took three jobs from 214 s to 130 s.
const JAVA_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
const SPARK_CONFS = [
  'spark.sql.shuffle.partitions=2',
  'spark.databricks.delta.snapshotPartitions=2',
  'spark.sql.codegen.wholeStage=false',
  'spark.sql.adaptive.enabled=false',
  'spark.ui.enabled=false',
  'spark.ui.showConsoleProgress=false',
];
export const SUBMIT_SETTINGS = [
  '--master',
  'local[2]',
  '--driver-java-options',
  JAVA_OPTIONS,
  ...SPARK_CONFS.flatMap((conf) => ['--conf', conf]),
];
/** PYSPARK_SUBMIT_ARGS is split like a shell line. */
export function quoteArg(arg: string): string {
  return arg.includes(' ') ? `'${arg}'` : arg;
}

// The jobs share one JVM, whose class path is fixed when it starts: it gets every job's packages at once.
const SPARK_ENV = {
  PYSPARK_SUBMIT_ARGS: [...SUBMIT_SETTINGS.map(quoteArg), '--packages', Object.values(SPARK_PACKAGES).join(','), 'pyspark-shell'].join(' '),
};

export interface JobResult {
  ok: boolean;
  error?: string;
  seconds: number;
}

/** Runs the jobs one after another in one Python process (run-jobs.py): each job's result, in order, and the tail of
 * Spark's log. */
export async function runSparkJobs(jobs: string[], env: Record<string, string>): Promise<{ results: JobResult[]; log: string }> {
  const run = await runProcess('python3', [path.join(import.meta.dirname, 'run-jobs.py'), ...jobs], { ...SPARK_ENV, ...env });
  const lines = run.stdout.split('\n').filter((l) => l.startsWith('DELTAPORT-JOB '));
  const results = lines.map((line) => JSON.parse(line.slice('DELTAPORT-JOB '.length)) as JobResult);
  for (const [i, result] of results.entries()) {
    console.info(`Spark job ${i + 1} of ${jobs.length}: ${result.ok ? 'ok' : 'failed'} in ${result.seconds} s`);
  }
  if (results.length !== jobs.length)
    throw new Error(`the Spark runner ended after ${results.length} of ${jobs.length} jobs: ${run.stderr.slice(-3000)}`);
  return { results, log: run.stderr };
}

export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Spark logs a lot; the tail says why a job failed.
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-200_000)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
