// When each commit happened, as time travel and history see it (PROTOCOL.md "In-Commit Timestamps"): the commit's
// inCommitTimestamp where that feature is enabled, otherwise its _delta_log/NNN.json modification time made
// monotonic, each commit at least 1 ms after the one before it (as Spark's DeltaHistoryManager does, since file times
// can repeat or go backwards).
import { DeltaportError } from '../../shared/errors.js';
import { storageFor } from '../storage/storage.js';
import type { CommitInfo, Metadata } from './actions.js';
import { corruptLog, timestampOutOfRange } from './errors.js';
import type { LogListing } from './log-listing.js';

/** The first version whose time is its in-commit timestamp, or null when the table does not use them. */
export function inCommitTimestampsFrom(metadata: Metadata): number | null {
  const config = metadata.configuration ?? {};
  if (config['delta.enableInCommitTimestamps'] !== 'true') return null;
  // Absent when the table was created with the feature on: then every commit has one.
  const from = Number(config['delta.inCommitTimestampEnablementVersion'] ?? 0);
  return Number.isInteger(from) && from >= 0 ? from : 0;
}

/** Each time at least 1 ms after the previous one. */
export function makeMonotonic(times: number[]): number[] {
  const out: number[] = [];
  for (const t of times) out.push(out.length > 0 && t <= out[out.length - 1] ? out[out.length - 1] + 1 : t);
  return out;
}

export interface ClockSources {
  /** Modification time (epoch ms) of a log file; cached by the caller since log files are immutable. */
  mtime(file: string): Promise<number>;
  commitInfo(version: number): Promise<CommitInfo | null>;
}

/** Commit times of the readable versions of one listing. */
export class CommitClock {
  private fileTimes: Promise<number[]> | null = null;

  constructor(
    private readonly listing: LogListing,
    /** From inCommitTimestampsFrom() on the latest metadata. */
    private readonly ictFrom: number | null,
    private readonly sources: ClockSources,
  ) {}

  async timeOf(version: number): Promise<number> {
    const { earliest } = this.listing;
    const jsonGone = !this.listing.commits.has(version);
    if (this.ictFrom === null || version < this.ictFrom || jsonGone) return (await this.monotonicFileTimes())[version - earliest];
    const info = await this.sources.commitInfo(version);
    const ict = info?.inCommitTimestamp;
    if (typeof ict !== 'number') {
      throw corruptLog(`commit ${version} has no inCommitTimestamp, though in-commit timestamps are enabled from version ${this.ictFrom}`);
    }
    return ict;
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
    const last = await this.timeOf(latest);
    if (timestampMs > last) {
      throw timestampOutOfRange(`timestamp ${iso(timestampMs)} is after the latest commit (version ${latest} at ${iso(last)})`);
    }
    // Invariant: timeOf(lo) <= timestampMs. Commit times rise with the version, so binary search applies; with
    // in-commit timestamps it reads only the commitInfo of the versions it probes.
    let lo = earliest;
    let hi = latest;
    while (lo < hi) {
      const mid = lo + Math.ceil((hi - lo) / 2);
      if ((await this.timeOf(mid)) <= timestampMs) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // Index = version - earliest, up to the last version timed by its file. The earliest version may exist only as a
  // checkpoint (its commit cleaned up): its checkpoint file's time stands in.
  private monotonicFileTimes(): Promise<number[]> {
    if (!this.fileTimes) {
      const { earliest, latest, commits, checkpoints } = this.listing;
      const last = this.ictFrom === null ? latest : Math.min(latest, this.ictFrom - 1);
      const files: string[] = [];
      for (let v = earliest; v <= Math.max(last, earliest); v++) {
        const file = commits.get(v) ?? checkpoints.find((c) => c.version === v)?.files[0];
        if (!file) throw corruptLog(`commit ${v} is missing from _delta_log`);
        files.push(file);
      }
      this.fileTimes = Promise.all(files.map((file) => this.sources.mtime(file))).then(makeMonotonic);
      this.fileTimes.catch(() => (this.fileTimes = null));
    }
    return this.fileTimes;
  }
}

/** Modification time in whole ms, as object stores and Spark report it: from the listing where it gave one. */
export async function fileMtime(file: string, listing: LogListing): Promise<number> {
  const listed = listing.modified.get(file);
  if (listed !== undefined) return listed;
  try {
    return (await storageFor(file).stat(file)).modifiedMs;
  } catch (err) {
    throw corruptLog(`cannot read the time of ${file}: ${err instanceof DeltaportError ? err.message : String(err)}`);
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
