// Classic single-file Parquet checkpoints (PROTOCOL.md "Checkpoints"): one row per action, one nullable struct
// column per action type, plus the _last_checkpoint pointer.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Bool, Field, Int32, Int64, List, Map_, Struct, Table, Utf8, vectorFromArray, type DataType } from 'apache-arrow';
import type { AddFile, DeletionVectorDescriptor, Metadata, Protocol, RemoveFile } from '../../../electron/delta/log/actions.js';
import { setModificationTime } from '../../../electron/app/modification-time.js';
import { logDir, versionPrefix } from './log-files.js';
import { encodeParquet } from './parquet-writer.js';

export interface CheckpointState {
  version: number;
  protocol: Protocol;
  metadata: Metadata;
  adds: AddFile[];
  /** Tombstones still within the retention period. */
  removes: RemoveFile[];
}

const field = <T extends DataType>(name: string, type: T, nullable = true) => new Field<T>(name, type, nullable);
const stringMap = () =>
  new Map_(
    field('key_value', new Struct<{ key: Utf8; value: Utf8 }>([field('key', new Utf8(), false), field('value', new Utf8())]), false),
  );
const stringList = () => new List(field('element', new Utf8()));

const dvType = new Struct([
  field('storageType', new Utf8()),
  field('pathOrInlineDv', new Utf8()),
  field('offset', new Int32()),
  field('sizeInBytes', new Int32()),
  field('cardinality', new Int64()),
]);

/** The struct column of each action kind in a checkpoint, as Spark and delta-rs lay them out. */
export const CHECKPOINT_ACTION_TYPES = {
  protocol: new Struct([
    field('minReaderVersion', new Int32()),
    field('minWriterVersion', new Int32()),
    field('readerFeatures', stringList()),
    field('writerFeatures', stringList()),
  ]),
  metaData: new Struct([
    field('id', new Utf8()),
    field('name', new Utf8()),
    field('description', new Utf8()),
    field('format', new Struct([field('provider', new Utf8()), field('options', stringMap())])),
    field('schemaString', new Utf8()),
    field('partitionColumns', stringList()),
    field('configuration', stringMap()),
    field('createdTime', new Int64()),
  ]),
  add: new Struct([
    field('path', new Utf8()),
    field('partitionValues', stringMap()),
    field('size', new Int64()),
    field('modificationTime', new Int64()),
    field('dataChange', new Bool()),
    field('stats', new Utf8()),
    field('tags', stringMap()),
    field('deletionVector', dvType),
  ]),
  remove: new Struct([
    field('path', new Utf8()),
    field('deletionTimestamp', new Int64()),
    field('dataChange', new Bool()),
    field('extendedFileMetadata', new Bool()),
    field('partitionValues', stringMap()),
    field('size', new Int64()),
    field('deletionVector', dvType),
  ]),
};

type Row = Record<string, unknown> | null;

const big = (n: number | null | undefined) => (n == null ? null : BigInt(n));
const asMap = (o: Record<string, string | null> | null | undefined) => (o ? new Map(Object.entries(o)) : null);

function dvRow(dv: DeletionVectorDescriptor | null | undefined): Row {
  if (!dv) return null;
  return { ...dv, offset: dv.offset ?? null, cardinality: BigInt(dv.cardinality) };
}

/** Builds the checkpoint's rows column by column: each row carries exactly one non-null action. */
export function checkpointTable(state: CheckpointState): Table {
  const { protocol, metadata, adds, removes } = state;
  const protocolRows: Row[] = [
    {
      minReaderVersion: protocol.minReaderVersion,
      minWriterVersion: protocol.minWriterVersion,
      readerFeatures: protocol.readerFeatures ?? null,
      writerFeatures: protocol.writerFeatures ?? null,
    },
  ];
  const metadataRows: Row[] = [
    {
      id: metadata.id,
      name: metadata.name ?? null,
      description: metadata.description ?? null,
      format: { provider: metadata.format.provider, options: asMap(metadata.format.options ?? {}) },
      schemaString: metadata.schemaString,
      partitionColumns: metadata.partitionColumns,
      configuration: asMap(metadata.configuration),
      createdTime: big(metadata.createdTime),
    },
  ];
  const addRows: Row[] = adds.map((a) => ({
    path: a.path,
    partitionValues: asMap(a.partitionValues),
    size: BigInt(a.size),
    modificationTime: BigInt(a.modificationTime),
    // Checkpoint adds describe state, not a change.
    dataChange: false,
    stats: a.stats ?? null,
    tags: asMap(a.tags),
    deletionVector: dvRow(a.deletionVector),
  }));
  const removeRows: Row[] = removes.map((r) => ({
    path: r.path,
    deletionTimestamp: big(r.deletionTimestamp),
    dataChange: false,
    extendedFileMetadata: r.partitionValues != null,
    partitionValues: asMap(r.partitionValues),
    size: big(r.size),
    deletionVector: dvRow(r.deletionVector),
  }));
  const total = 2 + adds.length + removes.length;
  // Each action occupies its own stretch of rows; the other columns are null there.
  const column = (type: Struct, rows: Row[], start: number) => {
    const all: Row[] = new Array(total).fill(null);
    for (let i = 0; i < rows.length; i++) all[start + i] = rows[i];
    return vectorFromArray(all, type);
  };
  return new Table({
    protocol: column(CHECKPOINT_ACTION_TYPES.protocol, protocolRows, 0),
    metaData: column(CHECKPOINT_ACTION_TYPES.metaData, metadataRows, 1),
    add: column(CHECKPOINT_ACTION_TYPES.add, addRows, 2),
    remove: column(CHECKPOINT_ACTION_TYPES.remove, removeRows, 2 + adds.length),
  });
}

/** Writes `<version>.checkpoint.parquet` and points `_last_checkpoint` at it. */
export async function writeCheckpoint(tableRoot: string, state: CheckpointState, timestampMs: number): Promise<void> {
  const table = checkpointTable(state);
  const bytes = encodeParquet(table);
  const dir = logDir(tableRoot);
  const file = path.join(dir, `${versionPrefix(state.version)}.checkpoint.parquet`);
  await fs.writeFile(file, bytes);
  await setModificationTime(file, timestampMs);
  const last = {
    version: state.version,
    size: table.numRows,
    sizeInBytes: bytes.length,
    numOfAddFiles: state.adds.length,
  };
  // Written after the checkpoint, through a rename, so a reader never follows it to a half-written file.
  const tmp = path.join(dir, `_last_checkpoint.${process.pid}.tmp`);
  await fs.writeFile(tmp, JSON.stringify(last));
  await fs.rename(tmp, path.join(dir, '_last_checkpoint'));
}
