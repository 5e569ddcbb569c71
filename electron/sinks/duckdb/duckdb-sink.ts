// The DuckDB sink: a DuckDB database file (created when missing), written through the SQL sink pipeline
// (sql-sink.ts: transactions with the exactly-once ledger, the overwrite's staging table and swap, retries). Each
// transaction's Arrow batches are written to temporary Parquet files as they come (duckdb-parquet-parts.ts), and the
// transaction reads them with DuckDB's own Parquet reader (duckdb-statements.ts), in the same transaction as its
// ledger row. The process holds DuckDB's lock of the file from the export's start to its end, so no other process
// writes into it meanwhile; a second one stops at once, naming the process that holds it.
import { rm } from 'node:fs/promises';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { databaseFileSink } from '../database-file-sink.js';
import type { BatchSink } from '../sink.js';
import { createSqlSink, type SqlSession } from '../sql-sink.js';
import { describeDuckdbTable, duckdbMessage, duckdbRows, openDuckdb } from './duckdb-connection.js';
import { ParquetParts } from './duckdb-parquet-parts.js';
import { landingTableSql, parquetScan, transactionSql } from './duckdb-statements.js';

type DuckdbSinkSpec = Extract<SinkSpec, { kind: 'duckdb' }>;

/** The Parquet bytes at which a transaction ends: few statements and commits (each costs DuckDB a fixed amount of
 * work; a transaction per 5,000-row batch took twice the CPU), yet each INSERT short, so that little is lost to a
 * kill or a cancel: 16 MiB saved only about 6% of the CPU of 4 MiB on COVID-19_NYT. */
const TRANSACTION_BYTES = 4 << 20;

export function createDuckdbSink(spec: DuckdbSinkSpec, { transactionBytes = TRANSACTION_BYTES } = {}): BatchSink {
  let instance: Promise<DuckDBInstance> | null = null;
  const parts = new ParquetParts(`${spec.path}.deltaport-parts`);
  const sink = createSqlSink(spec, {
    dialect: 'duckdb',
    connect: async () => {
      instance ??= openDuckdb(spec.path).then((opened) => {
        parts.reset();
        return opened;
      });
      return duckdbSession(await (await instance).connect());
    },
    encode: () => parts.transaction(),
    transactionBytes,
    release: (files) => parts.remove(files),
    checkBeforeReuse: false,
    explain: duckdbMessage,
  });
  /** Closes the database (DuckDB folds its write-ahead log into the file) and gives its lock up. */
  const closeDatabase = async (): Promise<void> => {
    const opened = instance;
    instance = null;
    const database = await opened?.catch(() => null);
    // Only while this process holds the file's lock is the folder its own.
    if (database) parts.dispose();
    database?.closeSync();
  };
  return databaseFileSink(spec.path, sink, {
    release: closeDatabase,
    removeCreated: async () => {
      await Promise.all(['', '.wal'].map((suffix) => rm(spec.path + suffix, { force: true })));
    },
  });
}

/** A session on one connection of the sink's database. DuckDB runs in this process: a statement returns or throws,
 * and a COMMIT's outcome is never in doubt. */
function duckdbSession(connection: DuckDBConnection): SqlSession<string[]> {
  let writeRows: (files: string[]) => Promise<void> = () => Promise.reject(new Error('the DuckDB session was not prepared'));
  const query = (sql: string, params: unknown[] = []) => duckdbRows(connection, sql, params);
  /** While COMMIT runs: it is not interrupted, so that a COMMIT that fails has not committed (its outcome is never in
   * doubt); it takes no longer than its write-ahead log's write. */
  let committing = false;
  return {
    query,
    begin: async () => void (await query('BEGIN TRANSACTION')),
    commit: async () => {
      committing = true;
      try {
        await query('COMMIT');
      } finally {
        committing = false;
      }
    },
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
      if (keys) await query(landingTableSql(target.fields));
      writeRows = async (files) => {
        if (files.length === 0) return;
        for (const sql of transactionSql(target.table, target.fields, keys, parquetScan(files))) await query(sql);
      };
    },
    writeRows: (files) => writeRows(files),
    ping: async () => true,
    close: async () => connection.closeSync(),
    kill: () => connection.closeSync(),
    interrupt: () => {
      if (!committing) connection.interrupt();
    },
  };
}
