// The SQL tab's recent queries, per table path, in the window's stored state: newest first, a query run again moves
// to the top instead of appearing twice, and only the last few are kept.
import { storedRecord, storeValue } from './stored.js';

const HISTORY_KEY = 'deltaport.sqlHistory';
export const HISTORY_LENGTH = 20;

export function recentQueries(tablePath: string): string[] {
  const queries = storedRecord(HISTORY_KEY)[tablePath];
  return Array.isArray(queries) ? queries.filter((q): q is string => typeof q === 'string') : [];
}

/** Puts the query first in the table's history and returns the new history. */
export function rememberQuery(tablePath: string, sql: string): string[] {
  const history = storedRecord(HISTORY_KEY);
  const queries = [sql, ...recentQueries(tablePath).filter((q) => q !== sql)].slice(0, HISTORY_LENGTH);
  storeValue(HISTORY_KEY, JSON.stringify({ ...history, [tablePath]: queries }));
  return queries;
}
