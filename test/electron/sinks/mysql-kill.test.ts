// Exports into MariaDB killed with SIGKILL at 50 random points (kill-runs.ts), each run again with exactly-once: the
// killed export leaves whole transactions only, and the rerun ends with every row exactly once.
import { describe, expect, it } from 'vitest';
import { PROGRESS_TABLE } from '../../../electron/sinks/exactly-once.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { killRuns, type KillCensus } from './kill-runs.js';
import { KILL_BATCH_ROWS, KILL_ROWS } from './kill-sinks.js';
import { mysqlSpec } from './sink-harness.js';

const db = useMysqlDatabase('mysql_kill');

async function exists(table: string): Promise<boolean> {
  const found = await db.rows('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [table]);
  return found.length > 0;
}

async function census(table: string): Promise<KillCensus> {
  if (!(await exists(table))) return { n: 0, distinct: 0, maxId: -1, ledgerRows: 0 };
  const [r] = await db.rows(`SELECT count(*) AS n, count(DISTINCT id) AS d, coalesce(max(id), -1) AS m FROM \`${table}\``);
  const ledger = (await exists(PROGRESS_TABLE))
    ? await db.rows(`SELECT rows_written FROM \`${PROGRESS_TABLE}\` WHERE target_table = ?`, [table])
    : [];
  return { n: Number(r.n), distinct: Number(r.d), maxId: Number(r.m), ledgerRows: Number(ledger[0]?.rows_written ?? 0) };
}

/** Waits until the server has ended the killed export's sessions (and its named lock with them): it rolls back what
 * the killed process had sent of its last transaction once it sees the connection closed. */
async function killedSessionsGone(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const [r] = await db.rows('SELECT count(*) AS n FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()');
    if (Number(r.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the killed export still has a session after 30 s');
}

describe('exports into MariaDB killed with SIGKILL', () => {
  it('50 runs: whole transactions only after each kill, every row exactly once after the rerun', { timeout: 600_000 }, async () => {
    const started = performance.now();
    const lines = await killRuns(
      {
        kind: 'mysql',
        spec: (name) => mysqlSpec({ url: db.url }, { table: name, batchSize: KILL_BATCH_ROWS, exactlyOnce: true }),
        settled: killedSessionsGone,
        census: (spec) => census((spec as { table: string }).table),
      },
      50,
      20261206,
    );
    console.log(`${lines.join('\n')}\nthe 50 killed runs took ${Math.round((performance.now() - started) / 1000)} s`);
    // The kills fell within the exports: most runs were killed with some rows committed and some not.
    expect(
      lines.filter((l) => /killed after \d+ ms, [1-9]\d* rows left/.test(l) && !l.endsWith(` ${KILL_ROWS} rows left`)).length,
    ).toBeGreaterThan(10);
  });
});
