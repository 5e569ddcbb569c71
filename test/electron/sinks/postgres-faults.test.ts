// Network faults between the sink and the real PostgreSQL, injected by a loopback proxy (test/support/fault-proxy.ts):
// connections cut, reset or stalled at random points of the server's replies. Every run must land each row exactly
// once, or fail with one line; never hang (every wait below is bounded by the sink's own timeout).
import { describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { createPostgresSink } from '../../../electron/sinks/postgres-sink.js';
import { startFaultProxy, type Fault } from '../../support/fault-proxy.js';
import { useTestDatabase } from '../../support/test-database.js';
import { drive, NUMBERED_FIELDS, numberedTable, pgSpec, streamOf } from './sink-harness.js';

const db = useTestDatabase('pg_faults');

/** A small deterministic generator, so that a failing run can be told by its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

async function census(table: string): Promise<{ n: number; distinct: number }> {
  const { rows } = await db.client.query(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS distinct FROM "${table}"`);
  return rows[0] as { n: number; distinct: number };
}

const ROWS = 100_000;
const stream = streamOf(numberedTable(ROWS), NUMBERED_FIELDS, 2048);

describe('postgres sink under network faults', () => {
  it('a connection cut at a random point of the replies never lands a batch twice (plain append, many runs)', { timeout: 240_000 }, async () => {
    // How many bytes the server sends over a whole clean export: the faults fall anywhere in that span.
    const clean = await startFaultProxy(db.url);
    await drive(createPostgresSink(pgSpec({ url: clean.url }, { table: 'cut_clean', batchSize: 5000 })), stream);
    await clean.close();
    const span = clean.bytesToClient[0];
    expect(await census('cut_clean')).toEqual({ n: ROWS, distinct: ROWS });

    const next = random(20261201);
    const outcomes: string[] = [];
    for (let run = 0; run < 30; run++) {
      // The first connection, and in every third run the two after it as well, is cut or reset at a random byte.
      const faults: Fault[] = Array.from({ length: run % 3 === 2 ? 3 : 1 }, () => ({ action: next() < 0.75 ? 'cut' : 'reset', atByte: Math.floor(next() * span) }));
      const proxy = await startFaultProxy(db.url, (n) => faults[n] ?? null);
      const table = `cut_${run}`;
      let outcome = 'ok';
      try {
        await drive(createPostgresSink(pgSpec({ url: proxy.url }, { table, batchSize: 5000, maxRetries: 5 })), stream);
      } catch (err) {
        expect(err).toBeInstanceOf(DeltaportError);
        expect((err as Error).message).not.toContain('\n');
        outcome = `failed: ${(err as Error).message}`;
      } finally {
        await proxy.close();
      }
      const landed = await db.client.query(`SELECT to_regclass('"${table}"') IS NOT NULL AS found`);
      const counted = landed.rows[0].found ? await census(table) : { n: 0, distinct: 0 };
      outcomes.push(`run ${run} ${JSON.stringify(faults)}: ${outcome}, ${counted.n} rows`);
      expect(counted.n, outcomes.join('\n')).toBe(counted.distinct);
      expect(outcome, outcomes.join('\n')).toBe('ok');
      expect(counted.n, outcomes.join('\n')).toBe(ROWS);
    }
    console.log(outcomes.join('\n'));
  });
});
