import { describe, expect, it } from 'vitest';
import { parseNamedParams, toPositional } from '../../shared/sql-params.js';

describe('named parameters', () => {
  it('finds :name and :"quoted name", skipping literals, quoted names, comments, dollar quotes and casts', () => {
    const sql = `UPDATE "a:b" SET x = ':no', y = :y::int, z = :"my col" -- :comment
      /* :block */ WHERE id = :id AND w = $$ :dollar $$ AND v = :y`;
    const parsed = parseNamedParams(sql);
    expect(parsed.names).toEqual(['y', 'my col', 'id']);
    expect(parsed.problems).toEqual([]);
    expect(toPositional(sql, parsed, '$').sql).toBe(`UPDATE "a:b" SET x = ':no', y = $1::int, z = $2 -- :comment
      /* :block */ WHERE id = $3 AND w = $$ :dollar $$ AND v = $1`);
    const sqlite = toPositional(sql, parsed, '?');
    expect(sqlite.sql).toContain('y = ?::int, z = ? --');
    expect(sqlite.order).toEqual([0, 1, 2, 0]);
  });

  it('reports unterminated quotes', () => {
    expect(parseNamedParams(`SELECT 'abc`).problems).toEqual(['the statement has an unterminated string']);
    expect(parseNamedParams(`SELECT :"abc`).problems).toEqual(['the statement has an unterminated quoted parameter name']);
  });
});
