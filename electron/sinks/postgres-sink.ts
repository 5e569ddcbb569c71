// The PostgreSQL sink: appends and overwrites stream COPY data (binary where the target's column types take it,
// else text) straight from the Arrow columns; upserts COPY into a session's temporary table and merge from it with
// INSERT ... ON CONFLICT; mode 'sql' runs the user's statement (prepared once per connection) for each row.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RecordBatch } from 'apache-arrow';
import type pg from 'pg';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { parseNamedParams, toPositional } from '../../shared/sql-params.js';
import { isNullAt, pgTextReader } from './column-values.js';
import { CopyIn } from './copy-in.js';
import { binaryCopyFits, binaryCopyReads, copyBinaryChunks } from './copy-binary.js';
import { copyTextChunks } from './copy-text.js';
import { clientConfig, connectPg, describePgTable, pgMessage, type PgLink } from './pg-connection.js';
import type { BatchSink } from './sink.js';
import { createSqlSink, type SqlSession, type WriteTarget } from './sql-sink.js';
import { copySql, UPSERT_TEMP, upsertMergeSql, upsertTempSql } from './sql-statements.js';

export function createPostgresSink(spec: Extract<SinkSpec, { kind: 'postgres' }>): BatchSink {
  const password = clientConfig(spec.connection).password;
  const format: CopyFormat = { binary: false };
  return createSqlSink(spec, {
    dialect: 'postgres',
    connect: () => pgSession(spec.connection, format),
    checkBeforeReuse: spec.connection.checkBeforeReuse ?? true,
    explain: (err) => pgMessage(err, typeof password === 'string' ? password : undefined),
    encode: (chunks, target) => encodeRows(chunks, target, format),
    // One transaction being sent and one encoded behind it, ready when the server is.
    maxUncommitted: 2,
  });
}

/** A transaction's rows as sent: a COPY stream and its format, or (mode 'sql') the batches whose values are bound
 * row by row. */
type PgRows = { copyData: Buffer[]; binary: boolean } | { batches: RecordBatch[] };

/** Whether the COPY target takes binary COPY, decided from its column types each time a session prepares. */
interface CopyFormat {
  binary: boolean;
}

type RowWriter = (rows: PgRows, firstRow: number) => Promise<void>;

/** How a prepared session writes: inside a transaction the sink opened, or as a whole transaction. */
interface RowWriters {
  write: RowWriter;
  committed: RowWriter;
}

/** A connection that answered this recently needs no check before it is used again. */
const RECENTLY_ALIVE_MS = 1000;

async function encodeRows(chunks: RecordBatch[], { fields, spec }: WriteTarget, format: CopyFormat): Promise<PgRows> {
  if (spec.mode === 'sql') return { batches: chunks };
  const binary = format.binary && binaryCopyReads(chunks, fields);
  const copyData: Buffer[] = [];
  for (const chunk of (binary ? copyBinaryChunks : copyTextChunks)(chunks, fields)) {
    copyData.push(chunk);
    // Replies for the transaction in flight are handled between chunks, not after the whole encoding.
    await nextTurn();
  }
  return { copyData, binary };
}

async function pgSession(connection: Extract<SinkSpec, { kind: 'postgres' }>['connection'], format: CopyFormat): Promise<SqlSession<PgRows>> {
  const link = await connectPg(connection);
  const { client } = link;
  let writers: RowWriters | null = null;
  const prepared = (): RowWriters => {
    if (!writers) throw new Error('the PostgreSQL session was not prepared');
    return writers;
  };
  let answeredAt = Number.NEGATIVE_INFINITY;
  const answered = async <T>(work: Promise<T>): Promise<T> => {
    const result = await work;
    answeredAt = performance.now();
    return result;
  };
  return {
    async query(sql, params) {
      return (await answered(client.query(sql, params))).rows;
    },
    describe: (table) => describePgTable(client, table),
    async prepare(target) {
      writers = await rowWriters(client, target, format);
    },
    writeRows: (rows, firstRow) => answered(prepared().write(rows, firstRow)),
    writeCommitted: (rows, firstRow) => answered(prepared().committed(rows, firstRow)),
    ping: async () => !link.broken && (performance.now() - answeredAt < RECENTLY_ALIVE_MS || (await alive(link))),
    async close() {
      await client.end();
    },
    kill() {
      client.end().catch(() => undefined);
    },
  };
}

async function alive(link: PgLink): Promise<boolean> {
  try {
    await link.client.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** COPY data goes out with the statements around it as one simple query: BEGIN and COMMIT cost no round trips. */
async function rowWriters(client: pg.Client, { table, fields, spec }: WriteTarget, format: CopyFormat): Promise<RowWriters> {
  if (spec.mode === 'sql') {
    const write = statementWriter(client, { table, fields, spec });
    return {
      write,
      async committed(rows, firstRow) {
        await client.query('BEGIN');
        await write(rows, firstRow);
        await client.query('COMMIT');
      },
    };
  }
  const copyTable = spec.mode === 'upsert' ? UPSERT_TEMP : table;
  if (spec.mode === 'upsert') await client.query(upsertTempSql(fields));
  const described = await describePgTable(client, copyTable);
  format.binary = described !== null && binaryCopyFits(fields, described.columns);
  const statements = (binary: boolean) =>
    spec.mode === 'upsert' ? `${copySql(UPSERT_TEMP, fields, binary)}; ${upsertMergeSql(table, fields, spec.keyColumns!)}` : copySql(table, fields, binary);
  return {
    write: (rows, firstRow) => copyRows(client, statements, rows, firstRow),
    committed: (rows, firstRow) => copyRows(client, (binary) => `BEGIN; ${statements(binary)}; COMMIT`, rows, firstRow),
  };
}

/** One COPY for the whole transaction: a COPY per scan batch would cost a round trip each. */
async function copyRows(client: pg.Client, sql: (binary: boolean) => string, rows: PgRows, firstRow: number): Promise<void> {
  if (!('copyData' in rows)) throw new Error('COPY needs the rows as COPY data');
  try {
    const copy = new CopyIn(sql(rows.binary), rows.copyData);
    client.query(copy);
    await copy.done;
  } catch (err) {
    // The server names the COPY line that failed; say which exported row that is.
    const line = /line (\d+)/.exec((err as { where?: string }).where ?? '');
    if (line && err instanceof Error) err.message = `row ${firstRow + Number(line[1])}: ${err.message}`;
    throw err;
  }
}

let statementCounter = 0;

/** Mode 'sql': the user's statement as a named prepared statement, its :column parameters bound as text per row. */
function statementWriter(client: pg.Client, { fields, spec }: WriteTarget): RowWriter {
  const named = parseNamedParams(spec.sql!);
  const { sql } = toPositional(spec.sql!, named, '$');
  const name = `deltaport_sql_${++statementCounter}`;
  const sources = named.names.map((n) => fields.findIndex((f) => f.name === n));
  return async (rows, firstRow) => {
    if (!('batches' in rows)) throw new Error('mode sql needs the rows as batches');
    let row = firstRow;
    for (const batch of rows.batches) {
      const columns = sources.map((c) => ({ isNull: isNullAt(batch.data.children[c]), read: pgTextReader(batch.data.children[c], fields[c]) }));
      for (let r = 0; r < batch.numRows; r++, row++) {
        const values = columns.map(({ isNull, read }) => (isNull(r) ? null : read(r)));
        try {
          await client.query({ name, text: sql, values });
        } catch (err) {
          if (err instanceof Error) err.message = `row ${row + 1}: ${err.message}`;
          throw err;
        }
      }
    }
  };
}
