// `deltaport export` into a real PostgreSQL: the SQL sink flags reach the sink.
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { useTestDatabase } from '../../support/test-database.js';
import { tablePath } from '../../support/tables.js';
import { distinctValues, exactlyOnceArgs, PARTITIONED as table, rowCount, valueAndYear } from './partitioned-export.js';
import { cli } from './run-cli.js';

const db = useTestDatabase('cli_export');

describe('deltaport export --sink postgres://', () => {
  it('writes the chosen columns into the named target, exactly once across reruns', async () => {
    const args = exactlyOnceArgs(db.url);
    const first = await cli(...args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const again = await cli(...args);
    expect(again.code).toBe(0);
    const got = (await db.client.query('SELECT value, year FROM "Sales 2021" ORDER BY value')).rows;
    expect(got).toEqual(await valueAndYear());
  });

  it('upserts on --key', async () => {
    const args = [
      'export',
      table,
      '--columns',
      'value,month',
      '--sink',
      db.url,
      '--target',
      'by_value',
      '--mode',
      'upsert',
      '--key',
      'value',
    ];
    expect((await cli(...args)).code).toBe(0);
    expect((await cli(...args)).code).toBe(0);
    const [{ n, distinct }] = (await db.client.query('SELECT count(*)::int AS n, count(DISTINCT value)::int AS distinct FROM by_value'))
      .rows;
    expect(n).toBe(distinct);
    expect(n).toBe(await distinctValues());
  });

  it('refuses upsert keys holding NULL before anything is written', { timeout: 60_000 }, async () => {
    const refused = await cli(
      'export',
      tablePath('COVID-19_NYT'),
      '--sink',
      db.url,
      '--target',
      'covid',
      '--mode',
      'upsert',
      '--key',
      'date,fips',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^deltaport: upsert keys must not be NULL: "fips" is NULL in \d+ rows; choose key columns without NULLs\n$/,
    );
    expect((await db.client.query(`SELECT to_regclass('covid') IS NULL AS gone`)).rows).toEqual([{ gone: true }]);
  });

  it('--statement-timeout-ms gives a server that stopped answering up and retries on a new connection', { timeout: 60_000 }, async () => {
    // The first connection goes silent just after its start-up (about 460 bytes from the server).
    const proxy = await startFaultProxy(db.url, (n) => (n === 0 ? { action: 'stall', atByte: 700 } : null));
    try {
      const run = await cli(
        'export',
        table,
        '--columns',
        'value',
        '--sink',
        proxy.url,
        '--target',
        'silent',
        '--statement-timeout-ms',
        '3000',
      );
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(proxy.faults).toBe(1);
    } finally {
      await proxy.close();
    }
    expect((await db.client.query('SELECT count(*)::int AS n FROM silent')).rows).toEqual([{ n: await rowCount() }]);
    expect((await cli('export', table, '--sink', 'sqlite:/tmp/x.db', '--statement-timeout-ms', '10')).stderr).toMatch(
      /^deltaport: --statement-timeout-ms applies only to postgres and mysql sinks\n/,
    );
  });
});
