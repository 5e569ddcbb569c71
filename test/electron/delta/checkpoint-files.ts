// Writes checkpoint Parquet files for the reader's tests from plain action objects: one row per action, one nullable
// struct column per action kind, as Spark and delta-rs lay them out.
import { writeFileSync } from 'node:fs';
import { Bool, Field, Int32, Int64, List, Map_, Struct, Table, Utf8, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import * as wasm from 'parquet-wasm/node';
import type { Json } from '../../support/delta-oracle.js';

const f = (name: string, type: DataType): Field => new Field(name, type, true);
const stringMap = (): Map_ =>
  new Map_(new Field('key_value', new Struct([new Field('key', new Utf8(), false), f('value', new Utf8())]), false));
const stringList = (): List => new List(f('element', new Utf8()));

const COLUMNS: Record<string, Struct> = {
  protocol: new Struct([
    f('minReaderVersion', new Int32()),
    f('minWriterVersion', new Int32()),
    f('readerFeatures', stringList()),
    f('writerFeatures', stringList()),
  ]),
  metaData: new Struct([
    f('id', new Utf8()),
    f('format', new Struct([f('provider', new Utf8()), f('options', stringMap())])),
    f('schemaString', new Utf8()),
    f('partitionColumns', stringList()),
    f('configuration', stringMap()),
    f('createdTime', new Int64()),
  ]),
  add: new Struct([
    f('path', new Utf8()),
    f('partitionValues', stringMap()),
    f('size', new Int64()),
    f('modificationTime', new Int64()),
    f('dataChange', new Bool()),
    f('stats', new Utf8()),
    f(
      'deletionVector',
      new Struct([
        f('storageType', new Utf8()),
        f('pathOrInlineDv', new Utf8()),
        f('offset', new Int32()),
        f('sizeInBytes', new Int32()),
        f('cardinality', new Int64()),
      ]),
    ),
  ]),
  remove: new Struct([f('path', new Utf8()), f('deletionTimestamp', new Int64()), f('dataChange', new Bool())]),
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
  writeFileSync(file, wasm.writeParquet(wasm.Table.fromIPCStream(tableToIPC(table, 'stream'))));
}
