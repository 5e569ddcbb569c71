// An export request turned into its Spark job: the source is opened (so the version is resolved, the columns and
// their types are known and the filter is checked against them) and checked exactly as an export checks it; nothing
// is read from the data files and the target is not contacted.
import { validationError } from '../../shared/errors.js';
import { exportSinkProblems, type MysqlConnection, type PostgresConnection, type SinkSpec } from '../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import { openSource } from '../delta/source.js';
import type { DeltaTable } from '../delta/table.js';
import { AtomicFile } from '../sinks/atomic-file.js';
import { canonicalLocation, type StorageResolver } from '../storage/storage.js';
import { sparkCondition } from './spark-filter.js';
import { renderSparkJob, type MysqlServer, type PgServer } from './spark-job.js';

export async function sparkJobFor(
  sourceSpec: DeltaSourceSpec,
  sinkSpec: SinkSpec,
  openTable: (tablePath: string) => Promise<DeltaTable>,
): Promise<string> {
  const source = await openSource(sourceSpec, openTable);
  const problems = exportSinkProblems(sinkSpec, source.columns);
  if (problems.length > 0) throw validationError(problems);
  // The job may run from another folder: every local path is written absolute.
  const sink: SinkSpec = 'path' in sinkSpec ? { ...sinkSpec, path: canonicalLocation(sinkSpec.path) } : sinkSpec;
  const timestampAsOf = sourceSpec.timestampAsOf ?? sourceSpec.options?.timestampAsOf;
  const versionAsOf = sourceSpec.versionAsOf ?? sourceSpec.options?.versionAsOf;
  return renderSparkJob({
    tablePath: canonicalLocation(sourceSpec.tablePath),
    tableId: source.snapshot.metadata.id,
    version: source.snapshot.version,
    requested: {
      timestampAsOf: timestampAsOf === undefined ? undefined : String(timestampAsOf),
      versionAsOf: versionAsOf === undefined ? undefined : Number(versionAsOf),
    },
    fields: source.fields,
    where: source.filter ? { condition: sparkCondition(source.filter.expr), text: sourceSpec.filter!.trim() } : undefined,
    sink,
    server: sink.kind === 'postgres' ? await pgServer(sink.connection) : undefined,
    mysqlServer: sink.kind === 'mysql' ? await mysqlServer(sink.connection) : undefined,
  });
}

/** The MySQL server Deltaport itself would connect to (mysql-connection.ts), less the credentials. */
async function mysqlServer(connection: MysqlConnection): Promise<MysqlServer> {
  const { mysqlConfig } = await import('../sinks/mysql/mysql-connection.js');
  const { host, port, database, ssl, connectTimeoutMs } = mysqlConfig(connection);
  return { host, port, database, ssl, connectTimeoutMs };
}

/** The server Deltaport itself would connect to, by the same rules (pg-connection.ts), less the credentials. */
async function pgServer(connection: PostgresConnection): Promise<PgServer> {
  const { clientConfig } = await import('../sinks/pg-connection.js');
  const config = clientConfig(connection);
  const ssl = config.ssl;
  return {
    host: config.host ?? 'localhost',
    port: config.port ?? 5432,
    database: config.database,
    sslmode:
      ssl === false || ssl === undefined
        ? 'disable'
        : typeof ssl === 'object' && ssl.rejectUnauthorized === false
          ? 'require'
          : 'verify-full',
    connectTimeoutMs: config.connectionTimeoutMillis ?? 10_000,
  };
}

/** Writes the script beside `out` and renames it into place, so a failure leaves no half-written job. */
export async function saveSparkJob(script: string, out: string, storage: StorageResolver): Promise<string> {
  const file = await AtomicFile.create(out, storage);
  try {
    await file.write(script);
    await file.commit();
  } finally {
    await file.discard();
  }
  return file.target;
}
