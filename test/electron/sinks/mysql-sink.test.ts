// The MySQL sink against a real MariaDB (test/support/mariadb.ts): every mode, the type map read back by the server's
// own client, Show plan, Test connection, and bad input refused with one line and nothing written.
import { Table, vectorFromArray, Utf8, makeVector } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { testConnection } from '../../../electron/sinks/connection-test.js';
import { createMysqlSink } from '../../../electron/sinks/mysql/mysql-sink.js';
import { planSqlExport } from '../../../electron/sinks/sql-plan.js';
import type { StructField } from '../../../shared/delta-schema.js';
import { failure } from '../../support/failure.js';
import { useMysqlDatabase } from '../../support/mysql-database.js';
import { ALL_TYPES_FIELDS, allTypesTable, EXPECTED } from './all-types.js';
import { drive, driveChecked, mysqlSpec, NUMBERED_FIELDS, numberedTable, streamOf } from './sink-harness.js';

const db = useMysqlDatabase('mysql_sink');

async function census(table: string): Promise<{ n: number; distinct: number; lo: number | null; hi: number | null }> {
  const [r] = await db.rows(`SELECT count(*) AS n, count(DISTINCT id) AS d, min(id) AS lo, max(id) AS hi FROM \`${table}\``);
  const num = (v: unknown) => (v === null ? null : Number(v));
  return { n: Number(r.n), distinct: Number(r.d), lo: num(r.lo), hi: num(r.hi) };
}

async function tableExists(table: string): Promise<boolean> {
  return (await db.rows('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [table])).length > 0;
}

/** MySQL has no NaN nor infinities: the float columns are tested apart (all-types.ts holds them in f and d). */
const FINITE_FIELDS = ALL_TYPES_FIELDS.filter((f) => f.name !== 'f' && f.name !== 'd');
function finiteTypesTable(): Table {
  const all = allTypesTable();
  return all.select(FINITE_FIELDS.map((f) => f.name));
}

describe('mysql sink: types', () => {
  it('creates the mapped column types and keeps every value exactly (the client parses JSON columns itself)', async () => {
    await drive(createMysqlSink(mysqlSpec({ url: db.url }, { table: 'All `Types`' })), streamOf(finiteTypesTable(), FINITE_FIELDS, 3));
    const types = await db.rows(
      "SELECT column_name AS c, column_type AS t FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'All `Types`' ORDER BY ordinal_position",
    );
    expect(Object.fromEntries(types.map((r) => [r.c, String(r.t).replace(/^(tinyint|smallint|int|bigint)\(\d+\)/, '$1')]))).toEqual({
      b: 'smallint',
      sh: 'smallint',
      i: 'int',
      l: 'bigint',
      dec38: 'decimal(38,18)',
      dec10: 'decimal(10,2)',
      s: 'longtext',
      bin: 'longblob',
      dt: 'date',
      ts: 'datetime(6)',
      ntz: 'datetime(6)',
      bool: 'tinyint',
      // MariaDB's JSON is LONGTEXT with a JSON_VALID check.
      st: 'longtext',
      arr: 'longtext',
      m: 'longtext',
    });
    const rows = await db.rows(
      `SELECT CAST(b AS CHAR) AS b, CAST(sh AS CHAR) AS sh, CAST(i AS CHAR) AS i, CAST(l AS CHAR) AS l, CAST(dec38 AS CHAR) AS dec38,
              CAST(dec10 AS CHAR) AS dec10, s, lower(hex(bin)) AS bin, DATE_FORMAT(dt, '%Y-%m-%d') AS dt,
              DATE_FORMAT(ts, '%Y-%m-%dT%H:%i:%s.%f') AS ts, DATE_FORMAT(ntz, '%Y-%m-%dT%H:%i:%s.%f') AS ntz, bool, st, arr, m
         FROM \`All \`\`Types\`\`\``,
    );
    const column = (name: string) => rows.map((r) => r[name]);
    for (const name of ['b', 'sh', 'i', 'l', 'dec38', 'dec10', 's', 'bin', 'dt', 'ts', 'ntz'] as const)
      expect(column(name)).toEqual(EXPECTED[name]);
    expect(column('bool').map((v) => (v === null ? null : Number(v) === 1))).toEqual(EXPECTED.bool);
    for (const name of ['st', 'arr', 'm'] as const)
      expect(column(name).map((v) => (typeof v === 'string' ? JSON.parse(v) : v))).toEqual(EXPECTED[name]);
  });

  it('floats and doubles land as the same numbers; a NaN is refused with the row named, nothing written', async () => {
    const fields: StructField[] = [
      { name: 'f', type: 'float', nullable: false },
      { name: 'd', type: 'double', nullable: false },
    ];
    const finite = new Table({
      f: makeVector(Float32Array.of(-1.5, 0.1, 3.4e38)),
      d: makeVector(Float64Array.of(1e308, 5e-324, -0.1)),
    });
    await drive(createMysqlSink(mysqlSpec({ url: db.url }, { table: 'floats' })), streamOf(finite, fields, 3));
    const got = await db.rows('SELECT f, d FROM floats');
    expect(got.map((r) => Number(r.d))).toEqual([1e308, 5e-324, -0.1]);
    expect(got.map((r) => Math.fround(Number(r.f)))).toEqual([-1.5, Math.fround(0.1), Math.fround(3.4e38)]);

    const nan = new Table({ f: makeVector(Float32Array.of(1, 2)), d: makeVector(Float64Array.of(1, Number.NaN)) });
    const err = await failure(drive(createMysqlSink(mysqlSpec({ url: db.url }, { table: 'nan' })), streamOf(nan, fields, 2)));
    expect(err.message).toMatch(/^rows 1-2 failed: row 2: .*d/);
    expect(err.message).not.toContain('\n');
    // Nothing written: not even the table the export created for the rows.
    expect(
      await db.rows("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'nan'"),
    ).toEqual([]);
  });
});

describe('mysql sink: modes', () => {
  it('append creates the table and lands every row once, in transactions of several batches', async () => {
    await drive(
      createMysqlSink(mysqlSpec({ url: db.url }, { table: 'append1', batchSize: 1000 })),
      streamOf(numberedTable(12_345), NUMBERED_FIELDS, 2048, 5000),
    );
    expect(await census('append1')).toEqual({ n: 12_345, distinct: 12_345, lo: 0, hi: 12_344 });
    expect(await db.rows('SELECT label FROM append1 WHERE id = 4321')).toEqual([{ label: 'row 4321' }]);
    await drive(
      createMysqlSink(mysqlSpec({ url: db.url }, { table: 'append1' })),
      streamOf(numberedTable(100, 20_000), NUMBERED_FIELDS, 64),
    );
    expect(await census('append1')).toEqual({ n: 12_445, distinct: 12_445, lo: 0, hi: 20_099 });
    // What a finished run leaves: the target and the (empty) table of commit tokens, nothing else.
    const tables = await db.rows('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1');
    expect(tables.map((r) => r.t)).toEqual(expect.arrayContaining(['_deltaport_commits', 'append1']));
    expect(tables.map((r) => String(r.t)).filter((t) => t.startsWith('_deltaport_stage'))).toEqual([]);
    expect(await db.rows('SELECT count(*) AS n FROM _deltaport_commits')).toEqual([{ n: '0' }]);
  });

  it('upsert: the last row of a key wins, and running it twice gives the same table', async () => {
    const keyed = (labels: string[], from = 0) =>
      new Table({
        id: makeVector(BigInt64Array.from(labels.map((_, i) => BigInt(from + (i % 50))))),
        label: vectorFromArray(labels, new Utf8()),
      });
    const first = keyed(Array.from({ length: 120 }, (_, i) => `v${i}`));
    const spec = mysqlSpec({ url: db.url }, { table: 'up1', mode: 'upsert', keyColumns: ['id'], batchSize: 40 });
    await drive(createMysqlSink(spec), streamOf(first, NUMBERED_FIELDS, 40));
    const once = await db.rows('SELECT id, label FROM up1 ORDER BY id');
    expect(once.length).toBe(50);
    // Row i has key i % 50: the last of key 7 is row 107.
    expect(once[7]).toEqual({ id: '7', label: 'v107' });
    await drive(createMysqlSink(spec), streamOf(first, NUMBERED_FIELDS, 40));
    expect(await db.rows('SELECT id, label FROM up1 ORDER BY id')).toEqual(once);
    const keys = await db.rows(
      "SELECT column_name AS c FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'up1' AND index_name = 'PRIMARY'",
    );
    expect(keys).toEqual([{ c: 'id' }]);
  });

  it('upsert keys compare byte for byte (a key differing only in case is another row)', async () => {
    const fields: StructField[] = [
      { name: 'k', type: 'string', nullable: false },
      { name: 'v', type: 'long', nullable: true },
    ];
    const rows = new Table({ k: vectorFromArray(['a', 'A', 'a'], new Utf8()), v: makeVector(BigInt64Array.of(1n, 2n, 3n)) });
    await drive(
      createMysqlSink(mysqlSpec({ url: db.url }, { table: 'case_keys', mode: 'upsert', keyColumns: ['k'] })),
      streamOf(rows, fields, 3),
    );
    expect(await db.rows('SELECT k, v FROM case_keys ORDER BY k')).toEqual([
      { k: 'A', v: '2' },
      { k: 'a', v: '3' },
    ]);
  });

  it('upsert into an existing table without a unique key on the keys is refused before anything is written', async () => {
    await db.client.query('CREATE TABLE nokey (id bigint, label longtext)');
    const err = await failure(
      driveChecked(
        mysqlSpec({ url: db.url }, { table: 'nokey', mode: 'upsert', keyColumns: ['id'] }),
        createMysqlSink,
        streamOf(numberedTable(5), NUMBERED_FIELDS, 5),
      ),
    );
    expect(err.message).toBe('existing table `nokey` has no primary key or unique index on (`id`), which upsert needs');
    expect(await db.rows('SELECT count(*) AS n FROM nokey')).toEqual([{ n: '0' }]);
  });

  it('overwrite swaps the new contents in with one RENAME: readers see the old rows until then, no staging table is left', async () => {
    await db.client.query('CREATE TABLE over1 (id bigint, label longtext)');
    await db.client.query("INSERT INTO over1 VALUES (1, 'old'), (2, 'old')");
    const seen: number[] = [];
    await drive(
      createMysqlSink(mysqlSpec({ url: db.url }, { table: 'over1', mode: 'overwrite', batchSize: 500 })),
      streamOf(numberedTable(3000), NUMBERED_FIELDS, 1000),
      { afterBatch: async () => void seen.push((await census('over1')).n) },
    );
    expect(seen).toEqual([2, 2, 2]);
    expect(await census('over1')).toEqual({ n: 3000, distinct: 3000, lo: 0, hi: 2999 });
    const left = await db.rows(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE '\\_deltaport\\_stage%'",
    );
    expect(left).toEqual([]);
  });

  it('concurrent overwrites of one table take turns: the table ends as one of them, whole', async () => {
    const runs = [0, 1, 2].map((k) =>
      drive(
        // Each run is a different job (its own rows), so that none is refused as already running.
        createMysqlSink(mysqlSpec({ url: db.url }, { table: 'over2', mode: 'overwrite', batchSize: 700 })),
        streamOf(numberedTable(2000 + k, k * 10_000), NUMBERED_FIELDS, 700),
        { snapshot: { tableId: `t${k}`, tableRoot: '/nowhere', version: 0 } },
      ),
    );
    await Promise.all(runs);
    const { n, lo } = await census('over2');
    const k = [0, 1, 2].find((i) => i * 10_000 === lo);
    expect(k).toBeDefined();
    expect(await census('over2')).toEqual({ n: 2000 + k!, distinct: 2000 + k!, lo: k! * 10_000, hi: k! * 10_000 + 1999 + k! });
    expect(n).toBe(2000 + k!);
  });

  it('mode sql runs the statement with named parameters for each row', async () => {
    await db.client.query('CREATE TABLE mine (id bigint PRIMARY KEY, label longtext, twice bigint)');
    const sql = 'INSERT INTO mine (id, label, twice) VALUES (:id, :label, :id * 2) ON DUPLICATE KEY UPDATE label = :label';
    await drive(
      createMysqlSink(mysqlSpec({ url: db.url }, { table: 'mine', mode: 'sql', sql })),
      streamOf(numberedTable(300), NUMBERED_FIELDS, 100),
    );
    expect(await db.rows('SELECT count(*) AS n, sum(twice) AS s FROM mine')).toEqual([{ n: '300', s: String(2 * ((299 * 300) / 2)) }]);
    expect(await db.rows('SELECT label FROM mine WHERE id = 17')).toEqual([{ label: 'row 17' }]);
  });
});

describe('mysql sink: plan, connection and bad input', () => {
  it('Show plan names the DDL and LOAD DATA statement with backtick-quoted names, and an incompatible target', async () => {
    const plan = await planSqlExport(NUMBERED_FIELDS, mysqlSpec({ url: db.url }, { table: 'planned' }));
    expect(plan.ddl).toEqual([
      'CREATE TABLE `planned` (`id` bigint NOT NULL, `label` longtext) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
    ]);
    expect(plan.statement).toMatch(
      /^LOAD DATA LOCAL INFILE 'deltaport-rows' INTO TABLE `planned` CHARACTER SET utf8mb4 .*\(`id`, `label`\)$/,
    );
    expect(await tableExists('planned')).toBe(false);
    await db.client.query('CREATE TABLE narrow (id int, label longtext)');
    const bad = await planSqlExport(NUMBERED_FIELDS, mysqlSpec({ url: db.url }, { table: 'narrow' }));
    expect(bad.incompatibility).toBe('existing table `narrow` column "id" is int(11), which cannot hold long (needs bigint)');
  });

  it('an incompatible target is refused with one line before anything is written', async () => {
    await db.client.query('CREATE TABLE narrow2 (id int, label longtext)');
    const err = await failure(
      driveChecked(mysqlSpec({ url: db.url }, { table: 'narrow2' }), createMysqlSink, streamOf(numberedTable(5), NUMBERED_FIELDS, 5)),
    );
    expect(err.code).toBe('SINK_INCOMPATIBLE');
    expect(err.message).toMatch(/^existing table `narrow2` column "id" is int\(11\)/);
    expect(await db.rows('SELECT count(*) AS n FROM narrow2')).toEqual([{ n: '0' }]);
  });

  it('Test connection reports the server and whether the table is there', async () => {
    const report = await testConnection(mysqlSpec({ url: db.url }, { table: 'append1' }));
    expect(report.serverVersion).toMatch(/^MariaDB 10\.\d+\.\d+$/);
    expect(report.targetExists).toBe(true);
  });

  it('a wrong password: one line, without the password, nothing written', async () => {
    const url = new URL(db.url);
    url.password = 'not-the-password';
    const err = await failure(
      drive(createMysqlSink(mysqlSpec({ url: url.toString() }, { table: 'never1' })), streamOf(numberedTable(5), NUMBERED_FIELDS, 5)),
    );
    expect(err.code).toBe('SINK_AUTH');
    expect(err.message).toMatch(/^MySQL refused the login of deltaport@127\.0\.0\.1:\d+\/mysql_sink_\w+: Access denied/);
    expect(err.message).not.toContain('not-the-password');
    expect(err.message).not.toContain('\n');
    expect(await tableExists('never1')).toBe(false);
  });

  it('an unknown database: one line naming it', async () => {
    const url = new URL(db.url);
    url.pathname = '/no_such_db';
    const err = await failure(
      drive(
        createMysqlSink(mysqlSpec({ url: url.toString() }, { table: 'never2', maxRetries: 0 })),
        streamOf(numberedTable(5), NUMBERED_FIELDS, 5),
      ),
    );
    expect(err.message).toMatch(/no_such_db/);
    expect(err.message).toMatch(/Unknown database/);
    expect(err.message).not.toContain('\n');
  });

  it('names longer than 64 characters are refused before connecting', async () => {
    const long = 'x'.repeat(65);
    const err = await failure(
      driveChecked(mysqlSpec({ url: db.url }, { table: long }), createMysqlSink, streamOf(numberedTable(1), NUMBERED_FIELDS, 1)),
    );
    expect(err.message).toContain("the target table name is longer than MySQL's 64 characters");
    const fields: StructField[] = [{ name: 'é'.repeat(65), type: 'long', nullable: true }];
    const table = new Table({ ['é'.repeat(65)]: makeVector(BigInt64Array.of(1n)) });
    const col = await failure(driveChecked(mysqlSpec({ url: db.url }, { table: 'ok' }), createMysqlSink, streamOf(table, fields, 1)));
    expect(col.message).toContain(`column name "${'é'.repeat(65)}" is longer than MySQL's 64 characters`);
    // 64 characters of two bytes each are within the limit, which counts characters.
    const fits: StructField[] = [{ name: 'é'.repeat(64), type: 'long', nullable: true }];
    await driveChecked(
      mysqlSpec({ url: db.url }, { table: 'é'.repeat(64) }),
      createMysqlSink,
      streamOf(new Table({ ['é'.repeat(64)]: makeVector(BigInt64Array.of(1n)) }), fits, 1),
    );
    expect(await tableExists('é'.repeat(64))).toBe(true);
  });
});
