// Upsert keys that hold NULL are refused before anything is written, the same in both dialects, and the plan shows
// it. COVID-19_NYT's fips is NULL in some rows (DuckDB counts them from the data files).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { planTask } from '../../../electron/jobs/tasks.js';
import { tablePath } from '../../support/tables.js';
import { cli } from '../cli/run-cli.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { taskTables } from '../../support/task-tables.js';

const tables = taskTables();

const COVID = tablePath('COVID-19_NYT');
const out = mkdtempSync(path.join(tmpdir(), 'deltaport-null-keys-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function nullFips(): Promise<number> {
  const [r] = await duck(`SELECT (count(*) - count(fips))::INTEGER AS n FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`);
  return r.n as number;
}

describe('upsert keys that hold NULL', () => {
  it('are refused with one line before the SQLite file is even created', { timeout: 60_000 }, async () => {
    const file = path.join(out, 'covid.db');
    const run = await cli('export', COVID, '--sink', `sqlite:${file}`, '--mode', 'upsert', '--key', 'date,fips');
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `deltaport: upsert keys must not be NULL: "fips" is NULL in ${await nullFips()} rows; choose key columns without NULLs\n`,
    });
    expect(existsSync(file)).toBe(false);
  });

  it('show in the plan as the reason the export cannot run', { timeout: 60_000 }, async () => {
    const sink: SinkSpec = {
      kind: 'sqlite',
      path: path.join(out, 'plan.db'),
      table: 't',
      mode: 'upsert',
      keyColumns: ['date', 'fips'],
      execution: { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 },
      exactlyOnce: false,
    };
    const plan = await planTask(tables, { source: { tablePath: COVID }, sink });
    expect(plan.incompatibility).toBe(
      `upsert keys must not be NULL: "fips" is NULL in ${await nullFips()} rows; choose key columns without NULLs`,
    );
    const fine = await planTask(tables, { source: { tablePath: COVID }, sink: { ...sink, keyColumns: ['date', 'county', 'state'] } });
    expect(fine.incompatibility).toBeNull();
  });
});
