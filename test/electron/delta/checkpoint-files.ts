// Writes checkpoint Parquet files for the reader's tests from plain action objects: one row per action, one nullable
// struct column per action kind, as Spark and delta-rs lay them out (the test writer's columns, delta-writer/checkpoint.ts).
import { writeFileSync } from 'node:fs';
import { Field, Int64, Map_, Struct, Table, Utf8, vectorFromArray, type DataType } from 'apache-arrow';
import type { Json } from '../../support/delta-oracle.js';
import { CHECKPOINT_ACTION_TYPES } from '../../support/delta-writer/checkpoint.js';
import { encodeParquet } from '../../support/delta-writer/parquet-writer.js';

const f = (name: string, type: DataType): Field => new Field(name, type, true);

// The writer's action columns, and the two that only V2 checkpoints and their sidecars have.
const COLUMNS: Record<string, Struct> = {
  ...CHECKPOINT_ACTION_TYPES,
  sidecar: new Struct([f('path', new Utf8()), f('sizeInBytes', new Int64()), f('modificationTime', new Int64())]),
  checkpointMetadata: new Struct([f('version', new Int64())]),
};

// Arrow's builders want bigint for Int64 fields and Map objects for map fields.
function toArrowRow(type: DataType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type instanceof Int64) return BigInt(value as number);
  if (type instanceof Map_) return new Map(Object.entries(value as object));
  if (type instanceof Struct) {
    return Object.fromEntries(type.children.map((c) => [c.name, toArrowRow(c.type, (value as Json)[c.name])]));
  }
  return value;
}

/** Writes `actions` (each one action object, e.g. { add: {...} }) as a checkpoint Parquet file. */
export function writeCheckpointParquet(file: string, actions: Json[]): void {
  const kinds = Object.keys(COLUMNS).filter((kind) => actions.some((a) => a[kind]));
  const columns = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      vectorFromArray(
        actions.map((a) => toArrowRow(COLUMNS[kind], a[kind])),
        COLUMNS[kind],
      ),
    ]),
  );
  const table = new Table(columns);
  writeFileSync(file, encodeParquet(table));
}
