// The sink spec: where an export goes and how it is written. Shaped after Flink's JdbcSink (execution options with
// its names and defaults, connection options, exactly-once).

export type WriteMode = 'append' | 'overwrite' | 'upsert' | 'sql';

export interface ExecutionOptions {
  /** Rows per batch (= per transaction). Default 5000. */
  batchSize: number;
  /** Flush a partial batch after this long; 0 = off. Default 0. */
  batchIntervalMs: number;
  /** Retries of a batch after a transient error. Default 3. */
  maxRetries: number;
}

export interface PostgresConnection {
  /** postgres://user:password@host:port/db?sslmode=... ; when given, the fields below override its parts. */
  url?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean;
  connectTimeoutMs?: number;
  /** Check a pooled connection with a round trip before reusing it. */
  checkBeforeReuse?: boolean;
}

export interface SqlTargetOptions {
  /** Target table name; defaults to the Delta table folder's name. */
  table: string;
  mode: WriteMode;
  /** Key columns for upsert. */
  keyColumns?: string[];
  /** The user's own DML with :column parameters, for mode 'sql'. */
  sql?: string;
  execution: ExecutionOptions;
  exactlyOnce: boolean;
}

export type SinkSpec =
  | ({ kind: 'sqlite'; path: string } & SqlTargetOptions)
  | ({ kind: 'postgres'; connection: PostgresConnection } & SqlTargetOptions)
  | { kind: 'parquet' | 'csv' | 'jsonl'; path: string };

export type SinkKind = SinkSpec['kind'];

export const DEFAULT_EXECUTION: ExecutionOptions = { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 };

/** What a dry run reports before anything is written. */
export interface ExportPlan {
  sink: SinkKind;
  target: string;
  /** DDL that will run (empty when the target exists and is compatible). */
  ddl: string[];
  /** The statement each batch uses (INSERT/COPY/upsert/user SQL), or the file that will be written. */
  statement: string;
  targetExists: boolean;
  /** Null when compatible or not applicable; otherwise why the existing target cannot take this export. */
  incompatibility: string | null;
}

export interface ConnectionReport {
  serverVersion: string;
  targetExists: boolean;
}
