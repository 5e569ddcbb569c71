// The PostgreSQL sink: appends and overwrites stream COPY data (binary where the target's column types take it,
// else text) straight from the Arrow columns, one COPY per transaction of consecutive batches, spread over several
// connections; upserts COPY into a session's temporary table and merge from it with INSERT ... ON CONFLICT (over one
// connection) or into a staging table per connection merged at the end (over several); mode 'sql' runs the user's statement
// (prepared once per connection) for each row, a transaction per batch.
import type { RecordBatch } from 'apache-arrow';
import type pg from 'pg';
import { DEFAULT_PG_CONNECTIONS, type SinkSpec } from '../../shared/sink-spec.js';
import { parseNamedParams, toPositional } from '../../shared/sql-params.js';
import { isNullAt } from '../delta/engine/arrow-buffers.js';
import { pgTextReader } from './column-values.js';
import { DeltaportError } from '../../shared/errors.js';
import { binaryCopyFits, binaryCopyReads } from './copy-binary.js';
import { CommittedCopy, CopyIn, type AfterStatement } from './copy-in.js';
import { SlabPool } from './copy-output.js';
import { CopyRows } from './copy-rows.js';
import type { SqlStatement } from './exactly-once.js';
import { advisoryKeys, alreadyRunning, ownerLabel } from './job-claim.js';
import {
  clientConfig,
  connectPg,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  describePgTable,
  dropLink,
  pgMessage,
  type PgLink,
} from './pg-connection.js';
import type { BatchSink } from './sink.js';
import { serverExchanges } from './server-exchanges.js';
import { batchesAsTheyAre, createSqlSink, type SqlSession, type TransactionRows, type WriteTarget } from './sql-sink.js';
import {
  copySql,
  UPSERT_TEMP,
  upsertArrivalSql,
  upsertMergeSql,
  upsertStageSql,
  upsertStagesMergeSql,
  upsertTempSql,
} from './sql-statements.js';

/** Where a COPY transaction ends: every COPY costs the server a fixed ~4 ms besides its rows (PostgreSQL 17: a
 * 2M-row load in 400 COPYs of 5,000 rows took 1.5 s longer than in one, within one transaction or in 400), so batches
 * share a COPY up to this much data. On the benchmark's 2M-row table (230 MB of binary COPY) that is 29 COPYs, whose
 * fixed cost is then ~0.1 s; two transactions of it are in memory at once (MAX_UNCOMMITTED), and 16 MiB raised the
 * export's peak RSS by another ~30 MB for a gain lost in the noise. */
export const TRANSACTION_BYTES = 8 << 20;
/** One transaction being sent and one being filled. The server is the slower side, so a second complete transaction
 * waiting behind the one it works on gained nothing: without it the benchmark's 2M-row export peaked 10-14 MB lower
 * (207 -> 193 MB) at the same wall and CPU time (medians of 8-10 interleaved pairs: 0.94-0.99x, 0.98-1.00x). */
const MAX_UNCOMMITTED = 1;

/** `transactionBytes` is for tests that need many transactions of few rows. */
export function createPostgresSink(
  spec: Extract<SinkSpec, { kind: 'postgres' }>,
  { transactionBytes = TRANSACTION_BYTES } = {},
): BatchSink {
  const password = clientConfig(spec.connection).password;
  const timeoutMs = spec.connection.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const format: CopyFormat = { binary: false };
  const lanes = spec.mode === 'sql' ? 1 : (spec.connections ?? DEFAULT_PG_CONNECTIONS);
  const slabs = new SlabPool((MAX_UNCOMMITTED + lanes) * transactionBytes);
  return createSqlSink<PgRows>(spec, {
    dialect: 'postgres',
    connect: async (owner) => pgSession(await connectPg(spec.connection, ownerLabel(owner)), timeoutMs, format),
    checkBeforeReuse: spec.connection.checkBeforeReuse ?? true,
    explain: (err) => pgMessage(err, typeof password === 'string' ? password : undefined),
    encode: (target) => transactionRows(target, format, slabs),
    // Mode 'sql' runs a statement per row: nothing gained by larger transactions.
    transactionBytes: spec.mode === 'sql' ? undefined : transactionBytes,
    // COPY data is encoded into the transaction's slabs as each batch comes; mode 'sql' binds the values from the
    // batches themselves, kept until the commit (and a retry).
    encodeCopies: spec.mode !== 'sql',
    release: (rows) => {
      if ('slabs' in rows) slabs.give(rows.slabs);
    },
    maxUncommitted: MAX_UNCOMMITTED,
    lanes,
    stageUpserts: true,
  });
}

/** A transaction's rows as sent: a COPY stream, its format and the slabs it lies in, or (mode 'sql') the batches
 * whose values are bound row by row. */
type PgRows = { copyData: Buffer[]; binary: boolean; slabs: Buffer[] } | { batches: RecordBatch[] };

/** Whether the COPY target takes binary COPY, decided from its column types each time a session prepares. */
interface CopyFormat {
  binary: boolean;
}

type RowWriter = (rows: PgRows, firstRow: number) => Promise<void>;

/** How a prepared session writes: its rows inside a transaction, and (COPY modes) the statements of a whole one. */
interface RowWriters {
  write: RowWriter;
  copy: { sql: (binary: boolean) => string; after: string[]; before: (firstRow: number) => AfterStatement[] } | null;
}

/** Mode 'sql': the batches as they are; else the transaction's COPY stream, binary where the target takes it and
 * the batches' columns are in a layout the binary encoder writes. */
function transactionRows({ fields, spec }: WriteTarget, format: CopyFormat, pool: SlabPool): TransactionRows<PgRows> {
  if (spec.mode === 'sql') {
    const batches = batchesAsTheyAre();
    return { ...batches, finish: () => ({ batches: batches.finish() }) };
  }
  let copy: CopyRows | null = null;
  const binaryFor = (chunks: RecordBatch[]) => format.binary && binaryCopyReads(chunks, fields);
  return {
    accepts: (chunks) => copy === null || copy.binary === binaryFor(chunks),
    async add(chunks) {
      copy ??= new CopyRows(binaryFor(chunks), fields, pool);
      await copy.add(chunks);
    },
    get bytes() {
      return copy?.bytes ?? 0;
    },
    finish() {
      if (!copy) throw new Error('a COPY transaction needs rows');
      return { copyData: copy.finish(), binary: copy.binary, slabs: copy.slabs };
    },
  };
}

function pgSession(link: PgLink, timeoutMs: number, format: CopyFormat): SqlSession<PgRows> {
  const { client } = link;
  const backend = (client as unknown as { processID?: number }).processID ?? null;
  let writers: RowWriters | null = null;
  let target: WriteTarget | null = null;
  const prepared = (): RowWriters => {
    if (!writers) throw new Error('the PostgreSQL session was not prepared');
    return writers;
  };
  const exchanges = serverExchanges('PostgreSQL', timeoutMs, () => dropLink(link));
  const { answered } = exchanges;
  const query = async (sql: string, params?: unknown[]) => (await answered(client.query(sql, params))).rows as Record<string, unknown>[];
  /** The id of the transaction whose COMMIT is out and unanswered (cleared by the answer, whatever it says). */
  let inDoubt: () => string | null = () => null;
  let xid: string | null = null;
  const begin = async () => {
    const results = (await answered(client.query('BEGIN; SELECT pg_current_xact_id() AS xid'))) as unknown as pg.QueryResult[];
    xid = String(results[1].rows[0].xid);
  };
  const commit = async () => {
    const id = xid;
    inDoubt = () => id;
    await answered(client.query('COMMIT'));
    inDoubt = () => null;
  };
  // Mode 'sql' times each of its statements (statementWriter); a COPY is one exchange, timed whole.
  const writeRows = (rows: PgRows, firstRow: number) =>
    'batches' in rows ? prepared().write(rows, firstRow) : answered(prepared().write(rows, firstRow));
  return {
    query,
    describe: (table) => answered(describePgTable(client, table)),
    async prepare(prepared) {
      writers = await answered(rowWriters(client, prepared, format, answered));
      target = prepared;
    },
    writeRows,
    async writeCommitted(rows, firstRow, after) {
      const { copy } = prepared();
      if (!copy) {
        await begin();
        await writeRows(rows, firstRow);
        for (const { text, values } of after) await query(text, values);
        await commit();
        return;
      }
      if (!('copyData' in rows)) throw new Error('COPY needs the rows as COPY data');
      const statements = [...copy.after.map((text) => ({ text })), ...after.map(textParams)];
      const exchange = new CommittedCopy(copy.sql(rows.binary), statements, rows.copyData, copy.before(firstRow));
      inDoubt = () => (exchange.commitSent ? exchange.xid : null);
      await answered(submit(client, exchange, firstRow));
      inDoubt = () => null;
    },
    begin,
    commit,
    unsettledCommit: () => inDoubt(),
    async committed(id) {
      const [row] = await query('SELECT pg_xact_status($1::xid8) AS status', [id]);
      if (row.status === 'committed') return true;
      if (row.status === 'aborted') return false;
      throw new DeltaportError('SINK_CONNECTION', `the transaction of a lost connection (${id}) is still ${row.status ?? 'unknown'}`);
    },
    backend,
    async endBackend(pid) {
      // Only that backend, and only while it still carries this run's name (a pid can be reused).
      await query(
        `SELECT pg_terminate_backend(pid, $2) FROM pg_stat_activity WHERE pid = $1 AND application_name = current_setting('application_name')`,
        [pid, Math.floor(timeoutMs / 2)],
      );
    },
    async claim(job, _owner, { index, ours }) {
      const [k1, k2] = advisoryKeys(job);
      const writers = writersLock(job);
      /** The other sessions holding the lock (an advisory lock of two int4 keys is objsubid 2, of one int8 1). */
      const holders = async ([classid, objid, subid]: [number, number, number]) =>
        await query(
          `SELECT a.pid, a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = $3
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND l.pid <> $4`,
          [classid, objid, subid, backend ?? 0],
        );
      const anotherRun = (rows: Record<string, unknown>[]) => rows.find((row) => !ours(Number(row.pid)));
      if (index === 0) {
        // The job's claim, held by the first lane for the whole job; no other run may still have a lane writing.
        const [mine] = await query('SELECT pg_try_advisory_lock($1, $2) AS ok', [k1, k2]);
        if (!mine.ok) throw busy((await holders([k1, k2, 2]))[0] ?? null);
        const lane = anotherRun(await holders(writers.lock));
        if (lane) {
          await query('SELECT pg_advisory_unlock($1, $2)', [k1, k2]);
          throw busy(lane);
        }
        return;
      }
      // A later lane writes only beside its own run's first lane, and keeps another run from claiming the job.
      await query('SELECT pg_advisory_lock_shared($1::bigint)', [writers.key]);
      const [claimant] = await holders([k1, k2, 2]);
      if (claimant === undefined) throw new DeltaportError('SINK_CONNECTION', "the export's first connection is being made again");
      if (!ours(Number(claimant.pid))) throw busy(claimant);
    },
    async mergeStages(stages) {
      if (!target?.spec.keyColumns) throw new Error('only an upsert merges staging tables');
      await query(upsertStagesMergeSql(target.table, target.fields, target.spec.keyColumns, stages));
    },
    // Not left to the session's end, which the server may see later than the next run's claim.
    async release() {
      await query('SELECT pg_advisory_unlock_all()');
    },
    ping: async () => !link.broken && (await exchanges.alive(query)),
    async close() {
      if (link.broken) dropLink(link);
      else await exchanges.bounded(client.end());
    },
    kill() {
      dropLink(link);
    },
  };
}

/** The lock every later lane of a run holds (shared) while it writes: the job's key as one int8, which no lock of two
 * int4 keys can be. */
function writersLock(job: string): { key: string; lock: [number, number, number] } {
  const [k1, k2] = advisoryKeys(job);
  const key = (BigInt(k1) << 28n) | BigInt(k2);
  return { key: String(key), lock: [Number(key >> 32n), Number(key & 0xffffffffn), 1] };
}

function busy(holder: Record<string, unknown> | null): DeltaportError {
  return alreadyRunning(holder ? String(holder.name) : null);
}

/** A statement's parameters as the text the server parses them from, as node-pg's own query would send them. */
function textParams({ text, values }: SqlStatement): AfterStatement {
  return { text, values: values.map((v) => (v === null ? null : String(v))) };
}

/** COPY data goes out with the statements around it in one write: BEGIN and COMMIT cost no round trips. */
async function rowWriters(
  client: pg.Client,
  { table, fields, spec, stage }: WriteTarget,
  format: CopyFormat,
  timed: <T>(work: Promise<T>) => Promise<T>,
): Promise<RowWriters> {
  if (spec.mode === 'sql') return { write: statementWriter(client, { table, fields, spec }, timed), copy: null };
  // An upsert over one connection merges each transaction's rows from a temporary table; over several, each
  // connection's rows wait in its staging table, numbered in the export's order, for the final merge.
  const copyTable = spec.mode !== 'upsert' ? table : (stage ?? UPSERT_TEMP);
  if (spec.mode === 'upsert') await client.query(stage ? upsertStageSql(stage, fields) : upsertTempSql(fields));
  const described = await describePgTable(client, copyTable);
  format.binary = described !== null && binaryCopyFits(fields, described.columns);
  const copy = {
    sql: (binary: boolean) => copySql(copyTable, fields, binary),
    after: spec.mode === 'upsert' && !stage ? [upsertMergeSql(table, fields, spec.keyColumns!)] : [],
    before: (firstRow: number) => (stage ? [upsertArrivalSql(stage, firstRow)] : []),
  };
  return {
    write: (rows, firstRow) => {
      if (!('copyData' in rows)) throw new Error('COPY needs the rows as COPY data');
      return submit(client, new CopyIn([copy.sql(rows.binary), ...copy.after].join('; '), rows.copyData), firstRow);
    },
    copy,
  };
}

/** One COPY for the whole transaction: a COPY per scan batch would cost a round trip each. */
async function submit(client: pg.Client, exchange: CopyIn | CommittedCopy, firstRow: number): Promise<void> {
  try {
    client.query(exchange);
    await exchange.done;
  } catch (err) {
    // The server names the COPY line that failed; say which exported row that is.
    const line = /line (\d+)/.exec((err as { where?: string }).where ?? '');
    if (line && err instanceof Error) err.message = `row ${firstRow + Number(line[1])}: ${err.message}`;
    throw err;
  }
}

let statementCounter = 0;

/** Mode 'sql': the user's statement as a named prepared statement, its :column parameters bound as text per row. */
function statementWriter(client: pg.Client, { fields, spec }: WriteTarget, timed: <T>(work: Promise<T>) => Promise<T>): RowWriter {
  const named = parseNamedParams(spec.sql!);
  const { sql } = toPositional(spec.sql!, named, '$');
  const name = `deltaport_sql_${++statementCounter}`;
  const sources = named.names.map((n) => fields.findIndex((f) => f.name === n));
  return async (rows, firstRow) => {
    if (!('batches' in rows)) throw new Error('mode sql needs the rows as batches');
    let row = firstRow;
    for (const batch of rows.batches) {
      const columns = sources.map((c) => ({
        isNull: isNullAt(batch.data.children[c]),
        read: pgTextReader(batch.data.children[c], fields[c]),
      }));
      for (let r = 0; r < batch.numRows; r++, row++) {
        const values = columns.map(({ isNull, read }) => (isNull(r) ? null : read(r)));
        try {
          await timed(client.query({ name, text: sql, values }));
        } catch (err) {
          if (err instanceof Error) err.message = `row ${row + 1}: ${err.message}`;
          throw err;
        }
      }
    }
  };
}
