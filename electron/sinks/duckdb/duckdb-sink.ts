// The DuckDB sink: a DuckDB database file (created when missing), written through the SQL sink pipeline
// (sql-sink.ts: transactions with the exactly-once ledger, the overwrite's staging table and swap, retries). Where the
// row source offers a snapshot's own data files (duckdb/own-files.ts), DuckDB reads them itself, a range of whole files
// a transaction (duckdb-own-files.ts); else each transaction's Arrow batches are written to temporary Parquet files as
// they come (duckdb-parquet-parts.ts). Either way the transaction reads its rows with DuckDB's own Parquet reader
// (duckdb-statements.ts), in the same transaction as its ledger row. The process holds DuckDB's lock of the file from
// the export's start to its end, so no other process writes into it meanwhile; a second one stops at once, naming the
// process that holds it.
import { rm } from 'node:fs/promises';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { DeltaportError } from '../../../shared/errors.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { databaseFileSink } from '../database-file-sink.js';
import type { OwnFiles } from '../../duckdb/own-files.js';
import type { BatchSink, WrittenRows } from '../sink.js';
import { createSqlSink, type SqlSession } from '../sql-sink.js';
import { quoteName } from '../../../shared/sql-quote.js';
import { describeDuckdbTable, duckdbMessage, duckdbRows, openDuckdb } from './duckdb-connection.js';
import { ParquetParts } from './duckdb-parquet-parts.js';
import { ownFileWrites, type DuckdbRows } from './duckdb-own-files.js';
import { landingTableSql, OWN_FILES_VIEW, parquetScan, transactionSql } from './duckdb-statements.js';

type DuckdbSinkSpec = Extract<SinkSpec, { kind: 'duckdb' }>;

/** The Parquet bytes at which a transaction ends: few statements and commits (each costs DuckDB a fixed amount of
 * work; a transaction per 5,000-row batch took twice the CPU), yet each INSERT short, so that little is lost to a
 * kill or a cancel: 16 MiB saved only about 6% of the CPU of 4 MiB on COVID-19_NYT. */
const TRANSACTION_BYTES = 4 << 20;
/** The same for a range of the snapshot's own files (compressed bytes, from an eighth of it for the first: see
 * duckdb-own-files.ts): DuckDB reads a range's files on all its threads, a file to a thread, so ranges of several
 * files keep them busy (a file to a transaction took about 1.5 times the CPU of one range for the whole table, in
 * single runs on the benchmark's wide table of 4.7 MB files). */
const FILE_TRANSACTION_BYTES = 32 << 20;

export function createDuckdbSink(
  spec: DuckdbSinkSpec,
  { transactionBytes = TRANSACTION_BYTES, fileTransactionBytes = FILE_TRANSACTION_BYTES } = {},
): BatchSink {
  let instance: Promise<DuckDBInstance> | null = null;
  const parts = new ParquetParts(`${spec.path}.deltaport-parts`);
  /** The snapshot's own files, once the sink has taken them. */
  let ownFiles: OwnFiles | null = null;
  const database = async (): Promise<DuckDBInstance> =>
    (instance ??= openDuckdb(spec.path).then((opened) => {
      parts.reset();
      return opened;
    }));
  const sink = createSqlSink<DuckdbRows>(spec, {
    dialect: 'duckdb',
    connect: async () => duckdbSession(await (await database()).connect(), () => ownFiles),
    encode: () => parts.transaction(),
    transactionBytes,
    release: (rows) => {
      if (Array.isArray(rows)) parts.remove(rows);
    },
    checkBeforeReuse: false,
    explain: duckdbMessage,
  });
  let writes: AsyncIterable<WrittenRows> | null = null;
  const reading: BatchSink = {
    async open(ctx) {
      const position = await sink.open(ctx);
      const offered = (await ctx.ownFiles?.()) ?? null;
      if (offered) {
        writes = await ownFileWrites(sink, offered, async () => (await database()).connect(), fileTransactionBytes).catch(
          (err: unknown) => {
            throw new DeltaportError('SINK_WRITE', `cannot read the table's data files: ${duckdbMessage(err)}`);
          },
        );
        if (writes) ownFiles = offered;
      }
      return position;
    },
    write: (batch) => sink.write(batch),
    close: () => sink.close(),
    abort: () => sink.abort(),
    counts: () => sink.counts(),
    readsOwnFiles: () => writes,
  };
  /** Closes the database (DuckDB folds its write-ahead log into the file) and gives its lock up. */
  const closeDatabase = async (): Promise<void> => {
    const opened = instance;
    instance = null;
    const database = await opened?.catch(() => null);
    // Only while this process holds the file's lock is the folder its own.
    if (database) parts.dispose();
    database?.closeSync();
  };
  return databaseFileSink(spec.path, reading, {
    release: closeDatabase,
    removeCreated: async () => {
      await Promise.all(['', '.wal'].map((suffix) => rm(spec.path + suffix, { force: true })));
    },
  });
}

/** A session on one connection of the sink's database. DuckDB runs in this process: a statement returns or throws,
 * and a COMMIT's outcome is never in doubt. */
function duckdbSession(connection: DuckDBConnection, ownFiles: () => OwnFiles | null): SqlSession<DuckdbRows> {
  let writeRows: (rows: DuckdbRows) => Promise<void> = () => Promise.reject(new Error('the DuckDB session was not prepared'));
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
      /** The scan of a transaction's rows: its Parquet parts, or a view of its range of the snapshot's own files (in
       * the reader's order for an upsert, whose last row of a key wins). */
      const scan = async (rows: DuckdbRows): Promise<string | null> => {
        if (Array.isArray(rows)) return rows.length === 0 ? null : parquetScan(rows);
        await ownFiles()!.view(connection, OWN_FILES_VIEW, rows, keys !== null);
        return `temp.main.${quoteName(OWN_FILES_VIEW)}`;
      };
      writeRows = async (rows) => {
        const from = await scan(rows);
        if (from === null) return;
        for (const sql of transactionSql(target.table, target.fields, keys, from)) await query(sql);
      };
    },
    writeRows: (rows) => writeRows(rows),
    ping: async () => true,
    close: async () => connection.closeSync(),
    kill: () => connection.closeSync(),
    interrupt: () => {
      if (!committing) connection.interrupt();
    },
  };
}
