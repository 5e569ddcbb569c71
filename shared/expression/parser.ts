// Filter text -> syntax tree, by recursive descent. Precedence as in SQL: OR < AND < NOT < predicates (comparison,
// [NOT] IN, [NOT] BETWEEN, IS [NOT] NULL, [NOT] LIKE).
import { tokenize, type Token } from './lexer.js';
import { FilterError, type CompareOp, type Syntax } from './syntax.js';

const COMPARE_OPS = new Set<string>(['=', '<>', '<', '<=', '>', '>=']);
const RESERVED = new Set(['AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'IS', 'NULL', 'LIKE', 'ESCAPE', 'TRUE', 'FALSE']);
// Typed literals: DATE '2024-01-31'. Only before a string are these words keywords, so a column may be called date.
const TYPED_LITERALS: Record<string, 'date' | 'timestamp' | 'timestamp_ntz'> = {
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  TIMESTAMP_NTZ: 'timestamp_ntz',
};

export function parseFilter(source: string): Syntax {
  const parser = new Parser(tokenize(source));
  if (parser.peek().type === 'end') throw new FilterError('the filter is empty', 0);
  const tree = parser.expression();
  const rest = parser.peek();
  if (rest.type !== 'end') throw new FilterError(`unexpected ${describe(rest)}`, rest.pos);
  return tree;
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.at + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.at++;
    return token;
  }

  private isKeyword(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === 'ident' && token.text.toUpperCase() === word;
  }

  private acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.at++;
    return true;
  }

  private expectKeyword(word: string, context: string): void {
    if (!this.acceptKeyword(word)) throw new FilterError(`expected ${word} ${context}, found ${describe(this.peek())}`, this.peek().pos);
  }

  private expectOp(op: string, context: string): void {
    const token = this.peek();
    if (token.type !== 'op' || token.text !== op) throw new FilterError(`expected '${op}' ${context}, found ${describe(token)}`, token.pos);
    this.at++;
  }

  expression(): Syntax {
    return this.chain('or', () => this.conjunction());
  }

  private conjunction(): Syntax {
    return this.chain('and', () => this.negation());
  }

  /** Operands of the next tighter level joined by the keyword `kind`, left to right: a OR b OR c is (a OR b) OR c. */
  private chain(kind: 'and' | 'or', operand: () => Syntax): Syntax {
    let left = operand();
    while (this.isKeyword(kind.toUpperCase())) {
      const pos = this.next().pos;
      left = { kind, left, right: operand(), pos };
    }
    return left;
  }

  private negation(): Syntax {
    if (this.isKeyword('NOT')) {
      const pos = this.next().pos;
      return { kind: 'not', arg: this.negation(), pos };
    }
    return this.predicate();
  }

  private predicate(): Syntax {
    const arg = this.operand();
    const pos = arg.pos;
    const token = this.peek();
    if (token.type === 'op' && COMPARE_OPS.has(token.text)) {
      this.at++;
      return { kind: 'compare', op: token.text as CompareOp, left: arg, right: this.operand(), pos };
    }
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      this.expectKeyword('NULL', `after IS${negated ? ' NOT' : ''}`);
      return { kind: 'isNull', arg, negated, pos };
    }
    const negated = this.isKeyword('NOT') && ['IN', 'BETWEEN', 'LIKE'].some((w) => this.isKeyword(w, 1));
    if (negated) this.at++;
    if (this.acceptKeyword('IN')) {
      this.expectOp('(', 'after IN');
      const list = [this.operand()];
      while (this.peek().type === 'op' && this.peek().text === ',') {
        this.at++;
        list.push(this.operand());
      }
      this.expectOp(')', 'to close the IN list');
      return { kind: 'in', arg, list, negated, pos };
    }
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.operand();
      this.expectKeyword('AND', 'between the bounds of BETWEEN');
      return { kind: 'between', arg, low, high: this.operand(), negated, pos };
    }
    if (this.acceptKeyword('LIKE')) {
      const pattern = this.operand();
      const escape = this.acceptKeyword('ESCAPE') ? this.operand() : null;
      return { kind: 'like', arg, pattern, escape, negated, pos };
    }
    return arg;
  }

  private operand(): Syntax {
    const token = this.next();
    const pos = token.pos;
    switch (token.type) {
      case 'string':
        return { kind: 'literal', literal: 'string', text: token.text, pos };
      case 'number':
        return { kind: 'literal', literal: 'number', text: token.text, pos };
      case 'quoted':
        return this.column(token);
      case 'op':
        if (token.text === '(') {
          const inner = this.expression();
          this.expectOp(')', 'to close the parenthesis');
          return inner;
        }
        if (token.text === '-' && this.peek().type === 'number') {
          return { kind: 'literal', literal: 'number', text: `-${this.next().text}`, pos };
        }
        break;
      case 'ident': {
        const word = token.text.toUpperCase();
        if (word === 'NULL') return { kind: 'literal', literal: 'null', text: token.text, pos };
        if (word === 'TRUE' || word === 'FALSE') return { kind: 'literal', literal: 'boolean', text: word.toLowerCase(), pos };
        const typed = TYPED_LITERALS[word];
        if (typed && this.peek().type === 'string') return { kind: 'literal', literal: typed, text: this.next().text, pos };
        if (!RESERVED.has(word)) return this.column(token);
        break;
      }
      case 'end':
        throw new FilterError('the filter ends where a value or column was expected', pos);
    }
    throw new FilterError(`expected a value or column, found ${describe(token)}`, pos);
  }

  /** A column name, then .field for each level into a struct. */
  private column(first: Token): Syntax {
    const path = [first.text];
    while (this.peek().type === 'op' && this.peek().text === '.') {
      this.at++;
      const part = this.next();
      if (part.type !== 'ident' && part.type !== 'quoted')
        throw new FilterError(`expected a field name after '.', found ${describe(part)}`, part.pos);
      path.push(part.text);
    }
    return { kind: 'column', path, pos: first.pos };
  }
}

function describe(token: Token): string {
  return token.type === 'end' ? 'the end of the filter' : `'${token.text}'`;
}
