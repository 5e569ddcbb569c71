// Opening a long log, whole process, against delta-rs: a log that delta-rs (the `deltalake` package) wrote, with its
// own checkpoints (deltars-long-log.py), opened at its latest version and at its middle one (time travel by version,
// and by a timestamp between the middle commit's and the next one's) by `deltaport schema` and by delta-rs's
// `DeltaTable(path)` (files included, as `schema` counts them), in turn, ROUNDS times each; and the storage calls
// of Deltaport's open of the latest version in this process, against the files from the last checkpoint on. The log
// takes minutes to write (a commit per delta-rs call), so it is kept in the user's cache folder, outside the
// repository, and written only when it is not complete there (carried on where an interrupted writing stopped).
import { existsSync, promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import type { TableInfo } from '../../shared/table-info.js';
import { DeltaTable } from '../../electron/delta/table.js';
import { resolveCacheDir } from '../../electron/state/data-dir.js';
import { localReads } from '../support/task-tables.js';
import { runCli, runPython } from './child-run.js';
import { storageCalls } from './file-reads.js';
import { readsFromLastCheckpoint } from './object-store.js';
import type { Figure } from './report.js';

const CHECKPOINT_INTERVAL = 100;
const ROUNDS = 5;
const SCRIPT = 'deltars-long-log.py';
/** What deltars-long-log.py's `write` writes, in the name of the cache folder: a change to what it writes must
 * change this, so that no log of the old kind is measured as the new one. */
const GENERATOR = 2;
/** Written beside the table once delta-rs has written its last commit. */
const COMPLETE = 'complete';
/** The writing shares the machine with whatever else runs on it. */
const NICENESS = 10;

export interface LongLogPeerFigures {
  commits: number;
  /** Versions whose rows a retention delete keeps (deltars-long-log.py's RETAIN), or null for no such delete. */
  retain: number | null;
  /** The version time travel opens. */
  middle: number;
  /** Medians of the rounds, whole process, ms. */
  latestMs: Figure;
  latestPeerMs: Figure;
  middleMs: Figure;
  middlePeerMs: Figure;
  /** Time travel to `middle` by a timestamp. */
  timestampMs: Figure;
  timestampPeerMs: Figure;
  /** Deltaport's open of the latest version: listing calls, and reads of files (a Parquet file takes a few ranged
   * reads), against the files from the last checkpoint on. */
  openLists: Figure;
  openReads: Figure;
  openReadsFloor: Figure;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** The log of `commits` commits in the cache folder, written by delta-rs if it is not there yet and `write`. */
async function deltarsLog(commits: number, retain: number | null, log: (line: string) => void, write: boolean): Promise<string> {
  const name = `deltars-long-log-${commits}${retain === null ? '' : `-retain-${retain}`}-g${GENERATOR}`;
  const folder = path.join(resolveCacheDir(), 'bench', name);
  const table = path.join(folder, 'table');
  if (!existsSync(path.join(folder, COMPLETE))) {
    if (!write) throw new Error(`not in the cache (${folder}): --write-scale-log writes it`);
    await fs.mkdir(folder, { recursive: true });
    const begun = existsSync(path.join(table, '_delta_log'));
    log(`${begun ? 'carrying on with' : 'writing'} a ${commits}-commit log with delta-rs in ${table} (kept for the next runs)`);
    const started = performance.now();
    const retained = retain === null ? [] : [String(retain)];
    await runPython(SCRIPT, ['write', table, String(commits), String(CHECKPOINT_INTERVAL), ...retained], { niceness: NICENESS });
    await fs.writeFile(path.join(folder, COMPLETE), '');
    log(`wrote it in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return table;
}

/** Half way between `version`'s commit file time and the next one's: time travel there resolves to `version`. */
function timestampOf(table: string, version: number): string {
  const mtime = (v: number) => statSync(path.join(table, '_delta_log', `${String(v).padStart(20, '0')}.json`)).mtimeMs;
  return new Date(Math.floor((mtime(version) + mtime(version + 1)) / 2)).toISOString();
}

/** `write: false` measures the log only if the cache holds it (writing it takes too long to do unasked). `retain`:
 * see deltars-long-log.py. */
export async function longLogPeerCase(
  commits: number,
  log: (line: string) => void,
  { write = true, retain = null }: { write?: boolean; retain?: number | null } = {},
): Promise<LongLogPeerFigures> {
  const middle = Math.floor(commits / 2);
  const none = (error: string): LongLogPeerFigures => ({
    commits,
    retain,
    middle,
    latestMs: { error },
    latestPeerMs: { error },
    middleMs: { error },
    middlePeerMs: { error },
    timestampMs: { error },
    timestampPeerMs: { error },
    openLists: { error },
    openReads: { error },
    openReadsFloor: { error },
  });
  let table: string;
  try {
    table = await deltarsLog(commits, retain, log, write);
  } catch (err) {
    return none((err as Error).message.split('\n')[0]);
  }
  /** One version opened by both, in turn, each round; each checks what the other found. `at`: a version or a
   * timestamp (ISO 8601), or null for the latest. */
  const both = async (at: string | null): Promise<[Figure, Figure]> => {
    const ours: number[] = [];
    const theirs: number[] = [];
    const want = at === null ? commits - 1 : middle;
    const flags = at === null ? [] : [/^\d+$/.test(at) ? '--version' : '--timestamp', at];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const deltaport = await runCli(['schema', table, '--json', ...flags]);
        const peer = await runPython(SCRIPT, ['open', table, ...(at === null ? [] : [at])]);
        const info = JSON.parse(deltaport.stdout) as TableInfo;
        const found = JSON.parse(peer.stdout) as { version: number; files: number };
        if (info.version !== want || found.version !== want || info.numFiles !== found.files) {
          throw new Error(
            `at ${at ?? 'the latest version'}: Deltaport read version ${info.version} with ${info.numFiles} files, ` +
              `delta-rs version ${found.version} with ${found.files}, expected version ${want}`,
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
  const [middleMs, middlePeerMs] = await both(String(middle));
  const [timestampMs, timestampPeerMs] = await both(timestampOf(table, middle));
  let calls: Pick<LongLogPeerFigures, 'openLists' | 'openReads' | 'openReadsFloor'>;
  try {
    const {
      result: version,
      lists,
      reads,
    } = await storageCalls(async () => (await (await DeltaTable.open(table, localReads)).snapshot()).version);
    if (version !== commits - 1) throw new Error(`the open read version ${version}, not ${commits - 1}`);
    calls = { openLists: { value: lists }, openReads: { value: reads }, openReadsFloor: { value: readsFromLastCheckpoint(table) } };
  } catch (err) {
    const error = (err as Error).message.split('\n')[0];
    calls = { openLists: { error }, openReads: { error }, openReadsFloor: { error } };
  }
  const figures = { latestMs, latestPeerMs, middleMs, middlePeerMs, timestampMs, timestampPeerMs, ...calls };
  for (const [name, f] of Object.entries(figures)) {
    log(`delta-rs long log (${commits} commits), ${name}: ${'value' in f ? f.value.toFixed(1) : f.error}`);
  }
  return { commits, retain, middle, ...figures };
}
