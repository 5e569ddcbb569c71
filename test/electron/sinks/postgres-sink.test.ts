import { makeVector, Table, Utf8, vectorFromArray } from 'apache-arrow';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testConnection } from '../../../electron/sinks/connection-test.js';
import { createPostgresSink } from '../../../electron/sinks/postgres-sink.js';
import { planSqlExport } from '../../../electron/sinks/sql-plan.js';
import type { StructField } from '../../../shared/delta-schema.js';
import { useTestDatabase } from '../../support/test-database.js';
import { drive, driveChecked, NUMBERED_FIELDS, numberedTable, pgSpec, snapshotOf, streamOf } from './sink-harness.js';
import { failure } from '../../support/failure.js';

const db = useTestDatabase('pg_sink');

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await db.client.query(sql)).rows;
}

async function census(table: string): Promise<{ n: number; distinct: number; lo: number | null; hi: number | null }> {
  const [r] = await rows(
    `SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct, min(id)::int AS lo, max(id)::int AS hi FROM "${table}"`,
  );
  return r as { n: number; distinct: number; lo: number | null; hi: number | null };
}

/** Whether an export's statement comes to wait on a lock within `tries` looks 5 ms apart. */
async function untilWaitingOnLock(tries = 400): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const blocked = await rows(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'deltaport%' AND wait_event_type = 'Lock'`,
    );
    if (blocked.length > 0) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

describe('postgres sink: modes', () => {
  it('append creates the table from the Delta schema and lands every row once', async () => {
    await drive(
      createPostgresSink(pgSpec({ url: db.url }, { table: 'append1', batchSize: 1000 })),
      streamOf(numberedTable(12_345), NUMBERED_FIELDS, 2048, 5000),
    );
    expect(await census('append1')).toEqual({ n: 12_345, distinct: 12_345, lo: 0, hi: 12_344 });
    expect(await rows(`SELECT label FROM append1 WHERE id = 4321`)).toEqual([{ label: 'row 4321' }]);
    // Appending again into the now existing table adds the rows a second time.
    await drive(
      createPostgresSink(pgSpec({ url: db.url }, { table: 'append1' })),
      streamOf(numberedTable(100, 20_000), NUMBERED_FIELDS, 64),
    );
    expect(await census('append1')).toEqual({ n: 12_445, distinct: 12_445, lo: 0, hi: 20_099 });
  });

  it('batches share one COPY as text as well (into a column type that binary COPY does not fill)', async () => {
    await db.client.query('CREATE TABLE text_copy (id numeric, label text)');
    await drive(
      createPostgresSink(pgSpec({ url: db.url }, { table: 'text_copy', batchSize: 1000 })),
      streamOf(numberedTable(12_345), NUMBERED_FIELDS, 2048, 5000),
    );
    expect(await census('text_copy')).toEqual({ n: 12_345, distinct: 12_345, lo: 0, hi: 12_344 });
    expect(await rows(`SELECT count(DISTINCT xmin::text)::int AS n FROM text_copy`)).toEqual([{ n: 1 }]);
    expect(await rows(`SELECT label FROM text_copy WHERE id = 12344`)).toEqual([{ label: 'row 12344' }]);
  });

  it('overwrite replaces the contents atomically: readers see the old rows until the swap', async () => {
    await db.client.query('CREATE TABLE over1 (id bigint, label text)');
    await db.client.query(`INSERT INTO over1 SELECT g, 'old' FROM generate_series(1, 50) g`);
    let seenDuring: unknown = null;
    await drive(
      createPostgresSink(pgSpec({ url: db.url }, { table: 'over1', mode: 'overwrite', batchSize: 500 })),
      streamOf(numberedTable(3000), NUMBERED_FIELDS, 1000),
      {
        afterBatch: async (i) => {
          if (i === 1) seenDuring = await census('over1');
        },
      },
    );
    expect(seenDuring).toEqual({ n: 50, distinct: 50, lo: 1, hi: 50 });
    expect(await census('over1')).toEqual({ n: 3000, distinct: 3000, lo: 0, hi: 2999 });
    expect(await rows(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE '_deltaport_stage%'`)).toEqual([{ n: 0 }]);
  });

  it('upsert inserts new keys, updates existing ones, keeps the last row of a repeated key, and is idempotent', async () => {
    const spec = pgSpec({ url: db.url }, { table: 'up1', mode: 'upsert', keyColumns: ['id'], batchSize: 700 });
    const stream = streamOf(numberedTable(2000), NUMBERED_FIELDS, 512);
    await drive(createPostgresSink(spec), stream);
    await drive(createPostgresSink(spec), stream);
    expect(await census('up1')).toEqual({ n: 2000, distinct: 2000, lo: 0, hi: 1999 });
    const [pk] = await rows(`SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'up1'::regclass AND contype = 'p'`);
    expect(pk).toEqual({ n: 1 });
    // Ids 1500..2499 again with new labels, and id 7 twice in one batch: the later row wins.
    const changed = numberedTable(1000, 1500);
    const labels = changed.getChild('label')!.toArray() as string[];
    const ids = Array.from(changed.getChild('id')!.toArray() as BigInt64Array, Number);
    const second = new Table({
      id: makeVector(BigInt64Array.from([...ids, 7, 7].map(BigInt))),
      label: vectorFromArray([...labels.map((l) => `new ${l}`), 'first 7', 'last 7'], new Utf8()),
    });
    await drive(createPostgresSink(spec), streamOf(second, NUMBERED_FIELDS, 400));
    expect(await census('up1')).toEqual({ n: 2500, distinct: 2500, lo: 0, hi: 2499 });
    expect(await rows('SELECT id::int, label FROM up1 WHERE id IN (7, 1499, 1500, 2499) ORDER BY id')).toEqual([
      { id: 7, label: 'last 7' },
      { id: 1499, label: 'row 1499' },
      { id: 1500, label: 'new row 1500' },
      { id: 2499, label: 'new row 2499' },
    ]);
  });

  it.each([1, 2, 3])(
    'upsert over %i connections keeps the last row of every key across transactions, also when resumed over another number',
    async (connections) => {
      // Ids repeat every 1,000 rows, in transactions of 500 rows spread over the connections: the last row of an id
      // is row 5,000 + id, whichever connection committed first.
      const rowsOf = (from: number, n: number) =>
        new Table({
          id: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt((from + i) % 1000))),
          label: vectorFromArray(
            Array.from({ length: n }, (_, i) => `row ${from + i}`),
            new Utf8(),
          ),
        });
      const expected = Array.from({ length: 1000 }, (_, id) => ({ id, label: `row ${5000 + id}` }));
      const stream = streamOf(rowsOf(0, 6000), NUMBERED_FIELDS, 250);
      const table = `up_lanes_${connections}`;
      const spec = pgSpec({ url: db.url }, { table, mode: 'upsert', keyColumns: ['id'], batchSize: 500, connections });
      await drive(createPostgresSink(spec, { transactionBytes: 1 }), stream);
      expect(await rows(`SELECT id::int, label FROM ${table} ORDER BY id`)).toEqual(expected);
      // Exactly-once, cancelled half-way, then resumed over the next number of connections.
      const once = `up_once_${connections}`;
      const first = pgSpec(
        { url: db.url },
        { table: once, mode: 'upsert', keyColumns: ['id'], batchSize: 500, connections, exactlyOnce: true },
      );
      const stop = new AbortController();
      await failure(
        drive(createPostgresSink(first, { transactionBytes: 1 }), stream, {
          signal: stop.signal,
          afterBatch: (i) => {
            if (i === 11) stop.abort();
          },
        }),
      );
      await drive(createPostgresSink({ ...first, connections: 1 + (connections % 3) }, { transactionBytes: 1 }), stream);
      expect(await rows(`SELECT id::int, label FROM ${once} ORDER BY id`)).toEqual(expected);
      // No staging table is left.
      expect(await rows(`SELECT tablename FROM pg_tables WHERE tablename LIKE '_deltaport_stage%'`)).toEqual([]);
    },
  );

  it('sql mode binds :column parameters per row', async () => {
    await db.client.query('CREATE TABLE accounts (id bigint PRIMARY KEY, balance text, note text)');
    await db.client.query(`INSERT INTO accounts SELECT g, 'none', 'kept' FROM generate_series(0, 9) g`);
    const sql = `UPDATE accounts SET balance = :label || ':' || :"label" WHERE id = :id AND note <> ':not_a_param'`;
    await drive(
      createPostgresSink(pgSpec({ url: db.url }, { table: 'accounts', mode: 'sql', sql, batchSize: 3 })),
      streamOf(numberedTable(5, 3), NUMBERED_FIELDS, 2),
    );
    expect(await rows('SELECT id::int, balance FROM accounts ORDER BY id')).toEqual(
      Array.from({ length: 10 }, (_, id) => ({ id, balance: id >= 3 && id < 8 ? `row ${id}:row ${id}` : 'none' })),
    );
    const err = await failure(
      driveChecked(
        pgSpec({ url: db.url }, { table: 'accounts', mode: 'sql', sql: 'DELETE FROM accounts WHERE id = :ident' }),
        createPostgresSink,
        streamOf(numberedTable(5), NUMBERED_FIELDS, 5),
      ),
    );
    expect(err.code).toBe('VALIDATION');
    expect(err.message).toContain(':ident');
    expect(await rows('SELECT count(*)::int AS n FROM accounts')).toEqual([{ n: 10 }]);
  });

  it('quotes every name: spaces, quotes, capitals, keywords and SQL in a name are just names', async () => {
    await db.client.query('CREATE TABLE canary (x int)');
    const table = `select "x"; DROP TABLE canary; --`;
    const fields: StructField[] = [
      { name: 'order', type: 'long', nullable: false },
      { name: 'Label "quoted"', type: 'string', nullable: true },
    ];
    const data = new Table({ order: makeVector(BigInt64Array.of(1n, 2n)), 'Label "quoted"': vectorFromArray(['a', "it's"], new Utf8()) });
    for (const mode of ['upsert', 'upsert', 'overwrite'] as const) {
      await drive(createPostgresSink(pgSpec({ url: db.url }, { table, mode, keyColumns: ['order'] })), streamOf(data, fields, 1));
    }
    expect(await rows(`SELECT "order"::int, "Label ""quoted""" AS l FROM "select ""x""; DROP TABLE canary; --" ORDER BY 1`)).toEqual([
      { order: 1, l: 'a' },
      { order: 2, l: "it's" },
    ]);
    expect(await rows(`SELECT to_regclass('canary') IS NOT NULL AS still_there`)).toEqual([{ still_there: true }]);
  });
});

describe('postgres sink: plan and incompatible targets', () => {
  it('plans DDL and statement without writing, and reports an incompatible table', async () => {
    const plan = await planSqlExport(NUMBERED_FIELDS, pgSpec({ url: db.url }, { table: 'planned' }));
    expect(plan).toMatchObject({ sink: 'postgres', target: 'planned', targetExists: false, incompatibility: null });
    expect(plan.ddl).toEqual(['CREATE TABLE "planned" ("id" bigint NOT NULL, "label" text)']);
    expect(plan.statement).toBe('COPY "planned" ("id", "label") FROM STDIN (FORMAT binary)');
    expect(await rows(`SELECT to_regclass('planned') AS t`)).toEqual([{ t: null }]);

    await db.client.query('CREATE TABLE narrow (id integer, label text, extra text NOT NULL)');
    const bad = await planSqlExport(NUMBERED_FIELDS, pgSpec({ url: db.url }, { table: 'narrow' }));
    expect(bad.targetExists).toBe(true);
    expect(bad.incompatibility).toContain('"id" is integer');
    expect(bad.incompatibility).toContain('"extra" is NOT NULL');
    await db.client.query('CREATE TABLE wide_id (id numeric, label text)');
    const wider = await planSqlExport(NUMBERED_FIELDS, pgSpec({ url: db.url }, { table: 'wide_id' }));
    expect(wider).toMatchObject({ incompatibility: null, statement: 'COPY "wide_id" ("id", "label") FROM STDIN' });
    const err = await failure(
      drive(createPostgresSink(pgSpec({ url: db.url }, { table: 'narrow' })), streamOf(numberedTable(10), NUMBERED_FIELDS, 5)),
    );
    expect(err.code).toBe('SINK_INCOMPATIBLE');
    expect(await rows('SELECT count(*)::int AS n FROM narrow')).toEqual([{ n: 0 }]);

    await db.client.query('CREATE TABLE nokey (id bigint, label text)');
    const upsert = await planSqlExport(NUMBERED_FIELDS, pgSpec({ url: db.url }, { table: 'nokey', mode: 'upsert', keyColumns: ['id'] }));
    expect(upsert.incompatibility).toContain('no primary key or unique index on ("id")');
  });

  it('refuses column names over 63 bytes before anything is written (PostgreSQL would cut them)', async () => {
    const long = 'é'.repeat(32); // 64 bytes in UTF-8, 32 characters
    const fitting = 'c'.repeat(63);
    const fields = [NUMBERED_FIELDS[0], { name: long, type: 'string' as const, nullable: true }];
    const table = new Table({ id: makeVector(new BigInt64Array([1n])), [long]: vectorFromArray(['x'], new Utf8()) });
    const err = await failure(
      driveChecked(pgSpec({ url: db.url }, { table: 'long_names' }), createPostgresSink, streamOf(table, fields, 1)),
    );
    expect(err).toMatchObject({ code: 'VALIDATION', message: `column name "${long}" is longer than PostgreSQL's 63 bytes` });
    expect(await rows(`SELECT to_regclass('long_names') AS t`)).toEqual([{ t: null }]);
    await expect(planSqlExport(fields, pgSpec({ url: db.url }, { table: 'long_names' }))).rejects.toMatchObject({ code: 'VALIDATION' });

    // 63 bytes is PostgreSQL's own limit and works, twice (the second append finds every column).
    const fits = [NUMBERED_FIELDS[0], { name: fitting, type: 'string' as const, nullable: true }];
    const fitTable = new Table({ id: makeVector(new BigInt64Array([1n])), [fitting]: vectorFromArray(['x'], new Utf8()) });
    for (let run = 0; run < 2; run++)
      await drive(createPostgresSink(pgSpec({ url: db.url }, { table: 'fits' })), streamOf(fitTable, fits, 1));
    expect(await rows(`SELECT count("${fitting}")::int AS n FROM fits`)).toEqual([{ n: 2 }]);
  });
});

describe('postgres sink: failures and retries', () => {
  async function terminateWriters(): Promise<number> {
    const [r] = await rows(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name LIKE 'deltaport%' AND datname = current_database()`,
    );
    return (r as { n: number }).n;
  }

  // With the check, a connection that answered within the last second is reused without a round trip.
  it.each([
    [false, 1],
    [true, 1],
    [false, 2],
    [true, 3],
  ])(
    'a writer connection terminated mid-export is retried on a new one and every row lands once (check before reuse: %s, %i connections)',
    async (checkBeforeReuse, connections) => {
      const terminated: number[] = [];
      const table = `killed_${checkBeforeReuse}_${connections}`;
      const spec = pgSpec({ url: db.url, checkBeforeReuse }, { table, batchSize: 1000, connections });
      // A transaction per batch, so that the connections are writing when they are terminated.
      await drive(createPostgresSink(spec, { transactionBytes: 1 }), streamOf(numberedTable(10_000), NUMBERED_FIELDS, 1000), {
        afterBatch: async (i) => {
          if (i === 2 || i === 6) terminated.push(await terminateWriters());
        },
      });
      expect(terminated.every((n) => n >= 1 && n <= connections)).toBe(true);
      expect(await census(table)).toEqual({ n: 10_000, distinct: 10_000, lo: 0, hi: 9999 });
    },
  );

  it('a constraint violation fails at once, naming the transaction rows, the row and the database message', async () => {
    await db.client.query('CREATE TABLE checked (id bigint CHECK (id < 4500), label text)');
    // These 10,000 rows are far less COPY data than a transaction takes: they go as one.
    const whole = await failure(
      drive(
        createPostgresSink(pgSpec({ url: db.url }, { table: 'checked', batchSize: 1000 })),
        streamOf(numberedTable(10_000), NUMBERED_FIELDS, 1000),
      ),
    );
    expect(whole.code).toBe('SINK_WRITE');
    expect(whole.message).toMatch(/^rows 1-10000 failed: row 4501: new row for relation "checked" violates check constraint/);
    expect(await census('checked')).toEqual({ n: 0, distinct: 0, lo: null, hi: null });
    // A transaction per batch over one connection: those before the failed one stay.
    const err = await failure(
      drive(
        createPostgresSink(pgSpec({ url: db.url }, { table: 'checked', batchSize: 1000, connections: 1 }), { transactionBytes: 1 }),
        streamOf(numberedTable(10_000), NUMBERED_FIELDS, 1000),
      ),
    );
    expect(err.code).toBe('SINK_WRITE');
    expect(err.message).toMatch(/^rows 4001-5000 failed: row 4501: new row for relation "checked" violates check constraint/);
    expect(err.message).not.toContain('attempts');
    expect(await census('checked')).toEqual({ n: 4000, distinct: 4000, lo: 0, hi: 3999 });
  });

  it('over two connections, a constraint violation leaves whole transactions only, none that failed', async () => {
    await db.client.query('CREATE TABLE checked2 (id bigint CHECK (id < 4500), label text)');
    // Every transaction from rows 4001-5000 on breaks the constraint. The connections work side by side and commit in
    // the order the server finishes them (docs/exporting.md), so whichever fails first is the one named.
    const err = await failure(
      drive(
        createPostgresSink(pgSpec({ url: db.url }, { table: 'checked2', batchSize: 1000, connections: 2 }), { transactionBytes: 1 }),
        streamOf(numberedTable(10_000), NUMBERED_FIELDS, 1000),
      ),
    );
    expect(err.code).toBe('SINK_WRITE');
    const named = /^rows (\d+)-(\d+) failed: row (\d+): new row for relation "checked2" violates check constraint/.exec(err.message);
    expect(named, err.message).not.toBeNull();
    const [from, to, row] = named!.slice(1).map(Number);
    expect([to - from, row]).toEqual([999, Math.max(from, 4501)]);
    const batches = await rows('SELECT id / 1000 AS batch, count(*)::int AS n FROM checked2 GROUP BY 1 ORDER BY 1');
    for (const b of batches) expect({ batch: Number(b.batch), n: b.n }).toEqual({ batch: Number(b.batch), n: 1000 });
    expect(batches.every((b) => Number(b.batch) < 4)).toBe(true);
  });

  it('cancel rolls back the transaction in flight', async () => {
    const controller = new AbortController();
    // The 200,000-row batch is a transaction of its own.
    const sink = createPostgresSink(pgSpec({ url: db.url }, { table: 'cancelled', batchSize: 200_000 }), { transactionBytes: 1 });
    const stream = streamOf(numberedTable(100), NUMBERED_FIELDS, 100);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: controller.signal });
    // A lock holds the COPY in the server until the cancel is done: unheld, a fast COPY could commit before it.
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE cancelled IN ACCESS EXCLUSIVE MODE');
    await sink.write(stream.batches[0]); // 100 rows wait for the batch to fill
    const big = streamOf(numberedTable(200_000, 100), NUMBERED_FIELDS, 200_000).batches[0];
    // The write returns once its transaction is queued; the COPY goes on behind it.
    await sink.write({ ...big, end: { fileIndex: 0, rowsInFile: 200_100 } });
    expect(await untilWaitingOnLock()).toBe(true);
    controller.abort();
    expect((await failure(sink.close())).code).toBe('CANCELLED');
    await sink.abort();
    await locker.query('COMMIT');
    await locker.end();
    expect(await census('cancelled')).toEqual({ n: 0, distinct: 0, lo: null, hi: null });
  });

  it('a cancel while a connection is still being made: that connection starts no transaction after it', async () => {
    const controller = new AbortController();
    const sink = createPostgresSink(pgSpec({ url: db.url }, { table: 'cancel_connecting', batchSize: 1000, connections: 2 }), {
      transactionBytes: 1,
    });
    const stream = streamOf(numberedTable(2000), NUMBERED_FIELDS, 1000);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: controller.signal });
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE cancel_connecting IN ACCESS EXCLUSIVE MODE');
      // The first transaction waits on the lock; the second goes to the second connection, which is being made when
      // the cancel comes (a write returns once its transaction is queued).
      await sink.write(stream.batches[0]);
      await sink.write(stream.batches[1]);
      controller.abort();
      expect((await failure(sink.close())).code).toBe('CANCELLED');
      // Before the mend, the second connection's COPY came to wait on the lock after the cancel, and this never returned.
      await sink.abort();
      expect(await untilWaitingOnLock(1)).toBe(false);
    } finally {
      await locker.query('COMMIT');
      await locker.end();
    }
    expect(await census('cancel_connecting')).toEqual({ n: 0, distinct: 0, lo: null, hi: null });
  });

  it('a rerun right after a cancel is not refused as running beside it while the server has yet to end the cancelled connection', async () => {
    // The cancelled run's COPY waits on a lock, where its server process cannot notice the connection the cancel
    // killed: left alone, it would hold the job's claim until the lock is given up.
    const spec = pgSpec({ url: db.url }, { table: 'rerun', batchSize: 1000, exactlyOnce: true });
    const stream = streamOf(numberedTable(5000), NUMBERED_FIELDS, 1000);
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      const stop = new AbortController();
      const cancelled = await failure(
        drive(createPostgresSink(spec, { transactionBytes: 1 }), stream, {
          signal: stop.signal,
          afterBatch: async (i) => {
            if (i === 0) {
              await locker.query('BEGIN');
              await locker.query('LOCK TABLE rerun IN ACCESS EXCLUSIVE MODE');
            }
            if (i === 1) {
              expect(await untilWaitingOnLock()).toBe(true);
              stop.abort();
            }
          },
        }),
      );
      expect(cancelled.code).toBe('CANCELLED');
      // Nothing of the cancelled run waits any more: the cancel ended its server processes.
      expect(await untilWaitingOnLock(1)).toBe(false);
      const rerun = drive(createPostgresSink(spec, { transactionBytes: 1 }), stream);
      let settled = false;
      void rerun.then(
        () => (settled = true),
        () => (settled = true),
      );
      // Claimed, the rerun comes to wait on the lock itself (or has failed).
      while (!settled && !(await untilWaitingOnLock(1)));
      await locker.query('COMMIT');
      await rerun;
    } finally {
      await locker.end();
    }
    expect(await census('rerun')).toEqual({ n: 5000, distinct: 5000, lo: 0, hi: 4999 });
  });
});

describe('postgres sink: queued transactions', () => {
  it('a write returns while one transaction is uncommitted, the second waits; a failed queued one surfaces and lands nothing', async () => {
    await db.client.query('CREATE TABLE queued1 (id bigint CHECK (id <> 2500), label text)');
    // A transaction per batch (1 byte of COPY data fills one).
    // One connection: with more, a transaction after the failed one may commit on another.
    const sink = createPostgresSink(pgSpec({ url: db.url }, { table: 'queued1', batchSize: 1000, connections: 1 }), {
      transactionBytes: 1,
    });
    const stream = streamOf(numberedTable(5000), NUMBERED_FIELDS, 1000);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal });
    // A lock holds the COPY back: the first transaction waits in the server, the second behind it.
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE queued1 IN ACCESS EXCLUSIVE MODE');
    await sink.write(stream.batches[0]);
    let second = false;
    const writing = sink.write(stream.batches[1]).then(
      () => (second = true),
      () => (second = true),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(second).toBe(false);
    await locker.query('COMMIT');
    await locker.end();
    await writing;
    await sink.write(stream.batches[2]);
    // Rows 2001-3000 break the check: what came before stays, that transaction and everything after it do not land.
    const err = await failure(
      sink
        .write(stream.batches[3])
        .then(() => sink.write(stream.batches[4]))
        .then(() => sink.close()),
    );
    await sink.abort();
    expect(err.message).toMatch(/^rows 2001-3000 failed: row 2501: /);
    expect(await census('queued1')).toEqual({ n: 2000, distinct: 2000, lo: 0, hi: 1999 });
  });
});

describe('postgres sink: several connections', () => {
  it.each([
    [2, undefined],
    [3, 3],
  ])('COPYs over %i connections at once (the option: %s), every row once', async (want, connections) => {
    const table = `parallel_${connections ?? 'default'}`;
    await db.client.query(`CREATE TABLE ${table} (id bigint, label text)`);
    // A transaction per batch, held back by a lock in the server until every connection has one under way.
    const sink = createPostgresSink(pgSpec({ url: db.url }, { table, batchSize: 1000, connections }), { transactionBytes: 1 });
    const stream = streamOf(numberedTable(10_000), NUMBERED_FIELDS, 1000);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal });
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const writing = (async () => {
      for (const batch of stream.batches) await sink.write(batch);
      await sink.close();
    })();
    let waiting = 0;
    for (let i = 0; i < 400 && waiting < want; i++) {
      const [r] = await rows(
        `SELECT count(DISTINCT pid)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'deltaport%' AND query LIKE '%COPY%' AND wait_event_type = 'Lock'`,
      );
      waiting = (r as { n: number }).n;
      if (waiting < want) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await locker.query('COMMIT');
    await locker.end();
    await writing;
    expect(waiting).toBe(want);
    expect(await census(table)).toEqual({ n: 10_000, distinct: 10_000, lo: 0, hi: 9999 });
  });
});

describe('postgres sink: batch interval', () => {
  it('commits the open transaction once the interval has elapsed, before it is full or the export ends', async () => {
    const sink = createPostgresSink(pgSpec({ url: db.url }, { table: 'interval1', batchSize: 1000, batchIntervalMs: 50 }));
    const stream = streamOf(numberedTable(3500), NUMBERED_FIELDS, 500);
    await sink.open({ fields: stream.fields, schema: stream.schema, snapshot: snapshotOf(), signal: new AbortController().signal });
    for (const batch of stream.batches) await sink.write(batch);
    // Far less COPY data than a transaction takes, and no close yet: only the interval commits these rows.
    let landed = 0;
    for (let i = 0; i < 200 && landed < 3500; i++) {
      await new Promise((r) => setTimeout(r, 50));
      landed = (await census('interval1')).n;
    }
    expect(landed).toBe(3500);
    await sink.close();
    expect(await census('interval1')).toEqual({ n: 3500, distinct: 3500, lo: 0, hi: 3499 });
  });
});

describe('postgres sink: exactly-once', () => {
  it.each([1, 2, 3])(
    'an interrupted job resumes after its last committed batch; a finished job run again changes nothing (%i connections)',
    async (connections) => {
      const table = `eo1_${connections}`;
      const census1 = () => census(table);
      const spec = pgSpec({ url: db.url }, { table, batchSize: 1000, exactlyOnce: true, connections });
      const stream = streamOf(numberedTable(20_000), NUMBERED_FIELDS, 1024, 3000);
      const stop = new AbortController();
      // Transactions of two batches (1,000 of these rows are about 27 KB of COPY data), ending inside scan batches.
      const cancelled = await failure(
        drive(createPostgresSink(spec, { transactionBytes: 50_000 }), stream, {
          signal: stop.signal,
          afterBatch: (i) => {
            if (i === 7) stop.abort();
          },
        }),
      );
      expect(cancelled.code).toBe('CANCELLED');
      const partial = await census1();
      expect(partial.n).toBeGreaterThan(0);
      expect(partial.n).toBeLessThan(20_000);
      // The resumed run sends only the rows the first did not commit (with several connections they may lie anywhere).
      const resumed = createPostgresSink(spec);
      const written = await drive(resumed, stream);
      if (connections === 1) expect(written).toBeLessThan(stream.batches.length);
      expect(resumed.counts!()).toEqual({ committed: 20_000 - partial.n, before: partial.n });
      expect(await census1()).toEqual({ n: 20_000, distinct: 20_000, lo: 0, hi: 19_999 });
      expect(await drive(createPostgresSink(spec), stream)).toBe(0);
      expect(await census1()).toEqual({ n: 20_000, distinct: 20_000, lo: 0, hi: 19_999 });
      // Another snapshot version is another job.
      await drive(createPostgresSink(spec), stream, { snapshot: snapshotOf('test-table', 1) });
      expect((await census1()).n).toBe(40_000);
    },
  );

  it('an interrupted exactly-once overwrite keeps the old contents, then finishes into the new ones', async () => {
    await db.client.query('CREATE TABLE eo2 (id bigint, label text)');
    await db.client.query(`INSERT INTO eo2 VALUES (-1, 'old')`);
    const spec = pgSpec({ url: db.url }, { table: 'eo2', mode: 'overwrite', batchSize: 1000, exactlyOnce: true });
    const stream = streamOf(numberedTable(6000), NUMBERED_FIELDS, 1000);
    const stop = new AbortController();
    // A transaction per batch.
    await failure(
      drive(createPostgresSink(spec, { transactionBytes: 1 }), stream, {
        signal: stop.signal,
        afterBatch: (i) => (i === 2 ? stop.abort() : undefined),
      }),
    );
    expect(await census('eo2')).toEqual({ n: 1, distinct: 1, lo: -1, hi: -1 });
    // Transactions still queued at the cancel were rolled back; the rerun starts after the last committed one.
    const [{ n: committed }] = (await rows(`SELECT rows_written::int AS n FROM _deltaport_progress WHERE target_table = 'eo2'`)) as {
      n: number;
    }[];
    expect(committed).toBeLessThanOrEqual(3000);
    expect(await drive(createPostgresSink(spec), stream)).toBe((6000 - committed) / 1000);
    expect(await census('eo2')).toEqual({ n: 6000, distinct: 6000, lo: 0, hi: 5999 });
    expect(await drive(createPostgresSink(spec), stream)).toBe(0);
    expect(await census('eo2')).toEqual({ n: 6000, distinct: 6000, lo: 0, hi: 5999 });
  });
});

describe('postgres connection test', () => {
  it('reports the server version and whether the target exists', async () => {
    await db.client.query('CREATE TABLE "Existing Table" (x int)');
    const there = await testConnection(pgSpec({ url: db.url }, { table: 'Existing Table' }));
    expect(there.serverVersion).toMatch(/^PostgreSQL \d+/);
    expect(there.targetExists).toBe(true);
    expect((await testConnection(pgSpec({ url: db.url }, { table: 'existing table' }))).targetExists).toBe(false);
  });

  it('a wrong password is SINK_AUTH and no message carries the password', async () => {
    const wrong = new URL(db.url);
    wrong.password = 'Sup3r-Secret-Wrong';
    const err = await failure(testConnection(pgSpec({ url: wrong.toString() }, {})));
    expect(err.code).toBe('SINK_AUTH');
    expect(err.message).not.toContain('Sup3r-Secret-Wrong');
    expect(err.message).not.toContain('\n');
    const viaSink = await failure(
      drive(createPostgresSink(pgSpec({ url: wrong.toString() })), streamOf(numberedTable(3), NUMBERED_FIELDS, 3)),
    );
    expect(viaSink.code).toBe('SINK_AUTH');
    expect(viaSink.message).not.toContain('Sup3r-Secret-Wrong');
  });

  it('an unreachable server is SINK_CONNECTION', async () => {
    const err = await failure(
      testConnection(pgSpec({ host: '127.0.0.1', port: 1, user: 'u', password: 'Pw-Never-Shown', connectTimeoutMs: 2000 }, {})),
    );
    expect(err.code).toBe('SINK_CONNECTION');
    expect(err.message).toMatch(/^cannot connect to PostgreSQL at u@127\.0\.0\.1:1\/: .*ECONNREFUSED/);
    expect(err.message).not.toContain('Pw-Never-Shown');
  });
});
