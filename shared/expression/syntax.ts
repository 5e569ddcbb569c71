// The filter language's syntax tree as parsed, before it is checked against a schema. Every node keeps the offset of
// its first character so that an error can point at it.

export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type LiteralKind = 'null' | 'boolean' | 'number' | 'string' | 'date' | 'timestamp' | 'timestamp_ntz';

export type Syntax =
  | { kind: 'column'; path: string[]; pos: number }
  | { kind: 'literal'; literal: LiteralKind; text: string; pos: number }
  | { kind: 'compare'; op: CompareOp; left: Syntax; right: Syntax; pos: number }
  | { kind: 'and' | 'or'; left: Syntax; right: Syntax; pos: number }
  | { kind: 'not'; arg: Syntax; pos: number }
  | { kind: 'in'; arg: Syntax; list: Syntax[]; negated: boolean; pos: number }
  | { kind: 'between'; arg: Syntax; low: Syntax; high: Syntax; negated: boolean; pos: number }
  | { kind: 'isNull'; arg: Syntax; negated: boolean; pos: number }
  | { kind: 'like'; arg: Syntax; pattern: Syntax; escape: Syntax | null; negated: boolean; pos: number };

/** A problem in a filter's text: a one-line message and the 0-based offset it concerns. */
export class FilterError extends Error {
  constructor(
    readonly detail: string,
    readonly pos: number,
    /** What to type instead, said after the position. */
    hint?: string,
  ) {
    super(`filter: ${detail} at position ${pos + 1}${hint ? `; ${hint}` : ''}`);
    this.name = 'FilterError';
  }
}
