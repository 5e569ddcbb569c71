// A data file's statistics as the log records them (PROTOCOL.md "Per-file Statistics"): numRecords, and minValues,
// maxValues and nullCount keyed by physical column name, nested like the schema. From the add's JSON `stats`, or,
// for adds read from a Parquet checkpoint (which carry none, see checkpoint-reader.ts), from the checkpoint's `stats`
// or `stats_parsed` column. stats_parsed values are turned into the JSON form (dates and timestamps as text,
// numbers as numbers) so that every consumer reads one form.
import { DateUnit, Type, type Data, type Date_ as DateType, type Decimal, type Field, type Struct } from 'apache-arrow';
import { formatDays } from '../../../shared/timestamp.js';
import { utf8Reader, validity } from '../engine/arrow-buffers.js';
import { nullable, structChild } from '../engine/arrow-columns.js';
import type { Storage } from '../../storage/storage.js';
import type { CheckpointState } from '../log/checkpoint-reader.js';
import { openParquet } from '../engine/parquet-file.js';
import { valueReader } from './arrow-values.js';

export type StatsTree = { [name: string]: unknown };

export interface FileStats {
  numRecords?: number;
  minValues?: StatsTree;
  maxValues?: StatsTree;
  nullCount?: StatsTree;
}

export function parseStats(stats: string | null | undefined): FileStats | null {
  if (!stats) return null;
  try {
    const parsed: unknown = JSON.parse(stats);
    return parsed !== null && typeof parsed === 'object' ? (parsed as FileStats) : null;
  } catch {
    return null;
  }
}

/** Statistics per add.path of the adds a checkpoint holds in Parquet; null where a file has none. */
export async function checkpointStats(storage: Storage, state: CheckpointState): Promise<Map<string, FileStats | null>> {
  const stats = new Map<string, FileStats | null>();
  for (const file of state.parquetAddSources) {
    const handle = await openParquet(storage, file);
    try {
      const add = handle.schema.fields.find((f) => f.name === 'add');
      const addFields = ((add?.type.children ?? []) as Field[]).map((f) => f.name);
      if (!addFields.includes('path')) continue;
      const columns = ['add.path', ...['stats', 'stats_parsed'].filter((n) => addFields.includes(n)).map((n) => `add.${n}`)];
      for (const batch of (await handle.read({ columns })).batches) {
        const addData = batch.data.children[batch.schema.fields.findIndex((f) => f.name === 'add')];
        const paths = nullable(structChild(addData, 'path'), utf8Reader);
        const json = nullable(structChild(addData, 'stats'), utf8Reader);
        const parsedData = structChild(addData, 'stats_parsed');
        const parsed = parsedData ? jsonFormReader(parsedData) : () => null;
        for (let i = 0; i < batch.numRows; i++) {
          const path = paths(i);
          if (path !== null) stats.set(path, parseStats(json(i)) ?? (parsed(i) as FileStats | null));
        }
      }
    } finally {
      handle.close();
    }
  }
  return stats;
}

type Reader = (row: number) => unknown;

/** Rows of a stats_parsed column in the form JSON stats have. */
function jsonFormReader(data: Data): Reader {
  if (data.type.typeId === Type.Struct) {
    const children = (data.type as Struct).children.map((f, k) => [f.name, jsonFormReader(data.children[k])] as const);
    const valid = validity(data);
    return (row) => {
      if (!valid(row)) return null;
      const out: StatsTree = {};
      for (const [name, read] of children) {
        const v = read(row);
        if (v !== null) out[name] = v;
      }
      return out;
    };
  }
  const read = valueReader(data);
  switch (data.type.typeId) {
    case Type.Date:
      return (row) => {
        const v = read(row) as number | bigint | null;
        // Date64 counts milliseconds.
        return v === null
          ? null
          : formatDays((data.type as DateType).unit === DateUnit.DAY ? Number(v) : Math.floor(Number(v) / 86_400_000));
      };
    case Type.Timestamp:
      return (row) => {
        const v = read(row) as bigint | null;
        return v === null ? null : new Date(Number(v / 1000n) - (v % 1000n < 0n ? 1 : 0)).toISOString();
      };
    case Type.Decimal: {
      const divisor = 10 ** (data.type as Decimal).scale;
      return (row) => {
        const v = read(row) as bigint | null;
        return v === null ? null : Number(v) / divisor;
      };
    }
    default:
      return (row) => {
        const v = read(row);
        return typeof v === 'bigint' ? Number(v) : v;
      };
  }
}
