// Opening a long log, whole process, against delta-rs: a log that delta-rs (the `deltalake` package) wrote, with its
// own checkpoints (deltars-long-log.py), opened at its latest version and at its middle one (time travel by version)
// by `deltaport schema` and by delta-rs's `DeltaTable(path)` (files included, as `schema` counts them), in turn,
// ROUNDS times each. The log takes minutes to write (a commit per delta-rs call), so it is kept in the user's cache
// folder, outside the repository, and written again only when it is not complete there.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { TableInfo } from '../../shared/table-info.js';
import { resolveCacheDir } from '../../electron/state/data-dir.js';
import { runCli, runPython } from './child-run.js';
import type { Figure } from './report.js';

const CHECKPOINT_INTERVAL = 100;
const ROUNDS = 5;
const SCRIPT = 'deltars-long-log.py';
/** Written beside the table once delta-rs has written its last commit. */
const COMPLETE = 'complete';

export interface LongLogPeerFigures {
  commits: number;
  /** The version time travel opens. */
  middle: number;
  /** Medians of the rounds, whole process, ms. */
  latestMs: Figure;
  latestPeerMs: Figure;
  middleMs: Figure;
  middlePeerMs: Figure;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** The log of `commits` commits in the cache folder, written by delta-rs if it is not there yet and `write`. */
async function deltarsLog(commits: number, log: (line: string) => void, write: boolean): Promise<string> {
  const folder = path.join(resolveCacheDir(), 'bench', `deltars-long-log-${commits}`);
  const table = path.join(folder, 'table');
  if (!existsSync(path.join(folder, COMPLETE))) {
    if (!write) throw new Error(`not in the cache (${folder}): --write-scale-log writes it`);
    await fs.rm(folder, { recursive: true, force: true });
    await fs.mkdir(folder, { recursive: true });
    log(`writing a ${commits}-commit log with delta-rs into ${table} (kept for the next runs)`);
    const started = performance.now();
    await runPython(SCRIPT, ['write', table, String(commits), String(CHECKPOINT_INTERVAL)]);
    await fs.writeFile(path.join(folder, COMPLETE), '');
    log(`wrote it in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return table;
}

/** `write: false` measures the log only if the cache holds it (writing it takes too long to do unasked). */
export async function longLogPeerCase(
  commits: number,
  log: (line: string) => void,
  { write = true }: { write?: boolean } = {},
): Promise<LongLogPeerFigures> {
  const middle = Math.floor(commits / 2);
  const none = (error: string): LongLogPeerFigures => ({
    commits,
    middle,
    latestMs: { error },
    latestPeerMs: { error },
    middleMs: { error },
    middlePeerMs: { error },
  });
  let table: string;
  try {
    table = await deltarsLog(commits, log, write);
  } catch (err) {
    return none((err as Error).message.split('\n')[0]);
  }
  /** One version opened by both, in turn, each round; each checks what the other found. */
  const both = async (version: number | null): Promise<[Figure, Figure]> => {
    const ours: number[] = [];
    const theirs: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const flags = version === null ? [] : ['--version', String(version)];
        const deltaport = await runCli(['schema', table, '--json', ...flags]);
        const peer = await runPython(SCRIPT, ['open', table, ...(version === null ? [] : [String(version)])]);
        const info = JSON.parse(deltaport.stdout) as TableInfo;
        const found = JSON.parse(peer.stdout) as { version: number; files: number };
        const want = version ?? commits - 1;
        if (info.version !== want || found.version !== want || info.numFiles !== found.files) {
          throw new Error(
            `at version ${want}: Deltaport read version ${info.version} with ${info.numFiles} files, ` +
              `delta-rs version ${found.version} with ${found.files}`,
          );
        }
        ours.push(deltaport.ms);
        theirs.push(peer.ms);
      }
    } catch (err) {
      const error = (err as Error).message.split('\n')[0];
      return [{ error }, { error }];
    }
    return [{ value: median(ours) }, { value: median(theirs) }];
  };
  const [latestMs, latestPeerMs] = await both(null);
  const [middleMs, middlePeerMs] = await both(middle);
  for (const [name, f] of Object.entries({ latestMs, latestPeerMs, middleMs, middlePeerMs })) {
    log(`delta-rs long log (${commits} commits), ${name}: ${'value' in f ? f.value.toFixed(1) : f.error}`);
  }
  return { commits, middle, latestMs, latestPeerMs, middleMs, middlePeerMs };
}
