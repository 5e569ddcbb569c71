// What changed between two versions of a table, from their two snapshots: schema, properties and protocol, the data
// files added and removed, and the rows. Where the change data feed has every commit from the older version to the
// newer, the rows are its net change (net-change.ts): rows an UPDATE copied unchanged into a rewritten file do not
// show. Otherwise they come only from the files that differ: a file only in the old version gives its live rows as
// removed, a file only in the new one its live rows as added, and a file in both whose deletion vector grew gives
// the rows it newly deletes as removed. Rows have the newer version's columns (as it reads the data) and then
// `_change`, 'added' or 'removed'; an update shows as a removed and an added row.
import * as arrow from 'apache-arrow';
import { typeLabel, type StructField } from '../../../shared/delta-schema.js';
import type { VersionChange, VersionDiff } from '../../../shared/table-info.js';
import type { DeletionVectorDescriptor } from '../log/actions.js';
import { DeltaportError } from '../../../shared/errors.js';
import { constantData } from '../engine/arrow-data.js';
import { toArrowField } from '../scan/arrow-types.js';
import { loadDeletionVector } from '../scan/deletion-vectors.js';
import type { EngineContext } from '../engine/engine-context.js';
import type { LiveFile, Snapshot } from '../snapshot.js';
import type { DeltaTable } from '../table.js';
import { fileRows } from './file-rows.js';
import { feedPlan, netFeedRows, rowText } from './net-change.js';

export interface SnapshotDiff extends VersionDiff {
  from: number;
  to: number;
  /** Of rows(): the newer version's columns, then `_change`; as Delta fields and as Arrow. */
  fields: StructField[];
  rowSchema: arrow.Schema;
  /** The newer snapshot (its table id and folder name an export). */
  newer: Snapshot;
  /** The data files rows() reads, and their bytes. */
  toRead: { files: number; bytes: number };
  rows(signal?: AbortSignal, onFileRead?: (bytes: number) => void): AsyncGenerator<arrow.RecordBatch>;
}

/**
 * The diff's rows with updates paired by key: a removed and an added row with the same values in the key columns
 * become 'updated_from' and 'updated_to', next to each other, or are dropped when every column is equal (a row
 * copied into a rewritten file did not change); other rows keep 'removed' or 'added'. Every changed row is held in
 * memory to find its partner, so this is for diffs of a size that can be shown. The keys are the caller's to check
 * first (checkPairKeys), in the words its user gave them.
 */
export async function* pairedRows(
  diff: SnapshotDiff,
  keys: string[],
  signal?: AbortSignal,
  onFileRead?: (bytes: number) => void,
): AsyncGenerator<arrow.RecordBatch> {
  type Row = { batch: arrow.RecordBatch; values: string };
  const removed = new Map<string, Row[]>();
  const added: [string, Row][] = [];
  const dataColumns = diff.fields.filter((f) => f.name !== CHANGE.name).map((f) => f.name);
  for await (const batch of diff.rows(signal, onFileRead)) {
    const keyText = rowText(batch, keys);
    const valuesText = rowText(batch, dataColumns);
    const change = batch.getChild(CHANGE.name)!;
    for (let r = 0; r < batch.numRows; r++) {
      const key = keyText(r);
      const row = { batch: batch.slice(r, r + 1), values: valuesText(r) };
      if (change.get(r) === 'removed') removed.set(key, [...(removed.get(key) ?? []), row]);
      else added.push([key, row]);
    }
  }
  for (const [key, row] of added) {
    const partner = removed.get(key)?.shift();
    if (!partner) yield row.batch;
    else if (partner.values !== row.values) {
      yield relabel(partner.batch, 'updated_from');
      yield relabel(row.batch, 'updated_to');
    }
  }
  for (const rows of removed.values()) for (const row of rows) yield row.batch;
}

/** Refuses a key that is not a column of the newer version; `setting` is what the user called the keys. */
export function checkPairKeys(diff: SnapshotDiff, keys: string[], setting: string): void {
  for (const key of keys) {
    if (!diff.rowSchema.fields.some((f) => f.name === key && f.name !== CHANGE.name)) {
      throw new DeltaportError('VALIDATION', `${setting}: no column '${key}' in version ${diff.to}`);
    }
  }
}

function relabel(row: arrow.RecordBatch, change: string): arrow.RecordBatch {
  const children = row.data.children.map((child, k) =>
    row.schema.fields[k].name === CHANGE.name ? constantData(child.type, change, row.numRows) : child,
  );
  return new arrow.RecordBatch(
    row.schema,
    arrow.makeData({ type: new arrow.Struct(row.schema.fields), length: row.numRows, nullCount: 0, children }),
  );
}

const CHANGE: StructField = { name: '_change', type: 'string', nullable: false };
const CHANGE_FIELD = toArrowField(CHANGE);

export async function diffSnapshots(table: DeltaTable, from: number, to: number): Promise<SnapshotDiff> {
  const older = await table.snapshot({ version: from });
  const newer = await table.snapshot({ version: to });
  const oldFiles = new Map(older.files.map((f) => [f.add.path, f]));
  const newFiles = new Map(newer.files.map((f) => [f.add.path, f]));
  const removed = older.files.filter((f) => !newFiles.has(f.add.path));
  const added = newer.files.filter((f) => !oldFiles.has(f.add.path));
  const redeleted = newer.files.filter((f) => {
    const old = oldFiles.get(f.add.path);
    return old !== undefined && dvKey(old.add.deletionVector) !== dvKey(f.add.deletionVector);
  });
  const { engine } = table;
  const tag = (change: string) => [{ field: CHANGE_FIELD, value: change }];
  const rowSchema = new arrow.Schema([...newer.schema.fields.map(toArrowField), CHANGE_FIELD]);
  const fromFiles = { source: 'data-files' as const, files: removed.length + redeleted.length + added.length };
  const plan = await feedPlan(table, older, newer, from, to);
  const diff: SnapshotDiff = {
    from,
    to,
    schema: valueChanges(columnTypes(older.schema.fields), columnTypes(newer.schema.fields)),
    properties: valueChanges(older.metadata.configuration ?? {}, newer.metadata.configuration ?? {}),
    protocol: valueChanges(protocolValues(older), protocolValues(newer)),
    filesAdded: added.map((f) => f.add.path),
    filesRemoved: removed.map((f) => f.add.path),
    filesWithNewDeletions: redeleted.map((f) => f.add.path),
    rowsFrom:
      plan.files !== null
        ? { source: 'change-feed', files: plan.files }
        : { ...fromFiles, ...(plan.reason ? { reason: plan.reason } : {}) },
    fields: [...newer.schema.fields, CHANGE],
    rowSchema,
    newer,
    toRead:
      plan.files !== null
        ? { files: plan.files, bytes: plan.bytes }
        : { files: removed.length + redeleted.length + added.length, bytes: sizeOf([...removed, ...redeleted, ...added]) },
    async *rows(signal?: AbortSignal, onFileRead?: (bytes: number) => void) {
      if (diff.rowsFrom.source === 'change-feed') {
        const net = await netFeedRows(table, from, to, rowSchema, CHANGE, { signal, onFileRead });
        if ('batches' in net) return yield* net.batches;
        diff.rowsFrom = { ...fromFiles, reason: net.reason };
      }
      for (const file of removed) yield* fileRows(newer, file, tag('removed'), { engine, signal, onFileRead });
      for (const file of redeleted) {
        const old = oldFiles.get(file.add.path)!;
        const before = await deletedRows(engine, older, old.add.deletionVector);
        const after = await deletedRows(engine, newer, file.add.deletionVector);
        const beforeSet = new Set(before);
        const newly = after.filter((row) => !beforeSet.has(row));
        if (newly.length > 0) yield* fileRows(newer, old, tag('removed'), { engine, onlyRows: newly, signal, onFileRead });
        else onFileRead?.(file.add.size);
      }
      for (const file of added) yield* fileRows(newer, file, tag('added'), { engine, signal, onFileRead });
    },
  };
  return diff;
}

function sizeOf(files: LiveFile[]): number {
  return files.reduce((sum, f) => sum + f.add.size, 0);
}

function dvKey(dv: DeletionVectorDescriptor | null | undefined): string {
  return dv ? `${dv.storageType}${dv.pathOrInlineDv}@${dv.offset ?? ''}` : '';
}

function deletedRows(engine: EngineContext, snapshot: Snapshot, dv: DeletionVectorDescriptor | null | undefined): Promise<Float64Array> {
  return dv ? loadDeletionVector(engine.storage(snapshot.tableRoot), snapshot.tableRoot, dv) : Promise.resolve(new Float64Array(0));
}

function columnTypes(fields: StructField[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, `${typeLabel(f.type)}${f.nullable ? '' : ' not null'}`]));
}

function protocolValues(snapshot: Snapshot): Record<string, string> {
  const p = snapshot.protocol;
  return {
    minReaderVersion: String(p.minReaderVersion),
    minWriterVersion: String(p.minWriterVersion),
    readerFeatures: (p.readerFeatures ?? []).join(', '),
    writerFeatures: (p.writerFeatures ?? []).join(', '),
  };
}

/** Keys whose value differs, in the newer order then the removed ones. */
function valueChanges(from: Record<string, string>, to: Record<string, string>): VersionChange[] {
  const names = [...new Set([...Object.keys(to), ...Object.keys(from)])];
  return names.filter((n) => from[n] !== to[n]).map((name) => ({ name, from: from[name] ?? null, to: to[name] ?? null }));
}
