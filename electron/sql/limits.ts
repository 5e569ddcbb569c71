// DuckDB's memory for a query unless the user says otherwise: a tenth of a 10 GB table's worth of columns, and
// within what a desktop leaves an app. Its own module, so that the CLI's help names it without loading DuckDB.
export const DEFAULT_MEMORY_LIMIT = '1GB';

/** The folder in a host's data folder where SQL queries spill. */
export const SQL_TEMP_FOLDER = 'sql-temp';
