// Upsert keys must not be NULL, in either dialect: SQLite's unique indexes take any number of NULL keys (a rerun
// would add those rows again) and PostgreSQL's primary key refuses them in the middle of an export. Key columns that
// the Delta schema declares nullable are therefore read once, before anything is written, and a NULL in any of them
// refuses the export (the plan shows the same refusal).
import { isSqlSink, type SinkSpec } from '../../shared/sink-spec.js';
import { openSource, type DeltaSource } from '../delta/source.js';

export async function nullKeyProblem(source: DeltaSource, sink: SinkSpec, signal?: AbortSignal): Promise<string | null> {
  if (!isSqlSink(sink) || sink.mode !== 'upsert') return null;
  const nullable = (sink.keyColumns ?? []).filter((key) => source.fields.find((f) => f.name === key)?.nullable);
  if (nullable.length === 0) return null;
  // The same snapshot of the same table (read through its engine) as the export, only its nullable key columns.
  const keys = await openSource(
    { tablePath: source.table.root, columnNames: nullable, versionAsOf: source.snapshot.version },
    async () => source.table,
  );
  const nulls = nullable.map(() => 0);
  for await (const { batch } of keys.batches({ signal })) {
    for (let c = 0; c < nullable.length; c++) nulls[c] += batch.getChildAt(c)!.nullCount;
  }
  const found = nullable.map((key, c) => [key, nulls[c]] as const).filter(([, n]) => n > 0);
  if (found.length === 0) return null;
  const which = found.map(([key, n]) => `"${key}" is NULL in ${n} rows`).join(', ');
  return `upsert keys must not be NULL: ${which}; choose key columns without NULLs`;
}
