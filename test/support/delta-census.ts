// The census of test/support/delta_census.py, from the tests: count and SHA-256 of the sorted canonical rows of a Delta
// table as DuckDB's delta extension reads it, of tables in a DuckDB file, or of rows a MySQL server holds.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CENSUS = path.resolve(import.meta.dirname, 'delta_census.py');

export interface Census {
  rows: number;
  sha256: string;
}

/** The census of a Delta table by DuckDB's delta extension, or the first line of its refusal. */
export async function deltaCensus(table: string): Promise<Census | string> {
  try {
    const { stdout } = await run('python3', [CENSUS, 'delta', table], { maxBuffer: 1 << 26 });
    return JSON.parse(stdout) as Census;
  } catch (err) {
    return String((err as { stderr?: string }).stderr || err).split('\n')[0];
  }
}

/** The census of each of these tables in a DuckDB file. */
export async function duckdbFileCensus(file: string, ...tables: string[]): Promise<Census[]> {
  const { stdout } = await run('python3', [CENSUS, 'duckdb', file, ...tables], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout) as Census[];
}

/** A target table's rows as a MySQL server gives them: each value as text (binary values as hex), null as null. */
export interface TextRows {
  table: string;
  columns: string[];
  rows: AsyncIterable<(string | null)[]>;
}

/** The census of a Delta table in the form the MySQL sink promises (nested values and variants as JSON), and of each
 * target table's rows read as that table's types. The rows are streamed to the census, never held here. */
export async function mysqlCensus(table: string, targets: TextRows[]): Promise<{ delta: Census; tables: Record<string, Census> }> {
  const child = spawn('python3', [CENSUS, 'mysql', table], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  // A census that fails stops reading: its one line says why, not the broken pipe.
  child.stdin.on('error', () => undefined);
  const send = async (value: unknown): Promise<void> => {
    if (!child.stdin.write(`${JSON.stringify(value)}\n`)) await Promise.race([once(child.stdin, 'drain'), closed]);
  };
  for (const target of targets) {
    await send({ table: target.table, columns: target.columns });
    for await (const row of target.rows) await send(row);
  }
  child.stdin.end();
  if ((await closed) !== 0) throw new Error(`delta_census.py mysql ${table}: ${stderr.trim().split('\n').at(-1)}`);
  return JSON.parse(stdout) as { delta: Census; tables: Record<string, Census> };
}
