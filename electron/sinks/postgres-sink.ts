// The PostgreSQL sink: appends and overwrites stream COPY text straight from the Arrow columns; upserts COPY into
// a session's temporary table and merge from it with INSERT ... ON CONFLICT; mode 'sql' runs the user's statement
// (prepared once per connection) for each row.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RecordBatch } from 'apache-arrow';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SinkSpec } from '../../shared/sink-spec.js';
import { parseNamedParams, toPositional } from '../../shared/sql-params.js';
import { isNullAt, pgTextReader } from './column-values.js';
import { copyTextChunks } from './copy-text.js';
import { clientConfig, connectPg, describePgTable, pgMessage, type PgLink } from './pg-connection.js';
import type { BatchSink } from './sink.js';
import { createSqlSink, type SqlSession, type WriteTarget } from './sql-sink.js';
import { copySql, UPSERT_TEMP, upsertMergeSql, upsertTempSql } from './sql-statements.js';

export function createPostgresSink(spec: Extract<SinkSpec, { kind: 'postgres' }>): BatchSink {
  const password = clientConfig(spec.connection).password;
  return createSqlSink(spec, {
    dialect: 'postgres',
    connect: () => pgSession(spec.connection),
    checkBeforeReuse: spec.connection.checkBeforeReuse ?? true,
    explain: (err) => pgMessage(err, typeof password === 'string' ? password : undefined),
  });
}

type RowWriter = (chunks: RecordBatch[], firstRow: number) => Promise<void>;

async function pgSession(connection: Extract<SinkSpec, { kind: 'postgres' }>['connection']): Promise<SqlSession> {
  const link = await connectPg(connection);
  const { client } = link;
  let writeRows: RowWriter = async () => {
    throw new Error('the PostgreSQL session was not prepared');
  };
  return {
    async query(sql, params) {
      return (await client.query(sql, params)).rows;
    },
    describe: (table) => describePgTable(client, table),
    async prepare(target) {
      writeRows = await rowWriter(client, target);
    },
    writeRows: (chunks, firstRow) => writeRows(chunks, firstRow),
    ping: () => alive(link),
    async close() {
      await client.end();
    },
    kill() {
      client.end().catch(() => undefined);
    },
  };
}

async function alive(link: PgLink): Promise<boolean> {
  if (link.broken) return false;
  try {
    await link.client.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

async function rowWriter(client: pg.Client, { table, fields, spec }: WriteTarget): Promise<RowWriter> {
  switch (spec.mode) {
    case 'upsert': {
      await client.query(upsertTempSql(fields));
      const copy = copySql(UPSERT_TEMP, fields);
      const merge = upsertMergeSql(table, fields, spec.keyColumns!);
      return async (chunks, firstRow) => {
        await copyRows(client, copy, chunks, fields, firstRow);
        await client.query(merge);
      };
    }
    case 'sql':
      return statementWriter(client, { table, fields, spec });
    default: {
      const copy = copySql(table, fields);
      return (chunks, firstRow) => copyRows(client, copy, chunks, fields, firstRow);
    }
  }
}

/** One COPY for the whole transaction: a COPY per scan batch would cost a round trip each. */
async function copyRows(client: pg.Client, sql: string, chunks: RecordBatch[], fields: WriteTarget['fields'], firstRow: number): Promise<void> {
  try {
    await pipeline(Readable.from(copyTextChunks(chunks, fields)), client.query(copyFrom(sql)));
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
  return async (chunks, firstRow) => {
    let row = firstRow;
    for (const batch of chunks) {
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
