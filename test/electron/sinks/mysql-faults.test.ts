// Faults between the MySQL sink and a real MariaDB, injected for real: the loopback proxy of the PostgreSQL tests
// (test/support/fault-proxy.ts) cuts, resets or stalls connections at random points of the server's replies, and
// cuts or resets one just before a COMMIT reaches the server or just after (its answer lost); a server
// of this file's own is restarted mid-export; two runs of one export overlap; a server refuses LOAD DATA LOCAL. Every
// run must land each row exactly once, or fail with one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { DeltaportError } from '../../../shared/errors.js';
import { createMysqlSink } from '../../../electron/sinks/mysql/mysql-sink.js';
import { planSqlExport } from '../../../electron/sinks/sql-plan.js';
import type { Fault } from '../../support/fault-proxy.js';
import { failure } from '../../support/failure.js';
import { createMysqlDatabase, startMariadb, type MariadbServer } from '../../support/mariadb.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { faultRuns, random } from './fault-runs.js';
import { drive, mysqlSpec, NUMBERED_FIELDS, numberedTable, streamOf } from './sink-harness.js';

const db = useMysqlDatabase('mysql_faults');

async function census(table: string, client: mysql.Connection = db.client): Promise<{ n: number; distinct: number }> {
  const [found] = (await client.query('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [
    table,
  ])) as unknown as [unknown[]];
  if (found.length === 0) return { n: 0, distinct: 0 };
  const [[r]] = (await client.query(`SELECT count(*) AS n, count(DISTINCT id) AS d FROM \`${table}\``)) as unknown as [
    Record<string, unknown>[],
  ];
  return { n: Number(r.n), distinct: Number(r.d) };
}

const ROWS = 60_000;
const stream = streamOf(numberedTable(ROWS), NUMBERED_FIELDS, 2048);

// Small transactions (64 kB), so that a fault falls between many commits.
const { cleanSpan, faultedRun } = faultRuns({
  url: () => db.url,
  sink: (connection, options) => createMysqlSink(mysqlSpec(connection, options), { transactionBytes: 64 << 10 }),
  census: (table) => census(table),
  rows: ROWS,
  stream,
});

describe('mysql sink under network faults', () => {
  it.each([
    ['append', {}],
    ['exactly-once append', { exactlyOnce: true }],
    ['upsert', { mode: 'upsert' as const, keyColumns: ['id'] }],
    ['overwrite', { mode: 'overwrite' as const }],
    ['exactly-once overwrite', { mode: 'overwrite' as const, exactlyOnce: true }],
  ])('%s: cuts and resets at random points (before and after COMMIT) land every row once', { timeout: 240_000 }, async (name, options) => {
    const base = name.replaceAll(/[^a-z]/g, '_');
    const span = await cleanSpan(`${base}_clean`, { ...options, batchSize: 2000 });
    const next = random(name.length * 7919);
    const outcomes: string[] = [];
    for (let run = 0; run < 8; run++) {
      const faults: Fault[] = [
        { action: next() < 0.5 ? 'cut' : 'reset', atByte: Math.floor(next() * span) },
        { action: 'reset', atByte: Math.floor(next() * span) },
      ];
      const { failure: failed, landed } = await faultedRun(`${base}_${run}`, faults, { ...options, batchSize: 2000, maxRetries: 5 });
      outcomes.push(`run ${run} ${JSON.stringify(faults)}: ${failed ?? 'ok'}, ${landed.n} rows`);
      expect({ failure: failed, landed }, outcomes.join('\n')).toEqual({ failure: null, landed: { n: ROWS, distinct: ROWS } });
    }
    console.log(`${name}:\n${outcomes.join('\n')}`);
  });

  it('a server that stops answering times out, is dropped and retried: every row once, no hang', { timeout: 240_000 }, async () => {
    const span = await cleanSpan('stall_clean', { batchSize: 2000 });
    const next = random(4242);
    const outcomes: string[] = [];
    const points = [0, 100, 400, ...Array.from({ length: 3 }, () => Math.floor(next() * span))];
    for (const [run, atByte] of points.entries()) {
      const {
        failure: failed,
        landed,
        struck,
      } = await faultedRun(
        `stall_${run}`,
        [{ action: 'stall', atByte }],
        { batchSize: 2000, maxRetries: 3 },
        { statementTimeoutMs: 3000, connectTimeoutMs: 3000 },
      );
      outcomes.push(`run ${run} stall at byte ${atByte}: ${failed ?? 'ok'}, ${landed.n} rows`);
      expect(struck).toBe(1);
      expect({ failure: failed, landed }, outcomes.join('\n')).toEqual({ failure: null, landed: { n: ROWS, distinct: ROWS } });
    }
    console.log(outcomes.join('\n'));
  });

  it(
    'with every connection stalled, the export fails with one line after its retries instead of hanging',
    { timeout: 60_000 },
    async () => {
      const { failure: failed, landed } = await faultedRun(
        'stall_all',
        Array.from({ length: 10 }, () => ({ action: 'stall' as const, atByte: 0 })),
        { batchSize: 2000, maxRetries: 1 },
        { statementTimeoutMs: 1000, connectTimeoutMs: 1000 },
      );
      expect(failed).toMatch(
        /^setting up the target failed after 2 attempts: cannot connect to MySQL at deltaport@127\.0\.0\.1:\d+\/\w+: /,
      );
      expect(landed.n).toBe(0);
    },
  );
});

describe('mysql sink: a connection lost at COMMIT', () => {
  // mysql2 sends a statement as COM_QUERY (0x03) and its text.
  const COMMIT = '\x03COMMIT';
  it.each([
    ['before', 'cut'],
    ['after', 'cut'],
    ['before', 'reset'],
    ['after', 'reset'],
  ] as const)(
    'lost %s the server has the third COMMIT (%s): the retry writes it again or finds it landed, every row once',
    { timeout: 120_000 },
    async (when, action) => {
      for (const exactlyOnce of [false, true]) {
        const {
          failure: failed,
          landed,
          struck,
        } = await faultedRun(
          `commit_${when}_${action}_${exactlyOnce ? 'once' : 'plain'}`,
          [{ action, statement: { text: COMMIT, nth: 3, when } }],
          { batchSize: 2000, maxRetries: 3, exactlyOnce },
        );
        expect(struck).toBe(1);
        expect({ failure: failed, landed }).toEqual({ failure: null, landed: { n: ROWS, distinct: ROWS } });
      }
    },
  );
});

describe('mysql sink: two runs of one export', () => {
  it('the second stops with one line naming the first, which goes on to land every row once', { timeout: 60_000 }, async () => {
    const spec = mysqlSpec({ url: db.url }, { table: 'overlap', batchSize: 2000, exactlyOnce: true });
    let second: DeltaportError | null = null;
    await drive(createMysqlSink(spec, { transactionBytes: 64 << 10 }), stream, {
      afterBatch: async (i) => {
        if (i !== 3) return;
        second = await failure(drive(createMysqlSink(spec), stream));
      },
    });
    expect(second!.code).toBe('SINK_BUSY');
    expect(second!.message).toMatch(/^this export is already running in another session \(MySQL connection \d+ from [\w.:]+\)$/);
    expect(await census('overlap')).toEqual({ n: ROWS, distinct: ROWS });
  });
});

describe('mysql sink: a server of its own', () => {
  let server: MariadbServer;
  let url: string;
  beforeAll(async () => {
    server = await startMariadb();
    url = await createMysqlDatabase(server.url, 'restart');
  }, 120_000);
  afterAll(() => server?.stop());

  it('a server restarted mid-export: the sink reconnects and lands every row once', { timeout: 120_000 }, async () => {
    let restarted = false;
    await drive(
      createMysqlSink(mysqlSpec({ url }, { table: 'restarted', batchSize: 2000, maxRetries: 10, exactlyOnce: true }), {
        transactionBytes: 64 << 10,
      }),
      stream,
      {
        afterBatch: async (i) => {
          if (i !== 10) return;
          await server.restart();
          restarted = true;
        },
      },
    );
    expect(restarted).toBe(true);
    const client = await mysql.createConnection(url);
    try {
      expect(await census('restarted', client)).toEqual({ n: ROWS, distinct: ROWS });
    } finally {
      await client.end();
    }
  });
});

describe('mysql sink: a server that refuses LOAD DATA LOCAL (local_infile off)', () => {
  let server: MariadbServer;
  let url: string;
  beforeAll(async () => {
    server = await startMariadb(['--local-infile=0']);
    url = await createMysqlDatabase(server.url, 'noinfile');
  }, 120_000);
  afterAll(() => server?.stop());

  it('Show plan says so in one line, and the rows land through multi-row INSERTs, every one once', { timeout: 120_000 }, async () => {
    const plan = await planSqlExport(NUMBERED_FIELDS, mysqlSpec({ url }, { table: 'inserted' }));
    expect(plan.statement).toMatch(
      /^INSERT INTO `inserted` \(`id`, `label`\) VALUES \(\?, \?\), \.\.\. \(multi-row INSERTs: the server refuses LOAD DATA LOCAL INFILE, local_infile is OFF\)$/,
    );
    await drive(createMysqlSink(mysqlSpec({ url }, { table: 'inserted', batchSize: 2000, mode: 'upsert', keyColumns: ['id'] })), stream);
    const client = await mysql.createConnection(url);
    try {
      expect(await census('inserted', client)).toEqual({ n: ROWS, distinct: ROWS });
    } finally {
      await client.end();
    }
  });
});
