// The MySQL / MariaDB sink, a dialect of the shared SQL sink (sql-sink.ts). Appends and overwrites stream each
// transaction's rows through LOAD DATA LOCAL INFILE (the COPY text format, which LOAD DATA reads as well), or, where
// the server refuses local_infile, through multi-row INSERTs; upserts load into a session's temporary table and merge
// with INSERT ... ON DUPLICATE KEY UPDATE; mode 'sql' runs the user's statement (prepared) for each row.
//
// MySQL has no transaction id to ask about after a lost COMMIT, so every transaction also writes a token of its own
// into _deltaport_commits: a retry first ends the lost connection, then looks its token up. The job's claim is a named
// lock (GET_LOCK), which the server gives up with the session, also when the process is killed.
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { RecordBatch } from 'apache-arrow';
import type { StructField } from '../../../shared/delta-schema.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { parseNamedParams, toPositional } from '../../../shared/sql-params.js';
import { isNullAt } from '../../delta/engine/arrow-buffers.js';
import { mysqlTextReader } from '../column-values.js';
import { SlabPool } from '../copy-output.js';
import { CopyRows } from '../copy-rows.js';
import { MYSQL_TEXT } from '../copy-text.js';
import { alreadyRunning, type RunOwner } from '../job-claim.js';
import type { BatchSink } from '../sink.js';
import { serverExchanges } from '../server-exchanges.js';
import { batchesAsTheyAre, createSqlSink, type SqlSession, type TransactionRows, type WriteTarget } from '../sql-sink.js';
import { valueKind } from '../sql-types.js';
import {
  connectMysql,
  describeMysqlTable,
  dropMysqlLink,
  linkQuery,
  loadsLocalFiles,
  mysqlConfig,
  mysqlMessage,
  type MysqlLink,
} from './mysql-connection.js';
import {
  CLEAR_UPSERT_TEMP,
  COMMIT_TOKEN_SQL,
  COMMITS_TABLE,
  COMMITS_TABLE_SQL,
  insertValuesSql,
  loadDataSql,
  UPSERT_TEMP,
  upsertMergeSql,
  upsertTempSql,
} from './mysql-statements.js';

type MysqlSinkSpec = Extract<SinkSpec, { kind: 'mysql' }>;

/** As for PostgreSQL's COPY (postgres-sink.ts): batches share a LOAD DATA up to this much data. */
export const TRANSACTION_BYTES = 8 << 20;
/** One transaction being sent and one being filled. */
const MAX_UNCOMMITTED = 1;
const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;
/** Rows per INSERT where LOAD DATA LOCAL is refused: well under max_allowed_packet for rows of a few kB. */
const INSERT_ROWS = 500;

/** A transaction's rows: LOAD DATA's stream and the slabs it lies in, or the batches (INSERTs and mode 'sql'). */
type MysqlRows = { loadData: Buffer[]; slabs: Buffer[]; count: number } | { batches: RecordBatch[]; count: number };

/** Whether the server takes LOAD DATA LOCAL, learnt each time a session prepares. */
interface LoadPath {
  localInfile: boolean;
}

/** `transactionBytes` is for tests that need many transactions of few rows. */
export function createMysqlSink(spec: MysqlSinkSpec, { transactionBytes = TRANSACTION_BYTES } = {}): BatchSink {
  const { password } = mysqlConfig(spec.connection);
  const timeoutMs = spec.connection.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const path: LoadPath = { localInfile: true };
  const slabs = new SlabPool((MAX_UNCOMMITTED + 1) * transactionBytes);
  return createSqlSink<MysqlRows>(spec, {
    dialect: 'mysql',
    connect: async (owner) => mysqlSession(spec, await connectMysql(spec.connection), owner, timeoutMs, path),
    checkBeforeReuse: spec.connection.checkBeforeReuse ?? true,
    explain: (err) => mysqlMessage(err, password),
    encode: (target) => transactionRows(target, path, slabs),
    transactionBytes: spec.mode === 'sql' ? undefined : transactionBytes,
    release: (rows) => {
      if ('slabs' in rows) slabs.give(rows.slabs);
    },
    maxUncommitted: MAX_UNCOMMITTED,
  });
}

/** LOAD DATA's stream where the server takes it, else the batches as they are. */
function transactionRows({ fields, spec }: WriteTarget, path: LoadPath, pool: SlabPool): TransactionRows<MysqlRows> {
  let count = 0;
  if (spec.mode === 'sql' || !path.localInfile) {
    const batches = batchesAsTheyAre();
    return {
      ...batches,
      add: async (chunks) => {
        count += chunks.reduce((n, b) => n + b.numRows, 0);
        await batches.add(chunks);
      },
      finish: () => ({ batches: batches.finish(), count }),
    };
  }
  const load = new CopyRows(false, fields, pool, MYSQL_TEXT);
  return {
    accepts: () => path.localInfile,
    async add(chunks) {
      count += chunks.reduce((n, b) => n + b.numRows, 0);
      await load.add(chunks);
    },
    get bytes() {
      return load.bytes;
    },
    finish: () => ({ loadData: load.finish(), slabs: load.slabs, count }),
  };
}

function mysqlSession(spec: MysqlSinkSpec, link: MysqlLink, owner: RunOwner, timeoutMs: number, path: LoadPath): SqlSession<MysqlRows> {
  const { connection } = link;
  const database = mysqlConfig(spec.connection).database ?? '';
  const exchanges = serverExchanges('MySQL', timeoutMs, () => dropMysqlLink(link));
  const { answered } = exchanges;
  const raw = linkQuery(link);
  const query = (sql: string, params?: unknown[]) => answered(raw(sql, params));
  let target: WriteTarget | null = null;
  let token: string | null = null;
  let inDoubt: string | null = null;

  /** Runs a statement that changes rows and fails on any warning: with LOCAL, MySQL turns a value that does not fit
   * and a duplicate key into warnings and goes on. */
  const changing = async (sql: string, params: unknown[], firstRow: number, options: { file?: Buffer[] } = {}): Promise<number> => {
    const [result] = await answered(
      connection.query({ sql, values: params, ...(options.file ? { infileStreamFactory: () => Readable.from(options.file!) } : {}) }),
    );
    const header = result as { affectedRows?: number; warningStatus?: number };
    if ((header.warningStatus ?? 0) > 0) {
      const [warning] = await query('SHOW WARNINGS LIMIT 1');
      const text = String(warning?.Message ?? 'a value did not fit its column');
      const at = /at row (\d+)/.exec(text);
      // A plain error: the sink names the transaction's rows before it (a data error, not retried).
      throw new Error(at ? `row ${firstRow + Number(at[1])}: ${text}` : text);
    }
    return header.affectedRows ?? 0;
  };

  const writeRows = async (rows: MysqlRows, firstRow: number): Promise<void> => {
    if (!target) throw new Error('the MySQL session was not prepared');
    const { table, fields, spec: targetSpec } = target;
    if (targetSpec.mode === 'sql') {
      if (!('batches' in rows)) throw new Error('mode sql needs the rows as batches');
      await statementRows(rows.batches, fields, targetSpec.sql!, firstRow, async (sql, values, row) => {
        try {
          await answered(connection.execute(sql, values));
        } catch (err) {
          if (err instanceof Error) err.message = `row ${row + 1}: ${err.message}`;
          throw err;
        }
      });
      return;
    }
    const keys = targetSpec.mode === 'upsert' ? targetSpec.keyColumns! : null;
    const into = keys ? UPSERT_TEMP : table;
    let landed = 0;
    if ('loadData' in rows) {
      landed = await changing(loadDataSql(into, fields), [], firstRow, { file: rows.loadData });
    } else {
      for (const group of rowGroups(rows.batches, fields)) {
        landed += await changing(insertValuesSql(into, fields, group.rows), group.values, firstRow + landed);
      }
    }
    if (landed !== rows.count) throw new Error(`MySQL took ${landed} of ${rows.count} rows`);
    if (keys) {
      await changing(upsertMergeSql(table, fields, keys), [], firstRow);
      await query(CLEAR_UPSERT_TEMP);
    }
  };

  const begin = async (): Promise<void> => {
    token = `${owner.id}:${randomUUID()}`;
    await query('START TRANSACTION');
  };
  const commit = async (): Promise<void> => {
    const id = token!;
    await query(COMMIT_TOKEN_SQL, [id]);
    inDoubt = id;
    await query('COMMIT');
    inDoubt = null;
  };
  const lockName = (job: string) => `deltaport ${createHash('sha256').update(`${database}\0${job}`).digest('hex').slice(0, 40)}`;

  return {
    query,
    describe: (table) => answered(describeMysqlTable(raw, table)),
    async prepare(writeTarget) {
      target = writeTarget;
      await query(COMMITS_TABLE_SQL);
      path.localInfile = await loadsLocalFiles(raw);
      const { spec: targetSpec, fields } = writeTarget;
      if (targetSpec.mode === 'upsert') {
        await query(upsertTempSql(fields, targetSpec.keyColumns!));
        await query(CLEAR_UPSERT_TEMP);
      }
    },
    writeRows,
    async writeCommitted(rows, firstRow, after) {
      await begin();
      await writeRows(rows, firstRow);
      for (const { text, values } of after) await query(text, values);
      await commit();
    },
    begin,
    commit,
    unsettledCommit: () => inDoubt,
    async committed(id) {
      return (await query(`SELECT 1 AS found FROM \`${COMMITS_TABLE}\` WHERE txn = ?`, [id])).length > 0;
    },
    backend: connection.threadId,
    async endBackend(id) {
      // Only a connection of this same user; then until the server has ended it (rolled back, or its COMMIT done).
      const mine = async () =>
        (await query('SELECT 1 FROM information_schema.processlist WHERE id = ? AND user = SUBSTRING_INDEX(USER(), "@", 1)', [id])).length >
        0;
      if (!(await mine())) return;
      await query(`KILL CONNECTION ${Number(id)}`).catch(() => undefined);
      for (let i = 0; i < 100 && (await mine()); i++) await new Promise((r) => setTimeout(r, 50));
    },
    async claim(job) {
      const name = lockName(job);
      const [mine] = await query('SELECT GET_LOCK(?, 0) AS ok', [name]);
      if (Number(mine.ok) === 1) return;
      const [holder] = await query('SELECT p.id AS id, p.host AS host FROM information_schema.processlist p WHERE p.id = IS_USED_LOCK(?)', [
        name,
      ]);
      throw alreadyRunning(holder ? `MySQL connection ${String(holder.id)} from ${String(holder.host)}` : null);
    },
    // Best effort: a lost session has given the lock up with it, and a token left behind is only a row.
    async release(job) {
      try {
        await query('SELECT RELEASE_LOCK(?)', [lockName(job)]);
        await query(`DELETE FROM \`${COMMITS_TABLE}\` WHERE txn LIKE ?`, [`${owner.id}:%`]);
      } catch {
        dropMysqlLink(link);
      }
    },
    ping: async () => !link.broken && (await exchanges.alive(query)),
    async close() {
      if (link.broken) dropMysqlLink(link);
      else await exchanges.bounded(connection.end());
    },
    kill() {
      dropMysqlLink(link);
    },
  };
}

/** The values of each row as MySQL reads them from text (binary values as hex, unhexed by the statement). */
function* rowValues(batches: RecordBatch[], fields: StructField[], columns: number[]): Generator<(string | null)[]> {
  for (const batch of batches) {
    const readers = columns.map((c) => ({
      isNull: isNullAt(batch.data.children[c]),
      read: mysqlTextReader(batch.data.children[c], fields[c]),
    }));
    for (let r = 0; r < batch.numRows; r++) yield readers.map(({ isNull, read }) => (isNull(r) ? null : read(r)));
  }
}

/** The rows in groups of INSERT_ROWS, each group's values flattened for one INSERT. */
function* rowGroups(batches: RecordBatch[], fields: StructField[]): Generator<{ rows: number; values: (string | null)[] }> {
  let group: { rows: number; values: (string | null)[] } = { rows: 0, values: [] };
  for (const values of rowValues(
    batches,
    fields,
    fields.map((_, c) => c),
  )) {
    group.values.push(...values);
    if (++group.rows === INSERT_ROWS) {
      yield group;
      group = { rows: 0, values: [] };
    }
  }
  if (group.rows > 0) yield group;
}

/** Mode 'sql': the user's statement with its :column parameters as ?, run for each row. */
async function statementRows(
  batches: RecordBatch[],
  fields: StructField[],
  statement: string,
  firstRow: number,
  run: (sql: string, values: (string | Buffer | null)[], row: number) => Promise<void>,
): Promise<void> {
  const named = parseNamedParams(statement);
  const { sql, order } = toPositional(statement, named, '?');
  const columns = order.map((i) => fields.findIndex((f) => f.name === named.names[i]));
  const binary = columns.map((c) => valueKind(fields[c]) === 'binary');
  let row = firstRow;
  for (const values of rowValues(batches, fields, columns)) {
    await run(
      sql,
      values.map((v, k) => (v !== null && binary[k] ? Buffer.from(v, 'hex') : v)),
      row++,
    );
  }
}
