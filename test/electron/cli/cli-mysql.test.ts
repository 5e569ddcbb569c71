// `deltaport export --sink mysql://` into a real MariaDB: the SQL sink flags reach the MySQL sink.
import { describe, expect, it } from 'vitest';
import { duck, sqlText } from '../../support/duckdb.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { tablePath } from '../../support/tables.js';
import { cli } from './run-cli.js';

const table = tablePath('delta-0.8.0-partitioned');
const db = useMysqlDatabase('cli_mysql');

describe('deltaport export --sink mysql://', () => {
  it('writes the chosen columns into the named target, exactly once across reruns', async () => {
    const args = [
      'export',
      table,
      '--columns',
      'value,year',
      '--sink',
      db.url,
      '--target',
      'Sales 2021',
      '--exactly-once',
      '--batch-size',
      '2',
    ];
    const first = await cli(...args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect((await cli(...args)).code).toBe(0);
    const got = await db.rows('SELECT value, year FROM `Sales 2021` ORDER BY value');
    // Every data file's rows (DuckDB), with year from the hive path as the log's partitionValues also say.
    const expected = await duck(
      `SELECT value, CAST(year AS VARCHAR) AS year FROM read_parquet(${sqlText(`${table}/**/*.parquet`)}, hive_partitioning=true) ORDER BY value`,
    );
    expect(got).toEqual(expected);
  });

  it('upserts on --key (mariadb:// works the same), twice giving the same table', async () => {
    const url = db.url.replace(/^mysql:/, 'mariadb:');
    const args = ['export', table, '--columns', 'value,month', '--sink', url, '--target', 'by_value', '--mode', 'upsert', '--key', 'value'];
    expect((await cli(...args)).code).toBe(0);
    const once = await db.rows('SELECT value, month FROM by_value ORDER BY value');
    expect((await cli(...args)).code).toBe(0);
    expect(await db.rows('SELECT value, month FROM by_value ORDER BY value')).toEqual(once);
    const [source] = await duck(`SELECT count(DISTINCT value)::INTEGER AS n FROM read_parquet(${sqlText(`${table}/**/*.parquet`)})`);
    expect(once.length).toBe(source.n);
  });

  it('overwrite and --statement-timeout-ms reach the sink; a wrong password is one line', async () => {
    const args = [
      'export',
      table,
      '--columns',
      'value',
      '--sink',
      db.url,
      '--target',
      'over',
      '--mode',
      'overwrite',
      '--statement-timeout-ms',
      '5000',
    ];
    expect((await cli(...args)).code).toBe(0);
    expect((await cli(...args)).code).toBe(0);
    const [source] = await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(`${table}/**/*.parquet`)})`);
    expect(await db.rows('SELECT count(*) AS n FROM `over`')).toEqual([{ n: String(source.n) }]);
    const wrong = new URL(db.url);
    wrong.password = 'wrong-password';
    const refused = await cli('export', table, '--sink', wrong.toString(), '--target', 'never');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^deltaport: MySQL refused the login of deltaport@127\.0\.0\.1:\d+\/\w+: Access denied[^\n]*\n$/);
    expect(refused.stderr).not.toContain('wrong-password');
  });
});
