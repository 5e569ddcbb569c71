// The source spec: what to read from a Delta table. Shaped after Flink's bounded Delta source builder.
// Pure validation (validateSourceSpec) lives here so the UI can validate as the user types; checks that need the
// table itself (column names, version range) happen in electron/delta/source.ts when the source is built.

export type OptionValue = string | boolean | number;

export interface DeltaSourceSpec {
  tablePath: string;
  /** Columns to read, in this order; absent means every column in schema order. */
  columnNames?: string[] | null;
  versionAsOf?: number;
  /** One of the six accepted UTC formats, see shared/timestamp.ts. */
  timestampAsOf?: string;
  options?: Record<string, OptionValue>;
}
