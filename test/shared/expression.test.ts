import { describe, expect, it } from 'vitest';
import type { StructType } from '../../shared/delta-schema.js';
import type { DeltaValue } from '../../shared/delta-values.js';
import { compileExpr } from '../../shared/expression/evaluate.js';
import { compileFilter, filterColumns, filterSyntaxProblem, type Expr } from '../../shared/expression/index.js';

const schema: StructType = {
  type: 'struct',
  fields: [
    { name: 'state', type: 'string', nullable: true },
    { name: 'cases', type: 'integer', nullable: true },
    { name: 'big', type: 'long', nullable: true },
    { name: 'price', type: 'decimal(10,2)', nullable: true },
    { name: 'ratio', type: 'double', nullable: true },
    { name: 'day', type: 'date', nullable: true },
    { name: 'at', type: 'timestamp', nullable: true },
    { name: 'flag', type: 'boolean', nullable: true },
    { name: 'Company Very Short', type: 'string', nullable: true },
    { name: 'tags', type: { type: 'array', elementType: 'string', containsNull: true }, nullable: true },
    {
      name: 'a',
      type: {
        type: 'struct',
        fields: [{ name: 'b', type: { type: 'struct', fields: [{ name: 'c', type: 'long', nullable: true }] }, nullable: true }],
      },
      nullable: true,
    },
  ],
};

function expr(text: string): Expr {
  const compiled = compileFilter(text, schema);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.expr;
}

function problem(text: string): string {
  const compiled = compileFilter(text, schema);
  if (compiled.ok) throw new Error(`'${text}' was accepted`);
  return compiled.message;
}

/** The filter's value on one row given by column path. */
function evaluate(text: string, row: Record<string, DeltaValue>): DeltaValue {
  return compileExpr(expr(text), (path) => () => row[path.join('.')] ?? null)(0);
}

describe('filter expressions', () => {
  it('parses comparisons, AND/OR/NOT with SQL precedence, and parentheses', () => {
    const row = { state: 'Ohio', cases: 150 };
    expect(evaluate("state = 'Ohio' AND cases > 100", row)).toBe(true);
    expect(evaluate("state = 'Ohio' AND cases > 200 OR cases < 200", row)).toBe(true);
    expect(evaluate("state = 'Ohio' AND (cases > 200 OR cases < 100)", row)).toBe(false);
    expect(evaluate("NOT state = 'Utah' and cases <> 1", row)).toBe(true);
    expect(evaluate('cases != 150', row)).toBe(false);
    expect(evaluate('100 < cases', row)).toBe(true);
  });

  it('follows three-valued logic', () => {
    const row = { state: null, cases: 5 };
    expect(evaluate("state = 'Ohio'", row)).toBeNull();
    expect(evaluate("NOT state = 'Ohio'", row)).toBeNull();
    expect(evaluate("state = 'Ohio' AND cases > 10", row)).toBe(false);
    expect(evaluate("state = 'Ohio' OR cases > 1", row)).toBe(true);
    expect(evaluate("state = 'Ohio' OR cases > 10", row)).toBeNull();
    expect(evaluate("state = 'Ohio' AND cases > 1", row)).toBeNull();
    expect(evaluate('cases > 1 AND cases < 10', row)).toBe(true);
    expect(evaluate('cases > 10 OR cases < 1', row)).toBe(false);
    expect(evaluate('cases IN (1, NULL)', row)).toBeNull();
    expect(evaluate('cases IN (5, NULL)', row)).toBe(true);
    expect(evaluate('cases NOT IN (1, NULL)', row)).toBeNull();
    expect(evaluate('cases NOT IN (1, 2)', row)).toBe(true);
    expect(evaluate('state IS NULL', row)).toBe(true);
    expect(evaluate('state IS NOT NULL', row)).toBe(false);
    expect(evaluate('cases = NULL', row)).toBeNull();
  });

  it('BETWEEN and LIKE with % and _ and ESCAPE', () => {
    expect(evaluate('cases BETWEEN 1 AND 5', { cases: 5 })).toBe(true);
    expect(evaluate('cases NOT BETWEEN 1 AND 5', { cases: 6 })).toBe(true);
    expect(evaluate("state LIKE 'O%o'", { state: 'Ohio' })).toBe(true);
    expect(evaluate("state LIKE 'O_io'", { state: 'Ohio' })).toBe(true);
    expect(evaluate("state LIKE 'o%'", { state: 'Ohio' })).toBe(false);
    expect(evaluate("state NOT LIKE '_'", { state: '😀' })).toBe(false);
    expect(evaluate("state LIKE '100!%' ESCAPE '!'", { state: '100%' })).toBe(true);
    expect(evaluate("state LIKE '100!%' ESCAPE '!'", { state: '1000' })).toBe(false);
    expect(evaluate("state LIKE 'a.c'", { state: 'abc' })).toBe(false);
  });

  it('reads literals of every type, exactly, and string literals as the column type', () => {
    expect(evaluate('price = 12.5', { price: 1250n })).toBe(true);
    expect(evaluate('price > 12.499', { price: 1250n })).toBe(true);
    expect(evaluate('price < 1e3', { price: 1250n })).toBe(true);
    expect(evaluate('big = 9223372036854775807', { big: 9223372036854775807n })).toBe(true);
    expect(evaluate('big > 9223372036854775806', { big: 9223372036854775807n })).toBe(true);
    expect(evaluate('cases > -3', { cases: -2 })).toBe(true);
    expect(evaluate('ratio >= 0.1', { ratio: 0.1 })).toBe(true);
    expect(evaluate("ratio > 'NaN'", { ratio: NaN })).toBe(false);
    expect(evaluate('ratio > 1e308', { ratio: NaN })).toBe(true);
    expect(evaluate("day = DATE '2024-02-29'", { day: 19782 })).toBe(true);
    expect(evaluate("day = '2024-02-29'", { day: 19782 })).toBe(true);
    expect(evaluate("'2024-02-28' < day", { day: 19782 })).toBe(true);
    expect(evaluate("at >= TIMESTAMP '2024-02-29 00:00:00.000001'", { at: 19782n * 86400000000n })).toBe(false);
    expect(evaluate("at = '2024-02-29'", { at: 19782n * 86400000000n })).toBe(true);
    expect(evaluate("at > DATE '2024-02-28'", { at: 19782n * 86400000000n })).toBe(true);
    expect(evaluate('flag', { flag: true })).toBe(true);
    expect(evaluate('flag = false OR NOT flag', { flag: true })).toBe(false);
  });

  it('orders strings by code point like UTF-8 bytes', () => {
    expect(evaluate("state > '\uffff'", { state: '😀' })).toBe(true);
    expect(evaluate("state < 'b'", { state: 'B' })).toBe(true);
  });

  it('resolves nested fields, quoted names and case-insensitive names', () => {
    const e = expr("a.b.c > 1 AND `Company Very Short` = 'x' AND \"STATE\" = 'y'");
    expect(filterColumns(e)).toEqual(['a', 'Company Very Short', 'state']);
    expect(evaluate('a.b.c = 2', { 'a.b.c': 2n })).toBe(true);
    expect(evaluate('a.b IS NULL', {})).toBe(true);
  });

  it('points at the problem in one line', () => {
    expect(problem("state = 'Ohio")).toBe("filter: string is not closed (missing ') at position 9");
    expect(problem('cases >')).toBe('filter: the filter ends where a value or column was expected at position 8');
    expect(problem('cases > 1 cases')).toBe("filter: unexpected 'cases' at position 11");
    expect(problem('nope = 1')).toMatch(/^filter: no column 'nope' \(columns: 'state', 'cases'.* and 3 more\) at position 1$/);
    expect(problem('a.x = 1')).toBe("filter: 'a' has no field 'x' (fields: 'b') at position 1");
    expect(problem('cases.x = 1')).toBe("filter: 'cases' is integer, it has no field 'x' at position 1");
    expect(problem("cases = 'many'")).toBe("filter: 'many' is not a number at position 9");
    expect(problem('state = 1')).toBe(
      "filter: = cannot compare string column 'state' with a long value at position 9; put the value in single quotes: state = '1'",
    );
    expect(problem('day = 5')).toBe(
      "filter: = cannot compare date column 'day' with a long value at position 7; write the date or time in single quotes: day = '2021-01-31'",
    );
    expect(problem("day = '2023-02-29'")).toBe("filter: '2023-02-29' is not a valid date at position 7");
    expect(problem('tags = 1')).toMatch(/^filter: = cannot compare array<string> column 'tags' at position 1$/);
    expect(problem('cases')).toBe(
      "filter: the filter must be a condition (such as a comparison), not integer column 'cases' at position 1",
    );
    expect(problem('cases LIKE 1')).toBe("filter: LIKE needs a string, not integer column 'cases' at position 1");
    expect(problem('cases > 1 AND 2')).toBe('filter: AND needs a condition, not a long value at position 15');
    expect(problem('cases IN (1, 2')).toBe("filter: expected ')' to close the IN list, found the end of the filter at position 15");
    expect(problem('cases BETWEEN 1 OR 2')).toMatch(/expected AND between the bounds of BETWEEN, found 'OR' at position 17$/);
    expect(problem('  ')).toBe('filter: the filter is empty at position 1');
    expect(problem('cases > 1 ; drop')).toBe("filter: unexpected character ';' at position 11");
    expect(problem('cases > 12abc')).toBe("filter: '12a' is not a number at position 9");
    expect(filterSyntaxProblem('(a = 1')).toBe("filter: expected ')' to close the parenthesis, found the end of the filter at position 7");
    expect(filterSyntaxProblem('date = 1 AND timestamp > 2')).toBeNull();
  });
});
