// The built-in sample: a small Delta table with a few versions (assets/sample-sales, made by
// test/support/delta-writer/sample-table.ts), copied into the data folder on first run so that a new user has
// something to open at once. An existing copy is kept.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseJsonActions } from '../delta/log/commit-file.js';
import { setModificationTime } from './modification-time.js';
import { packageRoot } from './package-root.js';

const SAMPLE_TABLE_NAME = 'sample-sales';
const COMMIT_FILE = /^\d{20}\.json$/;

/** Answers the sample's path; the first call copies it when missing, later calls share that result. */
export function sampleTableProvider(dataDir: string): () => Promise<string> {
  let pending: Promise<string> | null = null;
  return () => {
    if (!pending) {
      pending = copySampleTable(path.join(packageRoot(), 'assets', SAMPLE_TABLE_NAME), dataDir);
      pending.catch(() => (pending = null));
    }
    return pending;
  };
}

/** The copy is made in a sibling folder and renamed into place, so an interrupted run never leaves half a sample. */
async function copySampleTable(from: string, dataDir: string): Promise<string> {
  const target = path.join(dataDir, SAMPLE_TABLE_NAME);
  if (await exists(path.join(target, '_delta_log'))) return target;
  await fs.mkdir(dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(dataDir, `.${SAMPLE_TABLE_NAME}-`));
  try {
    await fs.cp(from, staging, { recursive: true });
    await restoreCommitTimes(path.join(staging, '_delta_log'));
    await fs.rename(staging, target);
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    // Another caller may have finished first; its sample is as good as ours.
    if (await exists(path.join(target, '_delta_log'))) return target;
    throw err;
  }
  return target;
}

/** Timestamp time travel reads the commit files' modification times, which neither git nor an installer keeps: each
 * is set again from its commit's recorded time (the commits are a day apart). */
async function restoreCommitTimes(logDir: string): Promise<void> {
  for (const name of (await fs.readdir(logDir)).filter((n) => COMMIT_FILE.test(n))) {
    const file = path.join(logDir, name);
    const timestamp = parseJsonActions(await fs.readFile(file, 'utf8'), file).find((a) => a.commitInfo)?.commitInfo?.timestamp;
    if (timestamp === undefined) throw new Error(`the sample's ${name} has no commit time`);
    await setModificationTime(file, timestamp);
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
