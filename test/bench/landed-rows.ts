// Counting the rows an export landed, for the benchmark's checks.
import Database from 'better-sqlite3';

export function sqliteRows(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}
