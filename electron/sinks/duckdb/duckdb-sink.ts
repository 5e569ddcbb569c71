// The DuckDB sink: a DuckDB database file (created when missing), written through the SQL sink pipeline
// (sql-sink.ts: transactions with the exactly-once ledger, the overwrite's staging table and swap, retries). Each
// transaction's Arrow batches go in through DuckDB's appender, a data chunk at a time, with nested columns kept native
// (duckdb-cells.ts). The process holds DuckDB's lock of the file from the export's start to its end, so no other
// process writes into it meanwhile; a second one stops at once, naming the process that holds it.
import { rm } from 'node:fs/promises';
import type { RecordBatch } from 'apache-arrow';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { appendBatch } from '../../duckdb/arrow-to-duckdb.js';
import { databaseFileSink } from '../database-file-sink.js';
import type { BatchSink } from '../sink.js';
import { createSqlSink, type SqlSession } from '../sql-sink.js';
import { nativeCellReader } from './duckdb-cells.js';
import { describeDuckdbTable, duckdbMessage, duckdbRows, openDuckdb } from './duckdb-connection.js';
import { appendsDirectly, CLEAR_LANDING_SQL, fromLandingSql, LANDING_TABLE, landingTableSql } from './duckdb-statements.js';

type DuckdbSinkSpec = Extract<SinkSpec, { kind: 'duckdb' }>;

export function createDuckdbSink(spec: DuckdbSinkSpec): BatchSink {
  let instance: Promise<DuckDBInstance> | null = null;
  const sink = createSqlSink(spec, {
    dialect: 'duckdb',
    connect: async () => {
      instance ??= openDuckdb(spec.path);
      return duckdbSession(await (await instance).connect());
    },
    checkBeforeReuse: false,
    explain: duckdbMessage,
  });
  /** Closes the database (DuckDB folds its write-ahead log into the file) and gives its lock up. */
  const closeDatabase = async (): Promise<void> => {
    const opened = instance;
    instance = null;
    (await opened?.catch(() => null))?.closeSync();
  };
  return databaseFileSink(spec.path, sink, {
    release: closeDatabase,
    removeCreated: async () => {
      await Promise.all(['', '.wal'].map((suffix) => rm(spec.path + suffix, { force: true })));
    },
  });
}

/** Writes one transaction's batches. */
type RowWriter = (batches: RecordBatch[]) => Promise<void>;

/** A session on one connection of the sink's database. DuckDB runs in this process: a statement returns or throws,
 * and a COMMIT's outcome is never in doubt. */
function duckdbSession(connection: DuckDBConnection): SqlSession {
  let writeRows: RowWriter = async () => {
    throw new Error('the DuckDB session was not prepared');
  };
  const query = (sql: string, params: unknown[] = []) => duckdbRows(connection, sql, params);
  /** Appends batches to a table of this connection's database (or its temporary one). */
  const append = async (batches: RecordBatch[], table: string, catalog: string | null = null): Promise<void> => {
    const appender = await connection.createAppender(table, catalog ? 'main' : null, catalog);
    try {
      for (const batch of batches) appendBatch(appender, batch, nativeCellReader);
    } finally {
      appender.closeSync();
    }
  };
  return {
    query,
    begin: async () => void (await query('BEGIN TRANSACTION')),
    commit: async () => void (await query('COMMIT')),
    unsettledCommit: () => null,
    committed: async () => false,
    backend: null,
    endBackend: async () => undefined,
    // DuckDB's lock of the file is the claim: this process holds it for the whole export (see createDuckdbSink).
    claim: async () => undefined,
    release: async () => undefined,
    describe: (table) => describeDuckdbTable(connection, table),
    async prepare(target) {
      const keys = target.spec.mode === 'upsert' ? target.spec.keyColumns! : null;
      if (appendsDirectly(target.fields, keys, await describeDuckdbTable(connection, target.table))) {
        writeRows = (batches) => append(batches, target.table);
        return;
      }
      await query(landingTableSql(target.fields));
      const merge = fromLandingSql(target.table, target.fields, keys);
      writeRows = async (batches) => {
        await query(CLEAR_LANDING_SQL);
        await append(batches, LANDING_TABLE, 'temp');
        await query(merge);
      };
    },
    writeRows: (batches) => writeRows(batches),
    ping: async () => true,
    close: async () => connection.closeSync(),
    kill: () => connection.closeSync(),
  };
}
