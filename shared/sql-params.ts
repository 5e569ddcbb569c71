// Named parameters in a user's DML statement (mode 'sql'): `:column` or `:"column with spaces"`, bound per row from
// the exported column of that name. Literals, quoted identifiers, comments, dollar quotes and `::` casts are skipped,
// so a colon inside them is never taken for a parameter.

export interface NamedParams {
  /** Distinct parameter names in order of first use; parameter n (1-based) is names[n - 1]. */
  names: string[];
  /** Every use, for rewriting into positional placeholders. */
  uses: { start: number; end: number; index: number }[];
  problems: string[];
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

export function parseNamedParams(sql: string): NamedParams {
  const names: string[] = [];
  const uses: NamedParams['uses'] = [];
  const problems: string[] = [];
  const use = (start: number, end: number, name: string): void => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    uses.push({ start, end, index });
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i + 1, c);
      if (end < 0) {
        problems.push(`the statement has an unterminated ${c === "'" ? 'string' : 'quoted name'}`);
        break;
      }
      i = end + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === '$' && /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length;
    } else if (c === ':' && sql[i + 1] === ':') {
      i += 2;
    } else if (c === ':' && sql[i + 1] === '"') {
      const end = closingQuote(sql, i + 2, '"');
      if (end < 0) {
        problems.push('the statement has an unterminated quoted parameter name');
        break;
      }
      use(i, end + 1, sql.slice(i + 2, end).replaceAll('""', '"'));
      i = end + 1;
    } else if (c === ':' && NAME_START.test(sql[i + 1] ?? '')) {
      let end = i + 2;
      while (end < sql.length && NAME_PART.test(sql[end])) end++;
      use(i, end, sql.slice(i + 1, end));
      i = end;
    } else {
      i++;
    }
  }
  return { names, uses, problems };
}

/**
 * The statement with positional placeholders: PostgreSQL's $n (one per distinct name) or SQLite's bare ? (one per
 * use; better-sqlite3 takes ?n for a named parameter). `order[k]` is the index in `names` bound to placeholder k + 1.
 */
export function toPositional(sql: string, params: NamedParams, style: '$' | '?'): { sql: string; order: number[] } {
  let out = '';
  let at = 0;
  for (const u of params.uses) {
    out += `${sql.slice(at, u.start)}${style === '$' ? `$${u.index + 1}` : '?'}`;
    at = u.end;
  }
  const order = style === '$' ? params.names.map((_, i) => i) : params.uses.map((u) => u.index);
  return { sql: out + sql.slice(at), order };
}

/** Index of the quote closing one opened before `from` ('' and "" inside are escapes), or -1. */
function closingQuote(sql: string, from: number, quote: string): number {
  for (let i = from; i < sql.length; i++) {
    if (sql[i] !== quote) continue;
    if (sql[i + 1] === quote) i++;
    else return i;
  }
  return -1;
}
