// `deltaport export --sink mysql://` into a real MariaDB: the SQL sink flags reach the MySQL sink.
import { describe, expect, it } from 'vitest';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { distinctValues, exactlyOnceArgs, PARTITIONED as table, rowCount, valueAndYear } from './partitioned-export.js';
import { cli } from './run-cli.js';

const db = useMysqlDatabase('cli_mysql');

describe('deltaport export --sink mysql://', () => {
  it('writes the chosen columns into the named target, exactly once across reruns', async () => {
    const args = exactlyOnceArgs(db.url);
    const first = await cli(...args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect((await cli(...args)).code).toBe(0);
    const got = await db.rows('SELECT value, year FROM `Sales 2021` ORDER BY value');
    expect(got).toEqual(await valueAndYear());
  });

  it('upserts on --key (mariadb:// works the same), twice giving the same table', async () => {
    const url = db.url.replace(/^mysql:/, 'mariadb:');
    const args = ['export', table, '--columns', 'value,month', '--sink', url, '--target', 'by_value', '--mode', 'upsert', '--key', 'value'];
    expect((await cli(...args)).code).toBe(0);
    const once = await db.rows('SELECT value, month FROM by_value ORDER BY value');
    expect((await cli(...args)).code).toBe(0);
    expect(await db.rows('SELECT value, month FROM by_value ORDER BY value')).toEqual(once);
    expect(once.length).toBe(await distinctValues());
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
    expect(await db.rows('SELECT count(*) AS n FROM `over`')).toEqual([{ n: String(await rowCount()) }]);
    const wrong = new URL(db.url);
    wrong.password = 'wrong-password';
    const refused = await cli('export', table, '--sink', wrong.toString(), '--target', 'never');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^deltaport: MySQL refused the login of deltaport@127\.0\.0\.1:\d+\/\w+: Access denied[^\n]*\n$/);
    expect(refused.stderr).not.toContain('wrong-password');
  });
});
