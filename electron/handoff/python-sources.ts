// The fixed Python of a Spark job, kept as real .py files in python/ (checked by python-sources.test.ts with
// py_compile and ruff) and read as text when a job is written. They are found from this module's own location, one
// folder below electron/ in the sources and in tsc's output, and one folder below dist/electron/ in the bundles
// (bundle.config.ts puts every chunk there and copies python/ into dist/electron/handoff/), as start-worker.ts finds
// the worker entries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pythonFolder = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'handoff', 'python');

/** The Python files of a job: its session, read and landing, and the text helpers of a CSV or JSON Lines job. */
export type PythonSource = 'spark_job.py' | 'spark_text_helpers.py';

/** A file's text without its last newline, as one part of a job's script. */
export function pythonSource(name: PythonSource): string {
  return readFileSync(path.join(pythonFolder, name), 'utf8').replace(/\n$/, '');
}
