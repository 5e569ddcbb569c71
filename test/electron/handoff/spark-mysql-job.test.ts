// Generated Spark jobs into MariaDB, run in Spark local mode through Spark's JDBC writer and MariaDB Connector/J
// (fetched from Maven Central by the job's spark.jars.packages), compared row for row, and column for column, with
// what Deltaport's own export of the same snapshot lands in the same database. What a MySQL job refuses, it refuses
// in one line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sparkJobFor } from '../../../electron/handoff/emit-spark-job.js';
import { DEFAULT_EXECUTION, type SinkSpec, type WriteMode } from '../../../shared/sink-spec.js';
import { exportRequest } from '../../support/export-request.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { tablePath } from '../../support/tables.js';
import { openLocal } from '../../support/task-tables.js';
import { runSparkJobs, sparkMissing, SPARK_TIMEOUT_MS, type JobResult } from './spark-run.js';

const missing = sparkMissing();

const db = useMysqlDatabase('spark_mysql');

interface Case {
  name: string;
  table: string;
  mode: 'append' | 'overwrite';
}

/** Each target is seeded with one export of the table first: append must add to it, overwrite replace it. */
const CASES: Case[] = [
  // Decimals, timestamps, dates, binary, booleans, structs, arrays and maps.
  { name: 'every type -> mysql overwrite', table: 'delta-1.2.1-only-struct-stats', mode: 'overwrite' },
  { name: 'deletion vectors -> mysql append', table: 'table-with-dv-small', mode: 'append' },
  { name: 'column mapping -> mysql append', table: 'table_with_column_mapping', mode: 'append' },
];

function sinkFor(i: number, side: 'dp' | 'sp', mode: Exclude<WriteMode, 'sql'>, exactlyOnce = false): SinkSpec {
  return {
    kind: 'mysql',
    connection: { url: db.url },
    table: `${side}_${i}`,
    mode,
    execution: { ...DEFAULT_EXECUTION, batchSize: 4 },
    exactlyOnce,
  };
}

describe.skipIf(missing !== null)(missing ? `Spark jobs into MySQL (skipped: ${missing})` : 'Spark jobs into MySQL', () => {
  let dir = '';
  let results: JobResult[] = [];
  let log = '';
  const scripts: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'deltaport-spark-mysql-'));
    const jobs: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const source = { tablePath: tablePath(c.table) };
      for (const side of ['dp', 'sp'] as const) await exportRequest({ source, sink: sinkFor(i, side, 'append') });
      await exportRequest({ source, sink: sinkFor(i, 'dp', c.mode) });
      const script = await sparkJobFor(source, sinkFor(i, 'sp', c.mode), openLocal);
      scripts.push(script);
      jobs.push(path.join(dir, `job-${i}.py`));
      writeFileSync(jobs[i], script);
    }
    const url = new URL(db.url);
    ({ results, log } = await runSparkJobs(jobs, {
      MYSQL_USER: decodeURIComponent(url.username),
      MYSQL_PASSWORD: decodeURIComponent(url.password),
    }));
  }, SPARK_TIMEOUT_MS);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A table's columns as the server describes them, and its rows as text, sorted. */
  async function contents(table: string): Promise<{ columns: unknown[]; rows: string[] }> {
    const columns = await db.rows(
      `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLLATION_NAME FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
      [table],
    );
    const rows = await db.rows(`SELECT * FROM \`${table}\``);
    return { columns, rows: rows.map((r) => JSON.stringify(Object.values(r))).sort() };
  }

  for (const [i, c] of CASES.entries()) {
    it(`${c.name}: lands what Deltaport lands`, async () => {
      const result = results[i];
      if (!result.ok) throw new Error(`Spark job failed: ${result.error}\n${log.slice(-2000)}`);
      const [deltaport, spark] = [await contents(`dp_${i}`), await contents(`sp_${i}`)];
      expect(deltaport.rows.length).toBeGreaterThan(0);
      expect(spark.columns).toEqual(deltaport.columns);
      expect(spark.rows).toEqual(deltaport.rows);
    });
  }

  it('leaves no staging table and writes no credentials into the script', async () => {
    const left = await db.rows(
      `SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE '\\_deltaport\\_spark\\_%'`,
    );
    expect(left).toEqual([]);
    const password = decodeURIComponent(new URL(db.url).password);
    expect(password.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).not.toContain(password);
    expect(scripts[0]).toContain('"password": "MYSQL_PASSWORD"');
  });
});

describe('what a Spark job into MySQL refuses', () => {
  it('upsert and exactly-once, in one line each', async () => {
    const source = { tablePath: tablePath('table-with-dv-small') };
    const upsert = { ...sinkFor(0, 'sp', 'upsert'), keyColumns: ['value'] };
    await expect(sparkJobFor(source, upsert, openLocal)).rejects.toThrow(
      /^a Spark job into MySQL appends or overwrites; upsert with Deltaport itself$/,
    );
    await expect(sparkJobFor(source, sinkFor(0, 'sp', 'append', true), openLocal)).rejects.toThrow(
      /^a Spark job into MySQL has no exactly-once; export with Deltaport itself for that$/,
    );
  });
});
