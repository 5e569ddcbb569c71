// A small Delta table writer for the built-in sample and the benchmark: it creates a table and then commits appends,
// file rewrites (UPDATE) and row deletions with deletion vectors, keeping the table state in memory so that it can
// write classic checkpoints. It writes only tables it created itself.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Table } from 'apache-arrow';
import type { StructType } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import type {
  Action,
  AddFile,
  CommitInfo,
  DeletionVectorDescriptor,
  Metadata,
  Protocol,
  RemoveFile,
} from '../../../electron/delta/log/actions.js';
import {
  deletionVectorFile,
  deletionVectorFileName,
  inlineDescriptor,
  loadDeletionVector,
  storedDescriptor,
} from '../../../electron/delta/scan/deletion-vectors.js';
import { LocalStorage } from '../../../electron/storage/local-storage.js';
import { writeCheckpoint } from './checkpoint.js';
import { computeStats, type FileStats } from './file-stats.js';
import { logDir, writeCommit } from './log-files.js';
import { partitionFolder, toLogPath } from './partition-path.js';
import { encodeParquet, type ParquetWriteOptions } from './parquet-writer.js';

export interface CreateTableOptions extends ParquetWriteOptions {
  schema: StructType;
  partitionColumns?: string[];
  name?: string;
  description?: string;
  configuration?: Record<string, string>;
  /** Enables the deletionVectors table feature (reader version 3, writer version 7). */
  deletionVectors?: boolean;
  /** Write a checkpoint after every N-th commit; 0 or absent = never. */
  checkpointInterval?: number;
  /** Commit time of version 0, epoch ms; default now. */
  timestamp?: number;
}

/** One data file to add: its rows (without partition columns) and the partition it belongs to. */
export interface DataPart {
  data: Table;
  partitionValues?: Record<string, string | null>;
}

export interface CommitOptions {
  /** Commit time, epoch ms; default now. Kept strictly increasing, as time travel needs. */
  timestamp?: number;
}

export interface RowChangeOptions extends CommitOptions {
  /** The predicate recorded in commitInfo.operationParameters, for people reading the history. */
  predicate: string;
}

export interface UpdateOptions extends RowChangeOptions {
  /** Rows of the file the update changed, for operationMetrics. */
  updatedRows: number;
}

export interface DeleteOptions extends RowChangeOptions {
  /** Where the deletion vector goes: a file under the table ('u', default) or inline in the log ('i'). */
  storage?: 'u' | 'i';
}

const ENGINE_INFO = 'Deltaport delta-writer';

export class DeltaTableWriter {
  private versionNow = 0;
  private lastTimestamp: number;
  private readonly live = new Map<string, AddFile>();
  private readonly tombstones = new Map<string, RemoveFile>();

  private constructor(
    readonly root: string,
    private readonly protocol: Protocol,
    private readonly metadata: Metadata,
    private readonly options: CreateTableOptions,
    created: number,
  ) {
    this.lastTimestamp = created;
  }

  /** Creates the table folder and commits version 0 (protocol and metadata). Fails if a log is already there. */
  static async create(root: string, options: CreateTableOptions): Promise<DeltaTableWriter> {
    const partitionColumns = options.partitionColumns ?? [];
    for (const c of partitionColumns) {
      if (!options.schema.fields.some((f) => f.name === c)) {
        throw new DeltaportError('VALIDATION', `partition column '${c}' is not in the schema`);
      }
    }
    const protocol: Protocol = options.deletionVectors
      ? { minReaderVersion: 3, minWriterVersion: 7, readerFeatures: ['deletionVectors'], writerFeatures: ['deletionVectors'] }
      : { minReaderVersion: 1, minWriterVersion: 2 };
    const configuration = { ...options.configuration };
    if (options.deletionVectors) configuration['delta.enableDeletionVectors'] = 'true';
    if (options.checkpointInterval) configuration['delta.checkpointInterval'] = String(options.checkpointInterval);
    const timestamp = options.timestamp ?? Date.now();
    const metadata: Metadata = {
      id: randomUUID(),
      name: options.name ?? null,
      description: options.description ?? null,
      format: { provider: 'parquet', options: {} },
      schemaString: JSON.stringify(options.schema),
      partitionColumns,
      configuration,
      createdTime: timestamp,
    };
    await fs.mkdir(logDir(root), { recursive: true });
    const writer = new DeltaTableWriter(root, protocol, metadata, options, timestamp);
    const parameters = { isManaged: 'false', partitionBy: JSON.stringify(partitionColumns) };
    // A table's first commit read no earlier version.
    const { readVersion: _none, ...commitInfo } = writer.commitInfo(timestamp, 'CREATE TABLE', parameters, {});
    await writeCommit(root, 0, [{ commitInfo }, { protocol }, { metaData: metadata }], timestamp);
    return writer;
  }

  get version(): number {
    return this.versionNow;
  }

  /** The live files, as their add actions. */
  files(): AddFile[] {
    return [...this.live.values()];
  }

  /** Commits new data files as a blind append. */
  async append(parts: DataPart[], options: CommitOptions = {}): Promise<number> {
    const timestamp = this.nextTimestamp(options.timestamp);
    const adds = await Promise.all(parts.map((p) => this.writeDataFile(p, timestamp)));
    const metrics = {
      numFiles: String(adds.length),
      numOutputRows: String(parts.reduce((n, p) => n + p.data.numRows, 0)),
      numOutputBytes: String(adds.reduce((n, a) => n + a.size, 0)),
    };
    const info = this.commitInfo(
      timestamp,
      'WRITE',
      { mode: 'Append', partitionBy: JSON.stringify(this.metadata.partitionColumns) },
      metrics,
      true,
    );
    return this.commit([{ commitInfo: info }, ...adds.map((add) => ({ add }))], timestamp);
  }

  /** Replaces one live file with a rewritten one (what UPDATE does without deletion vectors). */
  async replaceFile(oldPath: string, replacement: Table, options: UpdateOptions): Promise<number> {
    const old = this.liveFile(oldPath);
    const timestamp = this.nextTimestamp(options.timestamp);
    const add = await this.writeDataFile({ data: replacement, partitionValues: old.partitionValues }, timestamp);
    const metrics = {
      numRemovedFiles: '1',
      numAddedFiles: '1',
      numUpdatedRows: String(options.updatedRows),
      numCopiedRows: String(replacement.numRows - options.updatedRows),
      numAddedBytes: String(add.size),
      numRemovedBytes: String(old.size),
    };
    const info = this.commitInfo(timestamp, 'UPDATE', { predicate: JSON.stringify([options.predicate]) }, metrics);
    return this.commit([{ commitInfo: info }, { remove: removal(old, timestamp) }, { add }], timestamp);
  }

  /**
   * Deletes rows (0-based indexes into the data file) by attaching a deletion vector to the file: the old add is
   * removed and re-added with the union of its earlier deletions and these.
   */
  async deleteRows(filePath: string, rowIndexes: number[], options: DeleteOptions): Promise<number> {
    if (!this.protocol.readerFeatures?.includes('deletionVectors')) {
      throw new DeltaportError('VALIDATION', 'this table was created without the deletionVectors feature');
    }
    const old = this.liveFile(filePath);
    const numRecords = (JSON.parse(old.stats ?? '{}') as Partial<FileStats>).numRecords ?? Infinity;
    const earlier = old.deletionVector ? await loadDeletionVector(new LocalStorage(), this.root, old.deletionVector) : [];
    const rows = [...new Set([...earlier, ...rowIndexes])].sort((a, b) => a - b);
    if (rows.some((r) => !Number.isInteger(r) || r < 0 || r >= numRecords)) {
      throw new DeltaportError('VALIDATION', `row indexes must lie within the ${numRecords} rows of ${filePath}`);
    }
    const timestamp = this.nextTimestamp(options.timestamp);
    const deletionVector = await this.storeDeletionVector(rows, options.storage ?? 'u');
    const stats = old.stats ? JSON.stringify({ ...JSON.parse(old.stats), tightBounds: false }) : old.stats;
    const add: AddFile = { ...old, modificationTime: timestamp, dataChange: true, stats, deletionVector };
    const metrics = {
      numDeletedRows: String(rows.length - earlier.length),
      numRemovedFiles: '0',
      numAddedFiles: '0',
      numDeletionVectorsAdded: '1',
      numDeletionVectorsRemoved: old.deletionVector ? '1' : '0',
    };
    const info = this.commitInfo(timestamp, 'DELETE', { predicate: JSON.stringify([options.predicate]) }, metrics);
    return this.commit([{ commitInfo: info }, { remove: removal(old, timestamp) }, { add }], timestamp);
  }

  private liveFile(filePath: string): AddFile {
    const file = this.live.get(filePath);
    if (!file) throw new DeltaportError('NOT_FOUND', `no live file ${filePath} in ${this.root}`);
    return file;
  }

  private async writeDataFile(part: DataPart, timestamp: number): Promise<AddFile> {
    const partitionColumns = this.metadata.partitionColumns;
    const partitionValues = Object.fromEntries(partitionColumns.map((c) => [c, part.partitionValues?.[c] ?? null]));
    const folder = partitionFolder(partitionColumns, partitionValues);
    const name = `part-00000-${randomUUID()}-c000.${this.options.compression === 'zstd' ? 'zstd' : 'snappy'}.parquet`;
    const relative = folder ? `${folder}/${name}` : name;
    const bytes = encodeParquet(part.data, this.options);
    await fs.mkdir(path.join(this.root, folder), { recursive: true });
    await fs.writeFile(path.join(this.root, relative), bytes);
    const stats: FileStats = computeStats(part.data);
    if (this.options.deletionVectors) stats.tightBounds = true;
    return {
      path: toLogPath(relative),
      partitionValues,
      size: bytes.length,
      modificationTime: timestamp,
      dataChange: true,
      stats: JSON.stringify(stats),
    };
  }

  private async storeDeletionVector(rows: number[], storage: 'u' | 'i'): Promise<DeletionVectorDescriptor> {
    if (storage === 'i') return inlineDescriptor(rows);
    const uuid = randomUUID();
    const { bytes, entries } = deletionVectorFile([rows]);
    await fs.writeFile(path.join(this.root, deletionVectorFileName(uuid)), bytes);
    return storedDescriptor(uuid, entries[0]);
  }

  private nextTimestamp(requested: number | undefined): number {
    const t = Math.max(requested ?? Date.now(), this.lastTimestamp + 1);
    this.lastTimestamp = t;
    return t;
  }

  private commitInfo(
    timestamp: number,
    operation: string,
    operationParameters: Record<string, unknown>,
    operationMetrics: Record<string, string>,
    isBlindAppend = false,
  ): CommitInfo {
    return {
      timestamp,
      operation,
      operationParameters,
      operationMetrics,
      readVersion: this.versionNow,
      isolationLevel: 'Serializable',
      isBlindAppend,
      engineInfo: ENGINE_INFO,
    };
  }

  private async commit(actions: Action[], timestamp: number): Promise<number> {
    const version = this.versionNow + 1;
    await writeCommit(this.root, version, actions, timestamp);
    this.versionNow = version;
    for (const a of actions) {
      if (a.remove) {
        this.live.delete(a.remove.path);
        this.tombstones.set(a.remove.path, a.remove);
      }
      if (a.add) {
        this.live.set(a.add.path, a.add);
        this.tombstones.delete(a.add.path);
      }
    }
    const interval = this.options.checkpointInterval ?? 0;
    if (interval > 0 && version % interval === 0) {
      const state = {
        version,
        protocol: this.protocol,
        metadata: this.metadata,
        adds: this.files(),
        removes: [...this.tombstones.values()],
      };
      await writeCheckpoint(this.root, state, timestamp);
    }
    return version;
  }
}

function removal(add: AddFile, timestamp: number): RemoveFile {
  return {
    path: add.path,
    deletionTimestamp: timestamp,
    dataChange: true,
    partitionValues: add.partitionValues,
    size: add.size,
    ...(add.deletionVector ? { deletionVector: add.deletionVector } : {}),
  };
}
