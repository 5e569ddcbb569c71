// Tokens of the filter language: SQL's lexical rules as Spark and DuckDB share them. Strings in single quotes ('' is a
// quote), identifiers bare or in backticks or double quotes (for names with spaces), keywords in any case.
import { FilterError } from './syntax.js';

export type TokenType = 'ident' | 'quoted' | 'string' | 'number' | 'op' | 'end';

export interface Token {
  type: TokenType;
  /** Identifier or string content (quotes removed), number text, or the operator. */
  text: string;
  pos: number;
}

const OPERATORS = ['<=', '>=', '<>', '!=', '=', '<', '>', '(', ')', ',', '.', '-'];

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === "'" || c === '`' || c === '"') {
      const [text, end] = quoted(source, i, c);
      tokens.push({ type: c === "'" ? 'string' : 'quoted', text, pos: start });
      i = end;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i))!;
      i += m[0].length;
      if (/[A-Za-z_]/.test(source[i] ?? '')) throw new FilterError(`'${source.slice(start, i + 1)}' is not a number`, start);
      tokens.push({ type: 'number', text: m[0], pos: start });
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))!;
      tokens.push({ type: 'ident', text: m[0], pos: start });
      i += m[0].length;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (!op) throw new FilterError(`unexpected character '${c}'`, start);
      tokens.push({ type: 'op', text: op === '!=' ? '<>' : op, pos: start });
      i += op.length;
    }
  }
  tokens.push({ type: 'end', text: '', pos: source.length });
  return tokens;
}

/** The content of a quoted token starting at `from` (a doubled quote stands for one) and the offset after it. */
function quoted(source: string, from: number, quote: string): [string, number] {
  let text = '';
  let i = from + 1;
  for (;;) {
    const at = source.indexOf(quote, i);
    if (at < 0) {
      const what = quote === "'" ? 'string' : 'quoted name';
      throw new FilterError(`${what} is not closed (missing ${quote})`, from);
    }
    text += source.slice(i, at);
    if (source[at + 1] !== quote) return [text, at + 1];
    text += quote;
    i = at + 2;
  }
}
