// DuckDB's memory for a query unless the user says otherwise: a tenth of a 10 GB table's worth of columns, and
// within what a desktop leaves an app. Its own module, so that the CLI's help names it without loading DuckDB.
export const DEFAULT_MEMORY_LIMIT = '1GB';

/** The folder in a host's data folder where SQL queries spill. */
export const SQL_TEMP_FOLDER = 'sql-temp';

const SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

/** Why a memory limit is not one DuckDB takes, or null: a size with its unit, as DuckDB writes them. */
export function memoryLimitProblem(text: string): string | null {
  return SIZE.test(text.trim()) ? null : `the memory limit must be a size such as 512MB or 2GB, got '${text}'`;
}
