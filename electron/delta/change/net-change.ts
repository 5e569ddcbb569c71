// A diff's rows from the change data feed (change-feed.ts), for a range whose every commit records one: the net
// change between the two versions. Each feed row counts +1 (insert, update_postimage) or -1 (delete,
// update_preimage) for its values in the table's columns, and what is left over is the diff: a row inserted and
// deleted inside the range, or copied unchanged into a rewritten file, cancels out. Netting holds every changed row
// in memory (the feed's batches and a text key per distinct row), so it stops at FEED_ROW_LIMIT rows and the diff
// reads the file sets instead, which stream; so it does where a file the feed needs is gone.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import { DeltaportError } from '../../../shared/errors.js';
import { jsonReader } from '../../values/json-value.js';
import { constantData } from '../engine/arrow-data.js';
import type { Snapshot } from '../snapshot.js';
import type { DeltaTable } from '../table.js';
import { changeFeed, commitReads, readBytes, readCount, recordsFeed } from './change-feed.js';

/** Feed rows held for netting before the diff gives up on the feed. A key is the row's values as JSON text, so with
 * the Map entry and the row's share of its Arrow batch a row costs a few hundred bytes for a table of modest width:
 * half a million stay near 100-200 MB, and a diff that large is past what a person reads row by row anyway. */
const FEED_ROW_LIMIT = 500_000;

export type FeedPlan = { files: number; bytes: number } | { files: null; reason: string | null };

/**
 * Whether the feed has every commit in (from, to]: delta.enableChangeDataFeed true after each commit's metaData (the
 * older snapshot's before the first), as Delta requires for reading a commit's changes. Gives how many files the feed
 * reads and their bytes, else why not (null when the feed is off at both ends, which needs no saying).
 */
export async function feedPlan(table: DeltaTable, older: Snapshot, newer: Snapshot, from: number, to: number): Promise<FeedPlan> {
  if (from >= to || (!recordsFeed(older.metadata) && !recordsFeed(newer.metadata))) return { files: null, reason: null };
  let on = recordsFeed(older.metadata);
  let files = 0;
  let bytes = 0;
  for (let version = from + 1; version <= to; version++) {
    const actions = await table.commit(version);
    const metaData = actions.find((a) => a.metaData)?.metaData;
    if (metaData) on = recordsFeed(metaData);
    if (!on) return { files: null, reason: `the change data feed is off at v${version}` };
    const reads = commitReads(actions);
    files += readCount(reads);
    bytes += readBytes(reads);
  }
  return { files, bytes };
}

/** Each row's values in `columns` (nested ones too) as one text: equal texts, equal rows. */
export function rowText(batch: arrow.RecordBatch, columns: string[]): (row: number) => string {
  const readers = columns.map((c) => jsonReader(batch.getChild(c)!));
  return (row) => JSON.stringify(readers.map((read) => read(row)));
}

/**
 * The net change of the feed over (from, to] as rows of `schema` (the table's columns at `to`, then `change`): the
 * removed ones, then the added. Or why not: the feed has more than `limit` rows, or a file of it is gone (VACUUM
 * deletes the files only older versions use, change files among them, while the two versions' own may stay).
 */
export async function netFeedRows(
  table: DeltaTable,
  from: number,
  to: number,
  schema: arrow.Schema,
  change: StructField,
  { signal, onFileRead, limit = FEED_ROW_LIMIT }: { signal?: AbortSignal; onFileRead?: (bytes: number) => void; limit?: number } = {},
): Promise<{ batches: arrow.RecordBatch[] } | { reason: string }> {
  try {
    return await netRows(table, from, to, schema, change, { signal, onFileRead }, limit);
  } catch (err) {
    if (err instanceof DeltaportError && err.code === 'MISSING_FILE') return { reason: 'a file of the change data feed is gone' };
    throw err;
  }
}

async function netRows(
  table: DeltaTable,
  from: number,
  to: number,
  schema: arrow.Schema,
  change: StructField,
  { signal, onFileRead }: { signal?: AbortSignal; onFileRead?: (bytes: number) => void },
  limit: number,
): Promise<{ batches: arrow.RecordBatch[] } | { reason: string }> {
  const feed = await changeFeed(table, from + 1, to);
  const columns = schema.fields.filter((f) => f.name !== change.name).map((f) => f.name);
  const batches: arrow.RecordBatch[] = [];
  const net = new Map<string, { count: number; batch: number; row: number }>();
  let held = 0;
  for await (const batch of feed.rows(signal, onFileRead)) {
    held += batch.numRows;
    if (held > limit) return { reason: `the change data feed has more than ${limit} rows` };
    const text = rowText(batch, columns);
    const type = batch.getChild('_change_type')!;
    for (let r = 0; r < batch.numRows; r++) {
      const key = text(r);
      const sign = type.get(r) === 'insert' || type.get(r) === 'update_postimage' ? 1 : -1;
      const entry = net.get(key);
      if (entry) entry.count += sign;
      else net.set(key, { count: sign, batch: batches.length, row: r });
    }
    batches.push(batch);
  }
  const pick = (sign: number) => {
    const at: [number, number][] = [];
    for (const { count, batch, row } of net.values()) for (let n = 0; n < count * sign; n++) at.push([batch, row]);
    return at.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  };
  return { batches: [...runs(pick(-1), batches, schema, 'removed'), ...runs(pick(1), batches, schema, 'added')] };
}

/** The picked rows as batches of `schema`, one per run of neighbouring rows, with `label` as the change column. */
function runs(picked: [number, number][], batches: arrow.RecordBatch[], schema: arrow.Schema, label: string): arrow.RecordBatch[] {
  const out: arrow.RecordBatch[] = [];
  const data = schema.fields.length - 1;
  for (let i = 0; i < picked.length;) {
    const [batch, first] = picked[i];
    let end = i + 1;
    while (end < picked.length && picked[end][0] === batch && picked[end][1] === first + (end - i)) end++;
    const part = batches[batch].slice(first, first + (end - i));
    const children = [...part.data.children.slice(0, data), constantData(schema.fields[data].type, label, part.numRows)];
    out.push(
      new arrow.RecordBatch(
        schema,
        arrow.makeData({ type: new arrow.Struct(schema.fields), length: part.numRows, nullCount: 0, children }),
      ),
    );
    i = end;
  }
  return out;
}
