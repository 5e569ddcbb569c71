// Exports into DuckDB files killed with SIGKILL at 50 random points (kill-runs.ts), each run again with exactly-once:
// the killed export leaves whole transactions only (DuckDB replays its write-ahead log up to the last commit), and the
// rerun ends with every row exactly once. Both ways into DuckDB: the reader's batches written to Parquet parts, and
// DuckDB reading a Delta table's own files itself (a whole file a transaction, so the ledger's committed rows are a
// number of whole files and a rerun starts with the next file). The files are read by the tests' own DuckDB.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { PROGRESS_TABLE } from '../../../electron/sinks/exactly-once.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { scratchFolders } from '../delta/log-files.js';
import { killRuns, type KillCensus } from './kill-runs.js';
import { KILL_BATCH_ROWS, KILL_ROWS, writeKillTable, type KillSinkKind } from './kill-sinks.js';
import { duckdbSpec } from './sink-harness.js';

const scratch = scratchFolders('duckdb-kill');
afterAll(() => scratch.removeAll());
const dir = scratch.make();

/** The target's census, the file attached read-only and let go again (the next run's sink opens it). */
async function census(spec: SinkSpec): Promise<KillCensus> {
  const { path: file, table } = spec as Extract<SinkSpec, { kind: 'duckdb' }>;
  if (!existsSync(file)) return { n: 0, distinct: 0, maxId: -1, ledgerRows: 0 };
  await duck(`ATTACH ${sqlText(file)} AS killed (READ_ONLY)`);
  try {
    const tables = new Set(
      (await duck<{ name: string }>("SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'killed'")).map((t) => t.name),
    );
    if (!tables.has(table)) return { n: 0, distinct: 0, maxId: -1, ledgerRows: 0 };
    const [r] = await duck(
      `SELECT count(*)::BIGINT AS n, count(DISTINCT id)::BIGINT AS d, coalesce(max(id), -1)::BIGINT AS m FROM killed."${table}"`,
    );
    const ledger = tables.has(PROGRESS_TABLE)
      ? await duck(`SELECT rows_written FROM killed.${PROGRESS_TABLE} WHERE target_table = ${sqlText(table)}`)
      : [];
    return { n: Number(r.n), distinct: Number(r.d), maxId: Number(r.m), ledgerRows: Number(ledger[0]?.rows_written ?? 0) };
  } finally {
    await duck('DETACH killed');
  }
}

describe('exports into DuckDB killed with SIGKILL', () => {
  const cases: [string, KillSinkKind, number][] = [
    ['the reader’s batches', 'duckdb', 20261207],
    ['the Delta table’s own files', 'duckdb-files', 20261208],
  ];
  it.each(cases)(
    '50 runs of %s: whole transactions only after each kill, every row exactly once after the rerun',
    { timeout: 600_000 },
    async (_, kind, seed) => {
      if (kind === 'duckdb-files') await writeKillTable(dir);
      const started = performance.now();
      const lines = await killRuns(
        {
          kind,
          spec: (name) =>
            duckdbSpec(path.join(dir, `${kind}-${name}.duckdb`), { table: name, batchSize: KILL_BATCH_ROWS, exactlyOnce: true }),
          // DuckDB's lock of the file goes with the killed process.
          settled: async () => undefined,
          census,
        },
        50,
        seed,
      );
      console.log(`${lines.join('\n')}\nthe 50 killed runs took ${Math.round((performance.now() - started) / 1000)} s`);
      expect(
        lines.filter((l) => /killed after \d+ ms, [1-9]\d* rows left/.test(l) && !l.endsWith(` ${KILL_ROWS} rows left`)).length,
      ).toBeGreaterThan(10);
    },
  );
});
