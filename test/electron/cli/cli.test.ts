import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitSummary, TableInfo } from '../../../shared/table-info.js';
import { tablePath } from '../../support/tables.js';
import { commitInfo, commitVersions, liveRowCount, readCommit } from '../../support/delta-oracle.js';
import { duck, sqlText } from '../../support/duckdb.js';
import { cli, cliOn } from './run-cli.js';

const simple = tablePath('simple_table');
const nullPartition = tablePath('delta-0.8.0-null-partition');
const allTypes = tablePath('delta-1.2.1-only-struct-stats');

let out: string;
beforeAll(() => {
  out = mkdtempSync(path.join(tmpdir(), 'deltaport-cli-'));
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('help', () => {
  it("prints the overview and each command's help", async () => {
    const overview = await cli('--help');
    expect(overview.code).toBe(0);
    expect(overview.stdout).toContain('usage: deltaport <command> [options]');
    for (const command of ['schema', 'history', 'preview', 'export', 'sql', 'serve']) {
      const viaHelp = await cli('help', command);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.stdout).toMatch(new RegExp(`^usage: deltaport ${command}`));
      const viaFlag = await cli(command, '--help');
      expect(viaFlag.stdout).toBe(viaHelp.stdout);
    }
  });

  it('hands serve its arguments', async () => {
    const run = await cli('serve', '--port', 'many');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^deltaport serve: /);
  });

  it('rejects an unknown command with a usage error', async () => {
    expect(await cli('frobnicate')).toEqual({
      code: 2,
      stdout: '',
      stderr: "deltaport: 'frobnicate' is neither a command nor a table folder (see deltaport --help)\n",
    });
    expect((await cli('help', 'nope')).stderr).toBe(
      "deltaport: no command 'nope' (commands: schema, history, preview, export, diff, changes, profile, partitions, sql, catalogs, schemas, tables, serve)\n",
    );
  });
});

describe('schema', () => {
  it('--json prints the table info of the latest version', async () => {
    const run = await cli('schema', nullPartition, '--json');
    expect(run.code).toBe(0);
    const info = JSON.parse(run.stdout) as TableInfo;
    const first = readCommit(nullPartition, 0);
    const meta = first.find((a) => a.metaData)!.metaData as { id: string; schemaString: string; partitionColumns: string[] };
    expect(info.version).toBe(0);
    expect(info.id).toBe(meta.id);
    expect(info.schema).toEqual(JSON.parse(meta.schemaString));
    expect(info.partitionColumns).toEqual(meta.partitionColumns);
    expect(info.numFiles).toBe(first.filter((a) => a.add).length);
  });

  it('prints a tree with types, nullability and partition columns', async () => {
    const run = await cli('schema', tablePath('checkpoints'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      [
        'schema',
        '├─ some_struct: struct',
        '│  ├─ some_struct_member: string',
        '│  └─ some_struct_timestamp: timestamp',
        '├─ value: string',
        '├─ ts: timestamp',
        '└─ date: string (partition column)',
      ].join('\n'),
    );
    expect(run.stdout).toMatch(/^version\s+12 of 0\.\.12, committed /m);
    expect(run.stdout).toMatch(/^partitions\s+date$/m);
  });

  it('travels to a version, and `deltaport <table>` is the same as schema', async () => {
    const v2 = JSON.parse((await cli('schema', simple, '--version', '2', '--json')).stdout) as TableInfo;
    expect(v2.version).toBe(2);
    const bare = await cli(simple);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe((await cli('schema', simple)).stdout);
  });

  it('names the readable range for a bad version', async () => {
    expect(await cli('schema', simple, '--version', '99')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'deltaport: no version 99: this table has versions 0 to 4\n',
    });
  });
});

describe('history', () => {
  it("--json lists every commit newest first, with the log's operations", async () => {
    const run = await cli('history', simple, '--json');
    const list = JSON.parse(run.stdout) as CommitSummary[];
    const infos = commitVersions(simple).map((v) => commitInfo(simple, v));
    expect(list.map((c) => c.version)).toEqual([4, 3, 2, 1, 0]);
    expect(list.map((c) => c.operation)).toEqual(infos.map((i) => i.operation).reverse());
    expect(list.map((c) => c.commitInfoTimestamp)).toEqual(infos.map((i) => i.timestamp).reverse());
  });

  it('--limit keeps the newest commits, and the table has one line per commit', async () => {
    const run = await cli('history', simple, '--limit', '2');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^version\s+committed\s+operation\s+parameters\s+metrics\s+engine$/);
    expect(lines.slice(2).map((l) => l.trim().split(/\s+/)[0])).toEqual(['4', '3']);
    expect(lines[2]).toContain('DELETE');
    expect(lines[3]).toContain('UPDATE');
  });

  it('rejects a bad --limit as a usage error', async () => {
    expect(await cli('history', simple, '--limit', '0')).toEqual({
      code: 2,
      stdout: '',
      stderr: "deltaport: --limit must be a positive whole number, got '0'\n",
    });
  });
});

// The values of v in each of the table's two files, read by DuckDB; k comes from partitionValues in the log.
async function nullPartitionRows(): Promise<{ k: string | null; v: bigint }[]> {
  const adds = readCommit(nullPartition, 0)
    .filter((a) => a.add)
    .map((a) => a.add as { path: string; partitionValues: { k: string | null } });
  const rows: { k: string | null; v: bigint }[] = [];
  for (const add of adds) {
    const file = path.join(nullPartition, decodeURIComponent(add.path));
    for (const r of await duck(`SELECT v FROM read_parquet(${sqlText(file)}, hive_partitioning=false)`)) {
      rows.push({ k: add.partitionValues.k, v: r.v as bigint });
    }
  }
  return rows;
}

describe('preview', () => {
  it('shows aligned columns with NULL for nulls and a row count', async () => {
    const run = await cli('preview', nullPartition);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['k', 'v']);
    const expected = (await nullPartitionRows()).map((r) => [r.k ?? 'NULL', String(r.v)]);
    expect(
      lines
        .slice(2, -1)
        .map((l) => l.trim().split(/\s+/))
        .sort(),
    ).toEqual(expected.sort());
    expect(lines.at(-1)).toBe('(2 rows of version 0)');
  });

  it('--format jsonl and csv print exactly the limited rows', async () => {
    const jsonl = await cli('preview', nullPartition, '--format', 'jsonl', '--columns', 'v,k', '--limit', '1');
    const lines = jsonl.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const row = JSON.parse(lines[0]) as { v: number; k: string | null };
    expect(Object.keys(row)).toEqual(['v', 'k']);
    expect((await nullPartitionRows()).map((r) => ({ v: Number(r.v), k: r.k }))).toContainEqual(row);

    const csv = await cli('preview', nullPartition, '--format', 'csv');
    const csvLines = csv.stdout.trimEnd().split('\n');
    expect(csvLines[0]).toBe('k,v');
    expect(csvLines.slice(1).sort()).toEqual((await nullPartitionRows()).map((r) => `${r.k ?? ''},${r.v}`).sort());
  });

  it('says that more rows exist beyond the limit', async () => {
    const run = await cli('preview', allTypes, '--columns', 'integer', '--limit', '5');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + 5 + 1);
    expect(lines.at(-1)).toBe('(5 rows of version 12; more rows exist, see --limit)');
  });

  it('reports every problem of the source, one line each', async () => {
    const run = await cli('preview', nullPartition, '--columns', 'v,,v,nope', '--timestamp', '2021-13-01');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([
      'deltaport: column name 2 of 4 is empty',
      "deltaport: column 'v' is listed more than once",
      expect.stringMatching(/^deltaport: --timestamp '2021-13-01' is not a valid UTC timestamp/),
      "deltaport: no column 'nope' in version 0; its columns are 'k', 'v'",
    ]);
  });

  it('rejects --version with --timestamp, and an unknown format or flag', async () => {
    expect(await cli('preview', simple, '--version', '1', '--timestamp', '2020-01-01')).toMatchObject({
      code: 1,
      stderr: 'deltaport: --version and --timestamp are mutually exclusive: set one of them\n',
    });
    expect(await cli('preview', simple, '--version', 'one')).toMatchObject({
      code: 2,
      stderr: "deltaport: --version must be a non-negative integer, got 'one'\n",
    });
    expect(await cli('preview', simple, '--format', 'xml')).toMatchObject({
      code: 2,
      stderr: "deltaport: --format must be table, jsonl or csv, got 'xml'\n",
    });
    expect(await cli('preview', simple, '--colour')).toMatchObject({
      code: 2,
      stderr: "deltaport: unknown option --colour for 'preview' (see deltaport help preview)\n",
    });
    expect(await cli('preview')).toMatchObject({ code: 2, stderr: 'deltaport: missing the table folder, URL or catalog name\n' });
  });
});

describe('export', () => {
  it('writes a file sink and prints a one-line summary', async () => {
    const target = path.join(out, 'all.jsonl');
    const run = await cli('export', allTypes, '--sink', `jsonl:${target}`, '--option', 'parquetBatchSize=4');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const rows = await liveRowCount(allTypes);
    expect(run.stdout).toMatch(new RegExp(`^exported ${rows} rows in \\d+\\.\\d s \\(\\d+ rows/s\\)\\n$`));
    expect(readFileSync(target, 'utf8').trimEnd().split('\n')).toHaveLength(rows);
  });

  it('draws progress on a terminal and clears it before the summary', async () => {
    const target = path.join(out, 'progress.csv');
    const run = await cliOn({ isTTY: true }, 'export', allTypes, '--sink', `csv:${target}`);
    expect(run.code).toBe(0);
    expect(run.stderr.startsWith('\r\x1b[Kexporting: ')).toBe(true);
    expect(run.stderr).toMatch(/exporting: \d+ rows, \d+\/12 files, \d+%/);
    expect(run.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(run.stdout).toMatch(/^exported 12 rows in /);
  });

  it('exports the chosen version and columns to parquet', async () => {
    const target = path.join(out, 'v2.parquet');
    const run = await cli('export', allTypes, '--version', '2', '--columns', 'string,integer', '--sink', `parquet:${target}`);
    expect(run.code).toBe(0);
    // Versions 1 and 2 each appended one row (operationMetrics.numOutputRows).
    expect(await duck(`SELECT "string", "integer" FROM read_parquet(${sqlText(target)}) ORDER BY 2`)).toEqual([
      { string: 'string', integer: 0 },
      { string: 'string', integer: 1 },
    ]);
  });

  it('refuses to replace an existing output file unless --force or --mode overwrite is given', async () => {
    const target = path.join(out, 'again.jsonl');
    const rows = await liveRowCount(allTypes);
    expect((await cli('export', allTypes, '--sink', `jsonl:${target}`)).code).toBe(0);
    writeFileSync(target, 'kept\n');
    expect(await cli('export', allTypes, '--sink', `jsonl:${target}`)).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `deltaport: the output file ${target} already exists; give --force (or --mode overwrite) to replace it\n`,
    });
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(readdirSync(out).filter((n) => n.startsWith('again.jsonl.partial'))).toEqual([]);
    for (const flags of [['--force'], ['--mode', 'overwrite']]) {
      writeFileSync(target, 'kept\n');
      expect((await cli('export', allTypes, '--sink', `jsonl:${target}`, ...flags)).code).toBe(0);
      expect(readFileSync(target, 'utf8').trimEnd().split('\n')).toHaveLength(rows);
    }
    expect(await cli('export', allTypes, '--sink', `sqlite:${path.join(out, 'force.db')}`, '--force')).toMatchObject({
      code: 2,
      stderr: 'deltaport: --force applies only to file sinks (use --mode overwrite for a table)\n',
    });
  });

  it('exports into SQLite with the table folder as the default target', async () => {
    const db = path.join(out, 'cli.db');
    const run = await cli('export', simple, '--sink', `sqlite:${db}`);
    expect(run.code).toBe(0);
    const conn = new Database(db, { readonly: true });
    try {
      const n = conn.prepare('SELECT count(*) AS n FROM "simple_table"').get() as { n: number };
      expect(n.n).toBe(await liveRowCount(simple));
    } finally {
      conn.close();
    }
  });

  it('writes CSV in the style of the --csv-* flags, which DuckDB reads back with the same options', async () => {
    const target = path.join(out, 'styled.csv');
    const run = await cli(
      'export',
      nullPartition,
      '--sink',
      `csv:${target}`,
      '--csv-delimiter',
      ';',
      '--csv-quote',
      "'",
      '--csv-header',
      'false',
      '--csv-null',
      'NULL',
      '--csv-line-ending',
      'crlf',
    );
    expect(run.code).toBe(0);
    const text = readFileSync(target, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const rows = await duck<{ k: string | null; v: bigint }>(
      `SELECT k, v FROM read_csv(${sqlText(target)}, header=false, delim=';', quote=${sqlText("'")}, escape=${sqlText("'")}, nullstr='NULL',
        allow_quoted_nulls=false, columns={'k': 'VARCHAR', 'v': 'BIGINT'})`,
    );
    const byV = (a: { v: bigint }, b: { v: bigint }) => (a.v < b.v ? -1 : a.v > b.v ? 1 : 0);
    const expected = await nullPartitionRows();
    expect(expected.some((r) => r.k === null)).toBe(true);
    expect(rows.sort(byV)).toEqual(expected.sort(byV));
  });

  it('rejects CSV flags that a reader could not take back, or on another sink, writing nothing', async () => {
    const dir = mkdtempSync(path.join(out, 'bad-csv-'));
    const csv = (...flags: string[]) => cli('export', simple, '--sink', `csv:${dir}/a.csv`, ...flags);
    expect(await csv('--csv-delimiter', ';;', '--csv-null', 'a"b')).toMatchObject({
      code: 1,
      stderr: 'deltaport: the CSV delimiter must be exactly one character\ndeltaport: the CSV null text cannot contain the quote\n',
    });
    expect(await csv('--csv-quote', ',')).toMatchObject({ code: 1, stderr: 'deltaport: the CSV quote must differ from the delimiter\n' });
    expect(await csv('--csv-header', 'yes')).toMatchObject({
      code: 2,
      stderr: "deltaport: --csv-header must be true or false, got 'yes'\n",
    });
    expect(await csv('--csv-line-ending', 'cr')).toMatchObject({
      code: 2,
      stderr: "deltaport: --csv-line-ending must be lf or crlf, got 'cr'\n",
    });
    expect(await csv('--csv-line-ending', 'crlf', '--emit', 'spark')).toMatchObject({
      code: 1,
      stderr: 'deltaport: a Spark job writes CSV only in the default style (comma, double quote, header, empty null, LF)\n',
    });
    expect(await cli('export', simple, '--sink', `sqlite:${dir}/a.db`, '--csv-delimiter', ';')).toMatchObject({
      code: 2,
      stderr: 'deltaport: --csv-delimiter applies only to csv sinks\n',
    });
    expect(await cli('export', simple, '--sink', `jsonl:${dir}/a.jsonl`, '--csv-null', 'x')).toMatchObject({
      code: 2,
      stderr: 'deltaport: --csv-null applies only to csv sinks\n',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('rejects bad sink flags as usage errors, writing nothing', async () => {
    const dir = mkdtempSync(path.join(out, 'bad-'));
    expect(await cli('export', simple)).toMatchObject({
      code: 2,
      stderr:
        'deltaport: --sink is required (sqlite:PATH, duckdb:PATH, postgres://user:password@host:port/db, mysql://user:password@host:port/db, parquet:PATH, csv:PATH, jsonl:PATH)\n',
    });
    expect((await cli('export', simple, '--sink', 'xlsx:a.xlsx')).stderr).toMatch(
      /^deltaport: --sink must be one of .*, got 'xlsx:a.xlsx'\n$/,
    );
    expect(await cli('export', simple, '--sink', `csv:${dir}/a.csv`, '--mode', 'upsert')).toMatchObject({
      code: 2,
      stderr: "deltaport: --mode for a csv file can only be overwrite, got 'upsert'\n",
    });
    expect(await cli('export', simple, '--sink', `sqlite:${dir}/a.db`, '--mode', 'merge')).toMatchObject({
      code: 2,
      stderr: "deltaport: --mode must be one of append, overwrite, upsert, sql, got 'merge'\n",
    });
    expect(await cli('export', simple, '--sink', `sqlite:${dir}/a.db`, '--mode', 'upsert')).toMatchObject({
      code: 1,
      stderr: 'deltaport: upsert needs at least one key column\n',
    });
    // The sink spec's own rules, as the UI and the host word them, one problem per line.
    expect(await cli('export', simple, '--sink', `sqlite:${dir}/a.db`, '--mode', 'upsert', '--batch-size', '20000000')).toMatchObject({
      code: 1,
      stderr: 'deltaport: batch size must be a whole number from 1 to 10,000,000\ndeltaport: upsert needs at least one key column\n',
    });
    expect(await cli('export', simple, '--sink', `csv:${dir}/a.csv`, '--option', 'fast')).toMatchObject({
      code: 2,
      stderr: "deltaport: --option takes key=value, got 'fast'\n",
    });
    expect(await cli('export', simple, '--sink', `csv:${dir}/a.csv`, '--option', 'speed=fast')).toMatchObject({
      code: 1,
      stderr: "deltaport: unknown option 'speed' (known options: versionAsOf, timestampAsOf, parquetBatchSize)\n",
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});
