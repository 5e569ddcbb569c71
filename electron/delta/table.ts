// A Delta table folder: its readable versions, snapshots, history and summary. Parsed log pieces (commits,
// checkpoints, file times) are cached per DeltaTable: log files never change once written, so a second snapshot()
// or history() re-lists the folder (to see new commits) but re-reads nothing already read.
import { parseStructType, type StructType } from '../../shared/delta-schema.js';
import { cancelledError, DeltaportError } from '../../shared/errors.js';
import { canonicalLocation, type Storage } from '../storage/storage.js';
import type { EngineContext } from './engine/engine-context.js';
import type { CommitSummary, TableInfo } from '../../shared/table-info.js';
import type { Action, CommitInfo, Metadata } from './log/actions.js';
import { numRecordsOf, readCheckpoint, readCheckpointMetadata, recordCounts, type CheckpointState } from './log/checkpoint-reader.js';
import { readJsonActions } from './log/commit-file.js';
import { CommitClock, fileMtimes, inCommitTimestampsFrom } from './log/commit-time.js';
import { corruptLog, tableNotFound } from './errors.js';
import type { FileStats } from './filter/file-stats.js';
import { commitSummary, historyVersions } from './log/history.js';
import { memoized } from './memo-cache.js';
import { LogLister, segmentFor, segmentWithoutCheckpoint, type CheckpointRef, type LogListing } from './log/log-listing.js';
import { assertReadable } from './protocol.js';
import { replay, type ReplayResult } from './log/replay.js';
import type { LiveFile, Snapshot } from './snapshot.js';

// Replayed versions and decoded checkpoints kept per table: each holds a file list (tens of thousands of objects for a
// big table), so a session that travels through many versions keeps only the recent ones.
const KEPT_STATES = 8;
const KEPT_CHECKPOINTS = 4;
// Parsed commits: enough for replay after any usual checkpoint interval and for timestamp searches.
const KEPT_COMMITS = 1024;

// How long the listing of open() stands for the table's latest version: an open and its first read are one request.
const FRESH_LISTING_MS = 1000;

// Commit files read at once by history(): enough to overlap I/O, few enough to stay far from the open-file limit.
const READ_CONCURRENCY = 32;

export class DeltaTable {
  private readonly commits = new Map<number, Promise<Action[]>>();
  private readonly checkpoints = new Map<string, Promise<CheckpointState>>();
  private readonly checkpointMetadata = new Map<string, Promise<Metadata | null>>();
  private readonly checkpointCounts = new Map<string, Promise<Map<string, number | null>>>();
  private readonly checkpointFileStats = new Map<string, Promise<Map<string, FileStats | null>>>();
  private readonly states = new Map<number, Promise<ReplayResult>>();
  private readonly fileTimes = new Map<string, number>();
  /** The checkpoint each file list was built from: where its adds' statistics are. */
  private readonly fileSources = new WeakMap<LiveFile[], CheckpointRef | null>();
  private clock: { listing: LogListing; clock: Promise<CommitClock> } | null = null;
  private readonly lister: LogLister;
  /** The listing open() made, which a snapshot right after it (within FRESH_LISTING_MS) reads instead of listing
   * again: in an object store each listing is a round trip. */
  private openedListing: { listing: LogListing; at: number } | null = null;

  /** Where the log's files are read from: the engine's storage for the table's root. */
  private readonly storage: Storage;

  private constructor(
    readonly root: string,
    readonly engine: EngineContext,
  ) {
    this.storage = engine.storage(root);
    this.lister = new LogLister(this.storage, root);
  }

  /** `engine`: where the table's files are read from (engine/engine-context.ts). */
  static async open(tablePath: string, engine: EngineContext): Promise<DeltaTable> {
    const root = canonicalLocation(tablePath);
    await checkTableRoot(engine.storage(root), root);
    const table = new DeltaTable(root, engine);
    table.openedListing = { listing: await table.lister.listFromLastCheckpoint(), at: Date.now() };
    return table;
  }

  async versionRange(): Promise<{ earliest: number; latest: number }> {
    const { earliest, latest } = await this.lister.list();
    return { earliest, latest };
  }

  async snapshot(at: { version?: number; timestampMs?: number } = {}): Promise<Snapshot> {
    // The engine's own guard, not the user's rule (that is the source spec's, shared/source-spec.ts): a caller that
    // skipped the schema (a test, the benchmark, a task given both) must not get one of the two silently ignored.
    if (at.version !== undefined && at.timestampMs !== undefined) {
      throw new DeltaportError('VALIDATION', 'a version and a timestamp are mutually exclusive: give one of them');
    }
    // The latest version needs only the log from the last checkpoint on; anything else, the whole of it.
    const latestOnly = at.version === undefined && at.timestampMs === undefined;
    const opened = this.openedListing;
    this.openedListing = null;
    const fresh = latestOnly && opened && Date.now() - opened.at < FRESH_LISTING_MS ? opened.listing : null;
    const listing = fresh ?? (await (latestOnly ? this.lister.listFromLastCheckpoint() : this.lister.list()));
    const version =
      at.version ?? (at.timestampMs !== undefined ? await (await this.clockFor(listing)).resolve(at.timestampMs) : listing.latest);
    const state = await this.stateAt(listing, version);
    assertReadable(state.protocol);
    return {
      tableRoot: this.root,
      version,
      protocol: state.protocol,
      metadata: state.metadata,
      schema: parseSchema(state.metadata.schemaString, version),
      partitionColumns: state.metadata.partitionColumns ?? [],
      files: state.files,
    };
  }

  /** When `version` was committed, epoch ms, as time travel resolves it. Apart from the snapshot: without in-commit
   * timestamps a commit's time depends on the file time of every commit before it. */
  async commitTime(version: number): Promise<number> {
    const listing = await this.lister.list();
    segmentFor(listing, version); // reports a version outside the readable range as snapshot() does
    return (await this.clockFor(listing)).timeOf(version);
  }

  /** The actions of one commit, as written (the change feed reads them). */
  async commit(version: number): Promise<Action[]> {
    const listing = await this.lister.list();
    return this.commitActions(version, listing);
  }

  async resolveTimestamp(timestampMs: number): Promise<number> {
    const listing = await this.lister.list();
    return (await this.clockFor(listing)).resolve(timestampMs);
  }

  /** A cancel (`signal`) stops the reading between groups of commit files. */
  async history(opts: { limit?: number; signal?: AbortSignal } = {}): Promise<CommitSummary[]> {
    const listing = await this.lister.list();
    const clock = await this.clockFor(listing);
    const versions = historyVersions(listing, opts.limit ?? Number.POSITIVE_INFINITY);
    const out: CommitSummary[] = [];
    for (let i = 0; i < versions.length; i += READ_CONCURRENCY) {
      if (opts.signal?.aborted) throw cancelledError();
      const batch = versions.slice(i, i + READ_CONCURRENCY);
      const infos = await Promise.all(batch.map((v) => this.commitInfo(v, listing)));
      for (let j = 0; j < batch.length; j++) out.push(commitSummary(batch[j], await clock.timeOf(batch[j]), infos[j]));
    }
    return out;
  }

  async tableInfo(snapshot: Snapshot): Promise<TableInfo> {
    const listing = await this.lister.list();
    const { metadata, protocol } = snapshot;
    return {
      path: this.root,
      version: snapshot.version,
      timestamp: await (await this.clockFor(listing)).recordedTimeOf(snapshot.version),
      versionRange: { earliest: listing.earliest, latest: listing.latest },
      id: metadata.id,
      name: metadata.name ?? null,
      description: metadata.description ?? null,
      createdTime: metadata.createdTime ?? null,
      schema: snapshot.schema,
      partitionColumns: snapshot.partitionColumns,
      protocol: {
        minReaderVersion: protocol.minReaderVersion,
        minWriterVersion: protocol.minWriterVersion,
        readerFeatures: protocol.readerFeatures ?? [],
        writerFeatures: protocol.writerFeatures ?? [],
      },
      configuration: metadata.configuration ?? {},
      numFiles: snapshot.files.length,
      sizeBytes: snapshot.files.reduce((sum, f) => sum + f.add.size, 0),
      numRecords: await this.numRecords(snapshot, listing),
    };
  }

  /** Each live file's statistics, in snapshot.files order; null where the log has none. */
  async fileStats(snapshot: Snapshot): Promise<(FileStats | null)[]> {
    // Loaded here, for a filter: it reads stats_parsed through parquet-wasm and apache-arrow, which describing a table
    // or listing its history never needs (a cold CLI process spent a third of its time loading them).
    const { checkpointStats, parseStats } = await import('./filter/file-stats.js');
    const checkpoint = this.statsCheckpoint(snapshot, await this.listingCovering(snapshot.version));
    const fromCheckpoint = checkpoint
      ? await memoized(
          this.checkpointFileStats,
          checkpoint.files[0],
          async () => checkpointStats(this.storage, await this.checkpointState(checkpoint)),
          KEPT_CHECKPOINTS,
        )
      : null;
    return snapshot.files.map(({ add }) => ('stats' in add ? parseStats(add.stats) : (fromCheckpoint?.get(add.path) ?? null)));
  }

  /** A listing that can rebuild `version`: the one from the last checkpoint when that reaches back far enough. */
  private async listingCovering(version: number): Promise<LogListing> {
    const tail = await this.lister.listFromLastCheckpoint();
    return version >= tail.earliest ? tail : this.lister.list();
  }

  /** The checkpoint holding the statistics of the snapshot's adds that came from it: adds read from a Parquet
   * checkpoint carry no `stats` key at all. Null when every add has its own. */
  private statsCheckpoint(snapshot: Snapshot, listing: LogListing): CheckpointRef | null {
    if (snapshot.files.every((f) => 'stats' in f.add)) return null;
    const known = this.fileSources.get(snapshot.files);
    return known !== undefined ? known : segmentFor(listing, snapshot.version).checkpoint;
  }

  private async numRecords(snapshot: Snapshot, listing: LogListing): Promise<number | null> {
    const checkpoint = this.statsCheckpoint(snapshot, listing);
    const counts = checkpoint ? await this.checkpointRecordCounts(checkpoint) : null;
    let total = 0;
    for (const { add } of snapshot.files) {
      const n = 'stats' in add ? numRecordsOf(add.stats) : (counts?.get(add.path) ?? null);
      if (n === null) return null;
      total += n - (add.deletionVector?.cardinality ?? 0);
    }
    return total;
  }

  private stateAt(listing: LogListing, version: number): Promise<ReplayResult> {
    return memoized(
      this.states,
      version,
      async () => {
        let segment = segmentFor(listing, version);
        // Started before the checkpoint decodes, so that the commit files are read meanwhile (the reads are cached:
        // the awaits below find them); a failure is reported there.
        for (const v of segment.commitVersions) this.commitActions(v, listing).catch(() => {});
        let checkpoint: CheckpointState | null = null;
        // An unreadable checkpoint (a writer that died half-way, say) is passed over for an older starting point,
        // as Spark does; the first failure is the one reported if there is none.
        let firstFailure: unknown = null;
        while (segment.checkpoint) {
          try {
            checkpoint = await this.checkpointState(segment.checkpoint);
            break;
          } catch (err) {
            firstFailure ??= err;
            const older = isUnreadable(err) ? segmentWithoutCheckpoint(listing, segment) : null;
            if (!older) throw firstFailure;
            segment = older;
          }
        }
        const commits = await Promise.all(segment.commitVersions.map((v) => this.commitActions(v, listing)));
        const state = replay(this.root, version, checkpoint, commits);
        this.fileSources.set(state.files, segment.checkpoint);
        return state;
      },
      KEPT_STATES,
    );
  }

  // The clock depends on the listing and the latest metadata (whether in-commit timestamps are on), so it is rebuilt
  // whenever the folder changed.
  private clockFor(listing: LogListing): Promise<CommitClock> {
    if (this.clock?.listing !== listing) {
      const clock = this.inCommitTimestampsStart(listing).then(
        (ictFrom) =>
          new CommitClock(listing, ictFrom, {
            mtimes: (files) => this.mtimes(files, listing),
            commitInfo: (v) => this.commitInfo(v, listing),
          }),
      );
      this.clock = { listing, clock };
      clock.catch(() => {
        if (this.clock?.clock === clock) this.clock = null;
      });
    }
    return this.clock.clock;
  }

  // Where in-commit timestamps are on, every commit carries one in its commitInfo (PROTOCOL.md "In-Commit
  // Timestamps"): a latest commit without one says they are off without the latest metadata, often only in the
  // checkpoint, a Parquet read of its own.
  private async inCommitTimestampsStart(listing: LogListing): Promise<number | null> {
    if (listing.commits.has(listing.latest)) {
      const info = await this.commitInfo(listing.latest, listing);
      if (typeof info?.inCommitTimestamp !== 'number') return null;
    }
    return inCommitTimestampsFrom(await this.latestMetadata(listing));
  }

  // The latest metadata, not the latest file list: the newest metaData among the commits after the checkpoint, else
  // the checkpoint's own, read alone.
  private async latestMetadata(listing: LogListing): Promise<Metadata> {
    const known = this.states.get(listing.latest);
    if (known) return (await known).metadata;
    const segment = segmentFor(listing, listing.latest);
    const commits = await Promise.all(segment.commitVersions.map((v) => this.commitActions(v, listing)));
    const newest = commits.flat().findLast((a) => a.metaData)?.metaData;
    if (newest) return newest;
    const checkpoint = segment.checkpoint;
    const metadata = checkpoint
      ? await memoized(this.checkpointMetadata, checkpoint.files[0], () => readCheckpointMetadata(this.storage, checkpoint)).catch(
          () => null,
        )
      : null;
    // Otherwise the full replay finds it (past an unreadable checkpoint) or reports why it cannot.
    return metadata ?? (await this.stateAt(listing, listing.latest)).metadata;
  }

  private async mtimes(files: string[], listing: LogListing): Promise<number[]> {
    const unknown = files.filter((file) => !this.fileTimes.has(file));
    if (unknown.length > 0) (await fileMtimes(this.storage, unknown, listing)).forEach((t, i) => this.fileTimes.set(unknown[i], t));
    return files.map((file) => this.fileTimes.get(file)!);
  }

  private async commitInfo(version: number, listing: LogListing): Promise<CommitInfo | null> {
    return (await this.commitActions(version, listing)).find((a) => a.commitInfo)?.commitInfo ?? null;
  }

  private commitActions(version: number, listing: LogListing): Promise<Action[]> {
    const file = listing.commits.get(version);
    if (!file) throw corruptLog(`commit ${version} is missing from _delta_log`);
    return memoized(this.commits, version, () => readJsonActions(this.storage, file), KEPT_COMMITS);
  }

  private checkpointState(ref: CheckpointRef): Promise<CheckpointState> {
    return memoized(this.checkpoints, ref.files[0], () => readCheckpoint(this.storage, ref), KEPT_CHECKPOINTS);
  }

  private checkpointRecordCounts(ref: CheckpointRef): Promise<Map<string, number | null>> {
    return memoized(
      this.checkpointCounts,
      ref.files[0],
      async () => recordCounts(this.storage, await this.checkpointState(ref)),
      KEPT_CHECKPOINTS,
    );
  }
}

/** A local root must be a folder; a bucket has no folders, so there something must exist under the root. */
async function checkTableRoot(storage: Storage, root: string): Promise<void> {
  let found: boolean;
  try {
    found = await storage.hasFolder(root);
  } catch (err) {
    // A cloud failure (no bucket, access denied) says what it is; a local one only that the folder cannot be used.
    if (err instanceof DeltaportError && err.code === 'STORAGE') throw err;
    found = false;
  }
  if (found) return;
  const isFile = await storage.stat(root).then(
    () => true,
    () => false,
  );
  throw tableNotFound(isFile ? `not a folder: ${root}` : `no such folder: ${root}`);
}

function isUnreadable(err: unknown): boolean {
  return err instanceof DeltaportError && (err.code === 'CORRUPT_LOG' || err.code === 'MISSING_FILE');
}

/** A type the reader does not know is refused here (parseStructType), as unsupported rather than corrupt. */
function parseSchema(schemaString: string, version: number): StructType {
  let json: unknown;
  try {
    json = JSON.parse(schemaString);
  } catch {
    json = null;
  }
  const schema = parseStructType(json);
  if (schema) return schema;
  throw corruptLog(`cannot read version ${version}: its metaData.schemaString is not a valid schema`);
}
