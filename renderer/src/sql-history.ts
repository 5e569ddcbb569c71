// The SQL tab's recent queries, per table path, in the window's stored state: newest first, a query run again moves
// to the top instead of appearing twice, and only the last few are kept.
import { storedValue, storeValue } from './stored.js';

const HISTORY_KEY = 'deltaport.sqlHistory';
export const HISTORY_LENGTH = 20;

type History = Record<string, string[]>;

function storedHistory(): History {
  try {
    const parsed: unknown = JSON.parse(storedValue(HISTORY_KEY) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as History) : {};
  } catch {
    // A value some other version wrote, or hand-edited: start over rather than fail the tab.
    return {};
  }
}

export function recentQueries(tablePath: string): string[] {
  const queries = storedHistory()[tablePath];
  return Array.isArray(queries) ? queries.filter((q): q is string => typeof q === 'string') : [];
}

/** Puts the query first in the table's history and returns the new history. */
export function rememberQuery(tablePath: string, sql: string): string[] {
  const history = storedHistory();
  const queries = [sql, ...recentQueries(tablePath).filter((q) => q !== sql)].slice(0, HISTORY_LENGTH);
  storeValue(HISTORY_KEY, JSON.stringify({ ...history, [tablePath]: queries }));
  return queries;
}
