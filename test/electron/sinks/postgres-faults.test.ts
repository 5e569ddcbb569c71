// Network faults between the sink and the real PostgreSQL, injected by a loopback proxy (test/support/fault-proxy.ts):
// connections cut, reset or stalled at random points of the server's replies. Every run must land each row exactly
// once, or fail with one line; never hang (every wait below is bounded by the sink's own timeout). The runs alternate
// between one, two and three connections, a fault striking one of them (transactions of 200 KB, so that every
// connection has several).
import { describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { createPostgresSink } from '../../../electron/sinks/postgres-sink.js';
import { startFaultProxy, type Fault } from '../../support/fault-proxy.js';
import { useTestDatabase } from '../../support/test-database.js';
import { faultRuns, random, type Census } from './fault-runs.js';
import { drive, NUMBERED_FIELDS, numberedTable, pgSpec, streamOf } from './sink-harness.js';

const db = useTestDatabase('pg_faults');

async function census(table: string): Promise<Census> {
  const [found] = (await db.client.query(`SELECT to_regclass('"${table}"') IS NOT NULL AS found`)).rows;
  if (!found.found) return { n: 0, distinct: 0 };
  const { rows } = await db.client.query(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct FROM "${table}"`);
  return rows[0] as Census;
}

const ROWS = 100_000;
const stream = streamOf(numberedTable(ROWS), NUMBERED_FIELDS, 2048);
const { cleanSpan, faultedRun } = faultRuns({
  url: () => db.url,
  sink: (connection, options) => createPostgresSink(pgSpec(connection, options), { transactionBytes: 200_000 }),
  census,
  rows: ROWS,
  stream,
});

describe('postgres sink under network faults', () => {
  it(
    'a connection cut at a random point of the replies never lands a batch twice (plain append, many runs)',
    { timeout: 240_000 },
    async () => {
      const span = await cleanSpan('cut_clean', { batchSize: 5000 });

      const next = random(20261201);
      const outcomes: string[] = [];
      for (let run = 0; run < 30; run++) {
        const connections = 1 + (run % 3);
        // One of the connections, and in every fourth run the first three, is cut or reset at a random byte of its
        // share of the replies.
        const fault = (): Fault => ({ action: next() < 0.75 ? 'cut' : 'reset', atByte: Math.floor((next() * span) / connections) });
        const faults: (Fault | null)[] = run % 4 === 3 ? [fault(), fault(), fault()] : [];
        if (run % 4 !== 3) faults[Math.floor(next() * connections)] = fault();
        const proxy = await startFaultProxy(db.url, (n) => faults[n] ?? null);
        const table = `cut_${run}`;
        let outcome = 'ok';
        try {
          const spec = pgSpec({ url: proxy.url }, { table, batchSize: 5000, maxRetries: 5, connections });
          await drive(createPostgresSink(spec, { transactionBytes: 200_000 }), stream);
        } catch (err) {
          expect(err).toBeInstanceOf(DeltaportError);
          expect((err as Error).message).not.toContain('\n');
          outcome = `failed: ${(err as Error).message}`;
        } finally {
          await proxy.close();
        }
        const landed = await db.client.query(`SELECT to_regclass('"${table}"') IS NOT NULL AS found`);
        const counted = landed.rows[0].found ? await census(table) : { n: 0, distinct: 0 };
        outcomes.push(`run ${run} (${connections} connections) ${JSON.stringify(faults)}: ${outcome}, ${counted.n} rows`);
        expect(counted.n, outcomes.join('\n')).toBe(counted.distinct);
        expect(outcome, outcomes.join('\n')).toBe('ok');
        expect(counted.n, outcomes.join('\n')).toBe(ROWS);
      }
      console.log(outcomes.join('\n'));
    },
  );

  it.each([
    ['exactly-once append', { exactlyOnce: true }],
    ['upsert', { mode: 'upsert' as const, keyColumns: ['id'] }],
    ['overwrite', { mode: 'overwrite' as const }],
    ['exactly-once overwrite', { mode: 'overwrite' as const, exactlyOnce: true }],
  ])('%s: cuts at random points land every row once', { timeout: 240_000 }, async (name, options) => {
    const base = name.replaceAll(/[^a-z]/g, '_');
    const span = await cleanSpan(`${base}_clean`, { ...options, batchSize: 5000 });
    const next = random(name.length * 7919);
    const outcomes: string[] = [];
    for (let run = 0; run < 8; run++) {
      const connections = 2 + (run % 2);
      // A cut on one connection, a reset on another (or on the first one's next).
      const faults: (Fault | null)[] = [];
      faults[Math.floor(next() * connections)] = { action: 'cut', atByte: Math.floor((next() * span) / connections) };
      faults[connections] = { action: 'reset', atByte: Math.floor((next() * span) / connections) };
      const { failure, landed } = await faultedRun(`${base}_${run}`, faults, { ...options, batchSize: 5000, maxRetries: 5, connections });
      outcomes.push(`run ${run} (${connections} connections) ${JSON.stringify(faults)}: ${failure ?? 'ok'}, ${landed.n} rows`);
      expect({ failure, landed }, outcomes.join('\n')).toEqual({ failure: null, landed: { n: ROWS, distinct: ROWS } });
    }
    console.log(`${name}:\n${outcomes.join('\n')}`);
  });

  it(
    'a server that stops answering (set-up, COPY or COMMIT) times out, is dropped and retried: every row once, no hang',
    { timeout: 240_000 },
    async () => {
      const span = await cleanSpan('stall_clean', { batchSize: 5000 });
      const next = random(4242);
      const outcomes: string[] = [];
      // Start-up takes the first ~460 bytes: byte 0, 200 and 430 stall it, 700 the set-up statements, the rest
      // (anywhere in the export) mostly a transaction.
      // The first connection is stalled: with two or three, somewhere in its share of the replies.
      const points = [0, 200, 430, 700, 900, ...Array.from({ length: 5 }, () => Math.floor((next() * span) / 3))];
      for (const [run, atByte] of points.entries()) {
        const connections = 1 + (run % 3);
        const { failure, landed, struck } = await faultedRun(
          `stall_${run}`,
          [{ action: 'stall', atByte }],
          { batchSize: 5000, maxRetries: 3, connections },
          { statementTimeoutMs: 3000, connectTimeoutMs: 3000 },
        );
        outcomes.push(`run ${run} (${connections} connections) stall at byte ${atByte}: ${failure ?? 'ok'}, ${landed.n} rows`);
        expect(struck).toBe(1);
        expect({ failure, landed }, outcomes.join('\n')).toEqual({ failure: null, landed: { n: ROWS, distinct: ROWS } });
      }
      console.log(outcomes.join('\n'));
    },
  );

  it(
    'with every connection stalled, the export fails with one line after its retries instead of hanging',
    { timeout: 60_000 },
    async () => {
      const { failure, landed } = await faultedRun(
        'stall_all',
        Array.from({ length: 10 }, () => ({ action: 'stall' as const, atByte: 600 })),
        { batchSize: 5000, maxRetries: 1 },
        { statementTimeoutMs: 1000 },
      );
      expect(failure).toMatch(/^setting up the target failed after 2 attempts: PostgreSQL did not answer within 1 s/);
      expect(landed.n).toBe(0);
    },
  );

  it.each([false, true])(
    'a COMMIT whose answer the second connection loses is found committed, not sent again (exactly-once: %s)',
    { timeout: 60_000 },
    async (exactlyOnce) => {
      // Two transactions of 1,000 rows: the first goes over the first connection, the second over the second.
      const rows = streamOf(numberedTable(2000), NUMBERED_FIELDS, 1000);
      const run = async (table: string, faults: (Fault | null)[]) => {
        const proxy = await startFaultProxy(db.url, (n) => faults[n] ?? null);
        try {
          const spec = pgSpec({ url: proxy.url }, { table, batchSize: 1000, connections: 2, exactlyOnce });
          await drive(createPostgresSink(spec, { transactionBytes: 1 }), rows);
        } finally {
          await proxy.close();
        }
        return proxy;
      };
      const clean = await run(`second_clean_${exactlyOnce}`, []);
      expect(clean.connections).toBe(2);
      // The second connection's last answer is its COMMIT's: ParseComplete, BindComplete, CommandComplete "COMMIT"
      // and ReadyForQuery (5 + 5 + 12 + 6 bytes). Cut there, the server has committed and the sink never hears it.
      const table = `second_cut_${exactlyOnce}`;
      const faulted = await run(table, [null, { action: 'cut', atByte: clean.bytesToClient[1] - 28 }]);
      expect(faulted.faults).toBe(1);
      expect(await census(table)).toEqual({ n: 2000, distinct: 2000 });
    },
  );
});
