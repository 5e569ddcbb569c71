// Time travel as a table name: `t@12` and `t@'2024-03-01 10:00'` in a query become quoted names DuckDB accepts
// ("t@12"), and each such name is noted with the snapshot it stands for. Only names the query may use are rewritten;
// text inside string literals, quoted names and comments is left alone, so `'a@1'` stays a string.
import { quoteName } from '../../shared/sql-quote.js';

/** The snapshot a name in the query stands for: a table the user opened, at a version or a timestamp (or latest). */
export interface TableRef {
  /** The name DuckDB sees (what the query's text now holds, unquoted). */
  name: string;
  /** The opened table's name. */
  table: string;
  version?: number;
  timestamp?: string;
}

export interface RewrittenQuery {
  sql: string;
  /** Every versioned name found, once each. */
  refs: TableRef[];
  /** Where the rewritten text is longer than the query: from each `at` on, by `by` characters (in order). */
  shifts: { at: number; by: number }[];
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const AT_VERSION = /@(\d+)/y;
const AT_TIME = /@'((?:[^']|'')*)'/y;

export function rewriteVersionedNames(sql: string, tables: ReadonlySet<string>): RewrittenQuery {
  const refs = new Map<string, TableRef>();
  const shifts: { at: number; by: number }[] = [];
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const skipped = skipQuotedOrComment(sql, i);
    if (skipped > i) {
      out += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(sql);
    // A name starts only where no name character precedes it (not in the middle of `abc1`).
    if (!name || (i > 0 && /[A-Za-z0-9_$]/.test(sql[i - 1]))) {
      out += sql[i];
      i++;
      continue;
    }
    const end = i + name[0].length;
    const ref = tables.has(name[0]) ? versionAfter(sql, end, name[0]) : null;
    if (!ref) {
      out += name[0];
      i = end;
      continue;
    }
    refs.set(ref.ref.name, ref.ref);
    out += quoteName(ref.ref.name);
    i = ref.end;
    if (out.length !== i) shifts.push({ at: out.length, by: out.length - i });
  }
  return { sql: out, refs: [...refs.values()], shifts };
}

/** "line 2, column 7" of an offset into the rewritten text, counted in the query as the user wrote it. */
export function positionIn(query: string, shifts: RewrittenQuery['shifts']): (offset: number) => string {
  return (offset) => {
    const shift = shifts.findLast((s) => s.at <= offset);
    const original = Math.min(query.length, Math.max(0, offset - (shift?.by ?? 0)));
    const before = query.slice(0, original).split('\n');
    return lineColumn(before.length, before[before.length - 1].length + 1);
  };
}

export function lineColumn(line: number, column: number): string {
  return `line ${line}, column ${column}`;
}

function versionAfter(sql: string, at: number, table: string): { ref: TableRef; end: number } | null {
  AT_VERSION.lastIndex = at;
  const version = AT_VERSION.exec(sql);
  if (version && !/[A-Za-z0-9_]/.test(sql[at + version[0].length] ?? '')) {
    return { ref: { name: `${table}@${version[1]}`, table, version: Number(version[1]) }, end: at + version[0].length };
  }
  AT_TIME.lastIndex = at;
  const time = AT_TIME.exec(sql);
  if (time) {
    const timestamp = time[1].replaceAll("''", "'");
    return { ref: { name: `${table}@${timestamp}`, table, timestamp }, end: at + time[0].length };
  }
  return null;
}

/** The index after a string literal, quoted name or comment starting at i; i itself when none starts there. */
function skipQuotedOrComment(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const eol = sql.indexOf('\n', i);
    return eol < 0 ? sql.length : eol;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return close < 0 ? sql.length : close + 2;
  }
  return i;
}
