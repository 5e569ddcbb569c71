// The MariaDB row of the benchmark (printed, not asserted): Deltaport's export of the wide table into a MariaDB of the
// run's own (test/support/mariadb.ts), against the server's own limit in the same run: the `mariadb` client's
// LOAD DATA LOCAL INFILE of the same rows as one CSV file into a table like the export's. The CSV is COPY's (booleans
// t/f, timestamps with a Z), so the load spells them for MySQL in its SET clause, which costs the server a little.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { createMysqlDatabase, mariadbMissing, startMariadb } from '../support/mariadb.js';
import type { ChildRun } from './child-run.js';
import { writeCsv, type RowSource } from './limits.js';

export interface MariadbFigures {
  rowsPerSec: number;
  peakRssMb: number | null;
  limitRowsPerSec: number;
}

/** `exportInto(url)` runs Deltaport's export of the wide table into table `wide` of that database. */
export async function mariadbExport(
  dir: string,
  source: RowSource,
  liveRows: number,
  exportInto: (url: string) => Promise<ChildRun>,
): Promise<MariadbFigures> {
  const missing = mariadbMissing();
  if (missing) throw new Error(missing);
  const server = await startMariadb();
  const csv = path.join(dir, 'mariadb-limit.csv');
  try {
    const url = await createMysqlDatabase(server.url, 'bench');
    const client = await mysql.createConnection(url);
    try {
      const run = await exportInto(url);
      const count = async (table: string) =>
        Number(((await client.query(`SELECT count(*) AS n FROM ${table}`)) as [{ n: number }[], unknown])[0][0].n);
      if ((await count('wide')) !== liveRows) throw new Error(`the MariaDB export holds ${await count('wide')} rows, expected ${liveRows}`);
      await client.query('CREATE TABLE bench_limit LIKE wide');
      await client.query('DROP TABLE wide');
      await writeCsv(csv, source);
      const { hostname, port, username, password, pathname } = new URL(url);
      const load =
        `LOAD DATA LOCAL INFILE '${csv}' INTO TABLE bench_limit FIELDS TERMINATED BY ',' LINES TERMINATED BY '\\n' ` +
        `(id, code, amount, @event_time, @active, category, quantity, @comment) ` +
        `SET event_time = replace(replace(@event_time, 'T', ' '), 'Z', ''), active = (@active = 't'), comment = nullif(@comment, '')`;
      const started = performance.now();
      await promisify(execFile)('mariadb', [
        '--local-infile=1',
        `--host=${hostname}`,
        `--port=${port}`,
        `--user=${decodeURIComponent(username)}`,
        `--password=${decodeURIComponent(password)}`,
        decodeURIComponent(pathname.slice(1)),
        '-e',
        load,
      ]);
      const seconds = (performance.now() - started) / 1000;
      if ((await count('bench_limit')) !== source.rows)
        throw new Error(`the mariadb client loaded ${await count('bench_limit')} of ${source.rows} rows`);
      return { rowsPerSec: liveRows / (run.ms / 1000), peakRssMb: run.maxRssMb, limitRowsPerSec: source.rows / seconds };
    } finally {
      await client.end();
    }
  } finally {
    await fs.rm(csv, { force: true });
    await server.stop();
  }
}
