// The order as typed (the app's Order by field, the CLI's --order-by): parsed into keys with NULLS FIRST|LAST, and
// every mistake said in plain words with an example of what to type.
import { describe, expect, it } from 'vitest';
import { orderByInput, orderByText, parseOrderBy } from '../../shared/sort-spec.js';

describe('parseOrderBy', () => {
  it('takes asc, desc and nulls first or last on each key', () => {
    expect(parseOrderBy('cases desc nulls first, state, "my col" asc nulls last')).toEqual({
      keys: [
        { column: 'cases', descending: true, nullsFirst: true },
        { column: 'state', descending: false },
        { column: 'my col', descending: false },
      ],
    });
  });

  it('says what is missing or wrong, with what to type instead', () => {
    expect(parseOrderBy('')).toEqual({ problem: 'Order by: a column name is missing (e.g. cases desc nulls last, state)' });
    expect(parseOrderBy('cases desc,')).toEqual({
      problem: 'Order by: a column name is missing after the last comma (e.g. cases desc nulls last, state)',
    });
    expect(parseOrderBy('cases downwards')).toEqual({
      problem:
        "Order by: 'cases downwards' is not a column name with an optional asc or desc and nulls first or last (e.g. cases desc nulls last, state)",
    });
    expect(parseOrderBy('cases, cases desc')).toEqual({ problem: "Order by: column 'cases' is listed twice" });
  });

  it('gives back text the field parses to the same keys', () => {
    const keys = [
      { column: 'a b', descending: true, nullsFirst: true },
      { column: 'c', descending: false },
    ];
    expect(parseOrderBy(orderByInput(keys))).toEqual({ keys });
    expect(orderByText(keys)).toBe('a b desc nulls first, c');
  });
});
