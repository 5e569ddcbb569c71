// `deltaport export` into a real PostgreSQL: the SQL sink flags reach the sink.
import { describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { duck, sqlText } from '../../support/duckdb.js';
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

  // A value that is no whole number is a usage error (exit 2); one out of range the spec's (exit 1).
  it.each([
    ['0', /^deltaport: the number of connections must be a whole number from 1 to 16\n$/],
    ['17', /^deltaport: the number of connections must be a whole number from 1 to 16\n$/],
    ['-1', /^deltaport: --connections must be a whole number, got '-1'\n$/],
    ['x', /^deltaport: --connections must be a whole number, got 'x'\n$/],
  ])('--connections %s is refused in one line before anything is written', async (value, message) => {
    const run = await cli('export', table, '--sink', db.url, '--target', 'refused_connections', '--connections', value);
    expect(run).toMatchObject({ code: /^\d+$/.test(value) ? 1 : 2, stdout: '' });
    expect(run.stderr).toMatch(message);
    expect((await db.client.query(`SELECT to_regclass('refused_connections') IS NULL AS gone`)).rows).toEqual([{ gone: true }]);
  });

  it('--connections is refused for any sink but PostgreSQL', async () => {
    for (const sink of ['sqlite:/tmp/deltaport-connections.db', 'mysql://u@localhost/db', 'csv:/tmp/deltaport-connections.csv']) {
      const run = await cli('export', table, '--sink', sink, '--connections', '2');
      expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(/^deltaport: --connections applies only to postgres sinks\n/) });
    }
  });

  it(
    'append, overwrite and upsert over 3 connections land the rows of 1 connection, as DuckDB reads them from the data files',
    { timeout: 240_000 },
    async () => {
      const covid = tablePath('COVID-19_NYT');
      const [oracle] = await duck(
        `SELECT count(*)::INT AS n, sum(cases)::BIGINT AS cases, sum(deaths)::BIGINT AS deaths FROM read_parquet(${sqlText(`${covid}/*.parquet`)})`,
      );
      const census = async (target: string) => {
        const [r] = (
          await db.client.query(`SELECT count(*)::int AS n, sum(cases)::bigint AS cases, sum(deaths)::bigint AS deaths FROM ${target}`)
        ).rows;
        return { n: r.n, cases: BigInt(r.cases), deaths: BigInt(r.deaths) };
      };
      for (const mode of ['append', 'overwrite']) {
        for (const connections of ['1', '3']) {
          const args = ['export', covid, '--columns', 'date,county,cases,deaths', '--sink', db.url, '--mode', mode];
          const run = await cli(...args, '--target', `covid_${mode}_${connections}`, '--connections', connections);
          expect(run.stderr).toBe('');
          expect(await census(`covid_${mode}_${connections}`)).toEqual({ n: oracle.n, cases: oracle.cases, deaths: oracle.deaths });
        }
        // Row for row the same, duplicates included.
        const differ = await db.client.query(
          `SELECT count(*)::int AS n FROM ((SELECT * FROM covid_${mode}_1 EXCEPT ALL SELECT * FROM covid_${mode}_3)
             UNION ALL (SELECT * FROM covid_${mode}_3 EXCEPT ALL SELECT * FROM covid_${mode}_1)) d`,
        );
        expect(differ.rows).toEqual([{ n: 0 }]);
      }
      // Upsert on (date, county, state): one row per key, as many as DuckDB counts, the later row of a key winning
      // the same way over 3 connections (a staging table each, merged at the end) as over 1.
      const [keys] = await duck(
        `SELECT count(DISTINCT (date, county, state))::INT AS n FROM read_parquet(${sqlText(`${covid}/*.parquet`)})`,
      );
      for (const connections of ['1', '3']) {
        const args = [
          'export',
          covid,
          '--columns',
          'date,county,state,cases',
          '--sink',
          db.url,
          '--mode',
          'upsert',
          '--key',
          'date,county,state',
        ];
        const run = await cli(...args, '--target', `covid_upsert_${connections}`, '--connections', connections);
        expect(run.stderr).toBe('');
        expect((await db.client.query(`SELECT count(*)::int AS n FROM covid_upsert_${connections}`)).rows).toEqual([{ n: keys.n }]);
      }
      const differ = await db.client.query(
        `SELECT count(*)::int AS n FROM ((SELECT * FROM covid_upsert_1 EXCEPT ALL SELECT * FROM covid_upsert_3)
           UNION ALL (SELECT * FROM covid_upsert_3 EXCEPT ALL SELECT * FROM covid_upsert_1)) d`,
      );
      expect(differ.rows).toEqual([{ n: 0 }]);
    },
  );
});
