// When each commit happened, as time travel and history see it (PROTOCOL.md "In-Commit Timestamps"): the commit's
// inCommitTimestamp where that feature is enabled, otherwise its _delta_log/NNN.json modification time made
// monotonic, each commit at least 1 ms after the one before it (as Spark's DeltaHistoryManager does, since file times
// can repeat or go backwards).
import { DeltaportError } from '../../../shared/errors.js';
import type { Storage } from '../../storage/storage.js';
import type { CommitInfo, Metadata } from './actions.js';
import { corruptLog, timestampOutOfRange } from '../errors.js';
import type { LogListing } from './log-listing.js';

/** The first version whose time is its in-commit timestamp, or null when the table does not use them. */
export function inCommitTimestampsFrom(metadata: Metadata): number | null {
  const config = metadata.configuration ?? {};
  if (config['delta.enableInCommitTimestamps'] !== 'true') return null;
  // Absent when the table was created with the feature on: then every commit has one.
  const from = Number(config['delta.inCommitTimestampEnablementVersion'] ?? 0);
  return Number.isInteger(from) && from >= 0 ? from : 0;
}

/** `times` followed by `more`, each time at least 1 ms after the previous one. */
function extendMonotonic(times: number[], more: number[]): number[] {
  const out = times.slice();
  for (const t of more) out.push(out.length > 0 && t <= out[out.length - 1] ? out[out.length - 1] + 1 : t);
  return out;
}

export interface ClockSources {
  /** Modification times (epoch ms) of log files, in the order given; cached by the caller since log files are
   * immutable. */
  mtimes(files: string[]): Promise<number[]>;
  commitInfo(version: number): Promise<CommitInfo | null>;
}

/**
 * Commit times of the readable versions of one listing. A version's monotonic file time depends on the file time of
 * every version before it, so file times are read from the earliest version on, only as far as a question needs:
 * a timestamp in the middle of a long log reads the times of the versions up to it, not of all.
 */
export class CommitClock {
  /** The last version timed by its file; the later ones have in-commit timestamps. */
  private readonly lastFileTimed: number;
  /** Monotonic file times of the versions from the earliest on, as far as they were needed. */
  private prefix: Promise<number[]> = Promise.resolve([]);

  constructor(
    private readonly listing: LogListing,
    /** From inCommitTimestampsFrom() on the latest metadata. */
    private readonly ictFrom: number | null,
    private readonly sources: ClockSources,
  ) {
    const { earliest, latest, commits } = listing;
    const beforeIct = ictFrom === null ? latest : Math.min(latest, ictFrom - 1);
    // The earliest version may exist only as a checkpoint (its commit cleaned up): with no commitInfo, its file times it.
    this.lastFileTimed = commits.has(earliest) ? beforeIct : Math.max(beforeIct, earliest);
  }

  async timeOf(version: number): Promise<number> {
    if (version <= this.lastFileTimed) return (await this.fileTimesThrough(version))[version - this.listing.earliest];
    const ict = (await this.sources.commitInfo(version))?.inCommitTimestamp;
    if (typeof ict !== 'number') {
      throw corruptLog(`commit ${version} has no inCommitTimestamp, though in-commit timestamps are enabled from version ${this.ictFrom}`);
    }
    return ict;
  }

  /** When `version` was committed as its own log records it: its in-commit timestamp, or its file's modification time
   * as it is. Made monotonic (timeOf), a file time takes the file time of every version before it: 10,000 stats to
   * describe the latest version of a long log. The two differ only where file times repeat or go backwards. */
  async recordedTimeOf(version: number): Promise<number> {
    if (version > this.lastFileTimed) return this.timeOf(version);
    return (await this.sources.mtimes([this.fileOf(version)]))[0];
  }

  /** The latest version whose commit time is at or before `timestampMs`. */
  async resolve(timestampMs: number): Promise<number> {
    if (!Number.isFinite(timestampMs)) {
      throw new DeltaportError('VALIDATION', `not a point in time: ${timestampMs} (expected epoch milliseconds)`);
    }
    const { earliest, latest } = this.listing;
    const first = await this.timeOf(earliest);
    if (timestampMs < first) {
      throw timestampOutOfRange(`timestamp ${iso(timestampMs)} is before the earliest commit (version ${earliest} at ${iso(first)})`);
    }
    const ictStart = this.lastFileTimed + 1;
    const inIct = ictStart <= latest && timestampMs >= (await this.timeOf(ictStart));
    const version = inIct ? await this.searchInCommitTimestamps(timestampMs, ictStart) : await this.searchFileTimes(timestampMs);
    if (version === latest) {
      const last = await this.timeOf(latest);
      if (timestampMs > last) {
        throw timestampOutOfRange(`timestamp ${iso(timestampMs)} is after the latest commit (version ${latest} at ${iso(last)})`);
      }
    }
    return version;
  }

  // Commit times rise with the version, so binary search applies: it reads only the commitInfo of the versions it
  // probes. Invariant: timeOf(lo) <= timestampMs.
  private async searchInCommitTimestamps(timestampMs: number, from: number): Promise<number> {
    let lo = from;
    let hi = this.listing.latest;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      if ((await this.timeOf(mid)) <= timestampMs) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Among the file-timed versions; the earliest's time is at or before `timestampMs`. */
  private async searchFileTimes(timestampMs: number): Promise<number> {
    const { earliest } = this.listing;
    // A version whose file is later than the timestamp was committed after it (making times monotonic only moves
    // them later), and so was every version after it: the answer is before the first such version. It is found by
    // binary search on the files' own times, which rise with the version in any usual log; where they do not, the
    // bound found is only later than needed, never wrong.
    let after = this.lastFileTimed + 1;
    let lo = earliest + 1;
    let hi = this.lastFileTimed;
    while (lo <= hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const [raw] = await this.sources.mtimes([this.fileOf(mid)]);
      if (raw > timestampMs) {
        after = mid;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    const times = await this.fileTimesThrough(after - 1);
    // Invariant: times[lo] <= timestampMs (times[0] is the earliest's).
    lo = 0;
    hi = after - 1 - earliest;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      if (times[mid] <= timestampMs) lo = mid;
      else hi = mid - 1;
    }
    return earliest + lo;
  }

  /** The monotonic file times from the earliest version through `version`, reading the file times not yet read. */
  private fileTimesThrough(version: number): Promise<number[]> {
    const known = this.prefix;
    const extended = known.then(async (times) => {
      const from = this.listing.earliest + times.length;
      if (version < from) return times;
      const files: string[] = [];
      for (let v = from; v <= version; v++) files.push(this.fileOf(v));
      return extendMonotonic(times, await this.sources.mtimes(files));
    });
    // A failed read is reported to its caller; the next question tries again from what was known.
    this.prefix = extended.catch(() => known);
    return extended;
  }

  /** The file that times a version: its commit, or its checkpoint where only that is left. */
  private fileOf(version: number): string {
    const file = this.listing.commits.get(version) ?? this.listing.checkpoints.find((c) => c.version === version)?.files[0];
    if (!file) throw corruptLog(`commit ${version} is missing from _delta_log`);
    return file;
  }
}

/** Modification times in whole ms, as object stores and Spark report them: from the listing where it gave them,
 * else from the storage, many at once where it can. */
export async function fileMtimes(storage: Storage, files: string[], listing: LogListing): Promise<number[]> {
  const times = files.map((file) => listing.modified.get(file));
  const unlisted = files.filter((_, i) => times[i] === undefined);
  if (unlisted.length === 0) return times as number[];
  let read: number[];
  try {
    read = storage.modifiedTimes
      ? await storage.modifiedTimes(unlisted)
      : await Promise.all(unlisted.map(async (file) => (await storage.stat(file)).modifiedMs));
  } catch (err) {
    throw corruptLog(`cannot read a commit time: ${err instanceof DeltaportError ? err.message : String(err)}`);
  }
  let next = 0;
  return times.map((t) => t ?? read[next++]);
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
