// Rows of chosen data files, read as a snapshot reads them (its schema, column mapping, partition values, the
// files' deletion vectors), with constant columns added: what a diff and a change feed are made of.
import * as arrow from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import type { Scalar } from '../engine/arrow-data.js';
import { constantData } from '../engine/arrow-data.js';
import { toArrowField } from '../scan/arrow-types.js';
import { scan } from '../scan/scan.js';
import type { LiveFile, Snapshot } from '../snapshot.js';
import type { EngineContext } from '../engine/engine-context.js';

export interface ConstantColumn {
  field: arrow.Field;
  value: Scalar;
}

export interface FileRowsOptions {
  /** Extra fields the files hold besides the schema's (a change file's _change_type). */
  extraFields?: StructField[];
  /** Only the rows at these physical positions of the file (sorted), out of those its deletion vector keeps. */
  onlyRows?: Float64Array;
  /** Where the file and its deletion vector are read from: the table's engine. */
  engine: EngineContext;
  signal?: AbortSignal;
  /** Told the file's size once its rows are all yielded: an export's progress. */
  onFileRead?: (bytes: number) => void;
}

/** The file's rows (data columns, then `constants` after them) in batches of up to `batchSize`. */
export async function* fileRows(
  snapshot: Snapshot,
  file: LiveFile,
  constants: ConstantColumn[],
  options: FileRowsOptions,
  batchSize = 2048,
): AsyncGenerator<arrow.RecordBatch> {
  const fields = [...snapshot.schema.fields, ...(options.extraFields ?? [])];
  const view: Snapshot = { ...snapshot, schema: { type: 'struct', fields }, files: [file] };
  const schema = new arrow.Schema([...fields.map(toArrowField), ...constants.map((c) => c.field)]);
  const wanted = options.onlyRows ? keptOrdinals(options.onlyRows, await deletedRows(options.engine, snapshot, file)) : null;
  for await (const { batch, end } of scan(view, { batchSize, signal: options.signal, engine: options.engine })) {
    const first = end.rowsInFile - batch.numRows;
    for (const [from, to] of wanted ? runsOf(wanted, first, batch.numRows) : [[0, batch.numRows]]) {
      const part = from === 0 && to === batch.numRows ? batch : batch.slice(from, to);
      const children = [...part.data.children, ...constants.map((c) => constantData(c.field.type, c.value, part.numRows))];
      yield new arrow.RecordBatch(
        schema,
        arrow.makeData({ type: new arrow.Struct(schema.fields), length: part.numRows, nullCount: 0, children }),
      );
    }
  }
  options.onFileRead?.(file.add.size);
}

async function deletedRows(engine: EngineContext, snapshot: Snapshot, file: LiveFile): Promise<Float64Array> {
  if (!file.add.deletionVector) return new Float64Array(0);
  const { loadDeletionVector } = await import('../scan/deletion-vectors.js');
  return loadDeletionVector(engine.storage(snapshot.tableRoot), snapshot.tableRoot, file.add.deletionVector);
}

/** Ordinals among the rows the deletion vector keeps of the given physical rows (none of them deleted). */
function keptOrdinals(rows: Float64Array, deleted: Float64Array): Float64Array {
  const out = new Float64Array(rows.length);
  let d = 0;
  rows.forEach((row, i) => {
    while (d < deleted.length && deleted[d] < row) d++;
    out[i] = row - d;
  });
  return out;
}

/** [from, to) runs, relative to a batch of `length` rows starting at ordinal `first`, of the wanted ordinals. */
function runsOf(wanted: Float64Array, first: number, length: number): [number, number][] {
  const runs: [number, number][] = [];
  for (const ordinal of wanted) {
    const at = ordinal - first;
    if (at < 0 || at >= length) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === at) last[1]++;
    else runs.push([at, at + 1]);
  }
  return runs;
}
