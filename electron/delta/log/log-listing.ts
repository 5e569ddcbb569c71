// What the _delta_log folder holds and which files rebuild a given version (PROTOCOL.md "Delta Log Entries",
// "Checkpoints"). A local folder is always listed whole. In an object store, where a long log takes a listing call per
// thousand files, reading the latest version starts from _last_checkpoint: one call lists the names from that
// checkpoint on (a start key), and the listing says it is partial; whatever needs older versions lists the rest.
import { DeltaportError } from '../../../shared/errors.js';
import { joinLocation, type ListedObject, type Storage } from '../../storage/storage.js';
import { corruptLog, notADeltaTable, versionNotFound } from '../errors.js';

export type CheckpointKind = 'classic' | 'multi-part' | 'v2';

export interface CheckpointRef {
  version: number;
  kind: CheckpointKind;
  /** Locations; a multi-part checkpoint's parts in part order. */
  files: string[];
}

export interface LogListing {
  logDir: string;
  /** Version -> location of its NNN.json commit file. */
  commits: ReadonlyMap<number, string>;
  /** Modification times (epoch ms) of the files the listing gave them for (object stores list them; a disk does not). */
  modified: Map<string, number>;
  /** Complete checkpoints, oldest first; at most one per version. */
  checkpoints: CheckpointRef[];
  earliest: number;
  latest: number;
  /** False when the listing starts at a checkpoint: older versions may exist that it does not show. */
  complete: boolean;
}

/** The files that rebuild one version: a checkpoint (if any) and the commits after it, oldest first. */
export interface LogSegment {
  version: number;
  checkpoint: CheckpointRef | null;
  commitVersions: number[];
}

const COMMIT = /^(\d{20})\.json$/;
const CLASSIC_CHECKPOINT = /^(\d{20})\.checkpoint\.parquet$/;
const MULTI_PART_CHECKPOINT = /^(\d{20})\.checkpoint\.(\d{10})\.(\d{10})\.parquet$/;
const V2_CHECKPOINT =
  /^(\d{20})\.checkpoint\.([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.(json|parquet)$/;

// When several complete checkpoints exist for one version, the one that is cheapest to read wins.
const KIND_PREFERENCE: CheckpointKind[] = ['classic', 'v2', 'multi-part'];

export async function listLog(storage: Storage, tableRoot: string): Promise<LogListing> {
  return parseListing(logFolder(tableRoot), await listLogFolder(storage, tableRoot));
}

function logFolder(tableRoot: string): string {
  return joinLocation(tableRoot, '_delta_log');
}

async function listLogFolder(storage: Storage, tableRoot: string, startAfter?: string): Promise<ListedObject[]> {
  const logDir = logFolder(tableRoot);
  try {
    const entries = await storage.list(logDir, startAfter);
    if (entries.length === 0 && startAfter === undefined && !(await storage.hasFolder(logDir))) {
      throw notADeltaTable(`not a Delta table: ${tableRoot} has no _delta_log folder`);
    }
    return entries;
  } catch (err) {
    if (err instanceof DeltaportError && err.code === 'NOT_A_DELTA_TABLE') throw err;
    throw notADeltaTable(`cannot list ${logDir}: ${err instanceof DeltaportError ? err.message : (err as Error).message.split('\n')[0]}`);
  }
}

/**
 * Lists a table's log again only when it may have changed. On a disk, the folder's modification time changes
 * whenever a file is added or removed; it is trusted only once it is old enough (2 s) that a change within the same
 * clock tick as the last listing cannot go unnoticed. An object store has no such time, but lists in key order from a
 * start key: only the names from the latest version on are listed again, one call however long the log.
 */
export class LogLister {
  private last: { stamp: string; listedAt: number; entries: ListedObject[]; listing: LogListing } | null = null;

  constructor(
    private readonly storage: Storage,
    private readonly tableRoot: string,
  ) {}

  async list(): Promise<LogListing> {
    const listedAt = Date.now();
    const logDir = logFolder(this.tableRoot);
    if (!this.storage.folderStamp) return this.listAfterLatest();
    const dir = await this.storage.folderStamp(logDir);
    if (dir && this.last?.stamp === dir.stamp && this.last.listedAt - dir.modifiedMs > 2000) return this.last.listing;
    const entries = await listLogFolder(this.storage, this.tableRoot);
    const listing = parseListing(logDir, entries);
    this.last = dir ? { stamp: dir.stamp, listedAt, entries, listing } : null;
    return listing;
  }

  /** What reading the latest version needs: the whole listing where there is one or it is cheap (a disk), else the
   * log from the last checkpoint, which _last_checkpoint names. That file is only a hint: when it is missing, stale or
   * its checkpoint is gone, the whole folder is listed. */
  async listFromLastCheckpoint(): Promise<LogListing> {
    const logDir = logFolder(this.tableRoot);
    if (this.storage.folderStamp) return this.list();
    if (this.last) return this.listAfterLatest(true);
    const hint = await lastCheckpointVersion(this.storage, logDir);
    if (hint === null) return this.list();
    const entries = await listLogFolder(this.storage, this.tableRoot, versionPrefix(hint));
    const tail = entries.length > 0 ? parseTail(logDir, entries, hint) : null;
    if (!tail) return this.list();
    this.last = { stamp: '', listedAt: 0, entries, listing: tail };
    return tail;
  }

  /** `partialOk`: a listing from a checkpoint may stay one; else it becomes the whole listing. */
  private async listAfterLatest(partialOk = false): Promise<LogListing> {
    const logDir = logFolder(this.tableRoot);
    if (!this.last || (!partialOk && !this.last.listing.complete)) {
      const entries = await listLogFolder(this.storage, this.tableRoot);
      this.last = { stamp: '', listedAt: 0, entries, listing: parseListing(logDir, entries) };
      return this.last.listing;
    }
    // The bare version number sorts before every file of that version (its checkpoints and its commit).
    const newer = await listLogFolder(this.storage, this.tableRoot, versionPrefix(this.last.listing.latest));
    const seen = new Set(this.last.entries.map((e) => e.name));
    if (newer.every((e) => seen.has(e.name))) return this.last.listing;
    const known = new Set(newer.map((e) => e.name));
    const entries = [...this.last.entries.filter((e) => !known.has(e.name)), ...newer];
    const listing = parseListing(logDir, entries);
    this.last = { stamp: '', listedAt: 0, entries, listing: this.last.listing.complete ? listing : { ...listing, complete: false } };
    return this.last.listing;
  }
}

/** The version _last_checkpoint names, or null when it is absent or unreadable. */
async function lastCheckpointVersion(storage: Storage, logDir: string): Promise<number | null> {
  const file = joinLocation(logDir, '_last_checkpoint');
  try {
    const { version } = JSON.parse(new TextDecoder().decode(await storage.read(file))) as { version?: unknown };
    return typeof version === 'number' && Number.isInteger(version) && version >= 0 ? version : null;
  } catch {
    return null;
  }
}

/** A listing from a checkpoint on, when that checkpoint is complete and the commits after it unbroken. */
function parseTail(logDir: string, entries: ListedObject[], checkpoint: number): LogListing | null {
  let listing: LogListing;
  try {
    listing = parseListing(logDir, entries);
  } catch {
    return null;
  }
  if (listing.checkpoints[0]?.version !== checkpoint || listing.earliest !== checkpoint) return null;
  return { ...listing, complete: false };
}

function versionPrefix(version: number): string {
  return String(version).padStart(20, '0');
}

/** Classifies the files in a _delta_log folder; anything not a commit or a checkpoint (.crc, compacted, ...) is ignored. */
export function parseListing(logDir: string, entries: ListedObject[]): LogListing {
  const commitNames: string[] = [];
  const modified = new Map<string, number>();
  const single = new Map<number, CheckpointRef>();
  const parts = new Map<string, { version: number; total: number; byPart: Map<number, string> }>();
  const prefix = joinLocation(logDir, 'x').slice(0, -1);
  for (const { name, modifiedMs } of entries) {
    if (modifiedMs !== null) modified.set(prefix + name, modifiedMs);
    // Commits are nearly all of a long log: recognized without a regex.
    if (name.length === 25 && name.endsWith('.json') && COMMIT.test(name)) {
      commitNames.push(name);
      continue;
    }
    let m = CLASSIC_CHECKPOINT.exec(name) ?? V2_CHECKPOINT.exec(name);
    if (m) {
      const ref: CheckpointRef = {
        version: Number(m[1]),
        kind: m[2] === undefined ? 'classic' : 'v2',
        files: [prefix + name],
      };
      const existing = single.get(ref.version);
      if (!existing || KIND_PREFERENCE.indexOf(ref.kind) < KIND_PREFERENCE.indexOf(existing.kind)) {
        single.set(ref.version, ref);
      }
      continue;
    }
    m = MULTI_PART_CHECKPOINT.exec(name);
    if (m) {
      const key = `${m[1]}/${m[3]}`;
      const group = parts.get(key) ?? { version: Number(m[1]), total: Number(m[3]), byPart: new Map() };
      group.byPart.set(Number(m[2]), prefix + name);
      parts.set(key, group);
    }
  }
  for (const group of parts.values()) {
    if (single.has(group.version) || !isComplete(group.total, group.byPart)) continue;
    const files = [...group.byPart.entries()].sort((a, b) => a[0] - b[0]).map(([, file]) => file);
    single.set(group.version, { version: group.version, kind: 'multi-part', files });
  }
  const checkpoints = [...single.values()].sort((a, b) => a.version - b.version);
  const commits = commitFiles(prefix, commitNames);
  if (commits.size === 0 && checkpoints.length === 0) {
    throw notADeltaTable(`not a Delta table: ${logDir} holds no commits or checkpoints`);
  }
  const { earliest, latest } = readableRange(commits, checkpoints);
  return { logDir, commits, modified, checkpoints, earliest, latest, complete: true };
}

/** The commits of a listing from their names: one unbroken run, a log's usual shape, as its two ends (a location is
 * spelled when asked: a long log's 10,000 names are not each parsed and put in a map); else a map. */
function commitFiles(prefix: string, names: string[]): ReadonlyMap<number, string> {
  const first = names.length > 0 ? Number(names[0].slice(0, 20)) : 0;
  const last = names.length > 0 ? Number(names[names.length - 1].slice(0, 20)) : -1;
  // Sorted distinct names whose ends are as far apart as their count are every version between the ends.
  let run = last - first + 1 === names.length;
  for (let i = 1; run && i < names.length; i++) run = names[i - 1] < names[i];
  if (run) return new CommitRun(prefix, first, last);
  return new Map(names.map((name) => [Number(name.slice(0, 20)), prefix + name]));
}

/** The commit files of versions first..last, in version order. */
class CommitRun implements ReadonlyMap<number, string> {
  constructor(
    private readonly prefix: string,
    readonly first: number,
    readonly last: number,
  ) {}

  get size(): number {
    return this.last - this.first + 1;
  }

  has(version: number): boolean {
    return Number.isInteger(version) && version >= this.first && version <= this.last;
  }

  get(version: number): string | undefined {
    return this.has(version) ? `${this.prefix}${versionPrefix(version)}.json` : undefined;
  }

  *keys(): MapIterator<number> {
    for (let v = this.first; v <= this.last; v++) yield v;
  }

  *values(): MapIterator<string> {
    for (const v of this.keys()) yield this.get(v)!;
  }

  *entries(): MapIterator<[number, string]> {
    for (const v of this.keys()) yield [v, this.get(v)!];
  }

  [Symbol.iterator](): MapIterator<[number, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, key: number, map: ReadonlyMap<number, string>) => void): void {
    for (const [v, file] of this.entries()) callback(file, v, this);
  }
}

function isComplete(total: number, byPart: Map<number, string>): boolean {
  if (total < 1 || byPart.size !== total) return false;
  for (let p = 1; p <= total; p++) if (!byPart.has(p)) return false;
  return true;
}

/**
 * The latest version, and the earliest version from which every later version can be rebuilt: the oldest starting
 * point (a checkpoint, or the table's creation when 0.json exists) followed by an unbroken run of commits to the end.
 */
function readableRange(commits: ReadonlyMap<number, string>, checkpoints: CheckpointRef[]): { earliest: number; latest: number } {
  let latest = checkpoints.length ? checkpoints[checkpoints.length - 1].version : -1;
  if (commits instanceof CommitRun) latest = Math.max(latest, commits.last);
  else for (const v of commits.keys()) if (v > latest) latest = v;
  // runStart: first version of the unbroken run of commit files that ends at `latest`.
  let runStart = latest + 1;
  if (commits instanceof CommitRun && commits.last === latest) runStart = commits.first;
  while (runStart > 0 && commits.has(runStart - 1)) runStart--;
  if (runStart === 0) return { earliest: 0, latest };
  const start = checkpoints.find((c) => c.version >= runStart - 1);
  if (!start) {
    throw corruptLog(`cannot rebuild version ${latest}: commit ${runStart - 1} is missing from _delta_log and no checkpoint follows it`);
  }
  return { earliest: start.version, latest };
}

/** The checkpoint and commits that rebuild `version`: the newest checkpoint at or below it, then every later commit. */
export function segmentFor(listing: LogListing, version: number): LogSegment {
  if (!Number.isInteger(version) || version < listing.earliest || version > listing.latest) {
    throw versionNotFound(`no version ${version}: ${describeRange(listing)}`);
  }
  let checkpoint: CheckpointRef | null = null;
  for (const c of listing.checkpoints) if (c.version <= version) checkpoint = c;
  const from = checkpoint ? checkpoint.version + 1 : 0;
  const commitVersions: number[] = [];
  for (let v = from; v <= version; v++) commitVersions.push(v);
  return { version, checkpoint, commitVersions };
}

/**
 * The segment that rebuilds `segment.version` without its checkpoint (found unreadable): from an older checkpoint, or
 * from the first commit, when every commit after that starting point is still there; else null.
 */
export function segmentWithoutCheckpoint(listing: LogListing, segment: LogSegment): LogSegment | null {
  if (!segment.checkpoint) return null;
  const failed = segment.checkpoint.version;
  let checkpoint: CheckpointRef | null = null;
  for (const c of listing.checkpoints) if (c.version < failed) checkpoint = c;
  const from = checkpoint ? checkpoint.version + 1 : 0;
  const commitVersions: number[] = [];
  for (let v = from; v <= segment.version; v++) {
    if (!listing.commits.has(v)) return null;
    commitVersions.push(v);
  }
  return { version: segment.version, checkpoint, commitVersions };
}

export function describeRange(listing: { earliest: number; latest: number }): string {
  return listing.earliest === listing.latest
    ? `this table has only version ${listing.latest}`
    : `this table has versions ${listing.earliest} to ${listing.latest}`;
}
