import { describe, expect, it } from 'vitest';
import { parseSinkTarget } from '../../shared/sink-target.js';

describe('parseSinkTarget', () => {
  it.each([
    ['sqlite:/tmp/out.db', { kind: 'sqlite', path: '/tmp/out.db' }],
    ['sqlite:out.db', { kind: 'sqlite', path: 'out.db' }],
    ['parquet:/tmp/a b.parquet', { kind: 'parquet', path: '/tmp/a b.parquet' }],
    ['csv:C:\\data\\x.csv', { kind: 'csv', path: 'C:\\data\\x.csv' }],
    ['jsonl:x.jsonl', { kind: 'jsonl', path: 'x.jsonl' }],
    ['postgres://u:p@localhost:5432/db', { kind: 'postgres', url: 'postgres://u:p@localhost:5432/db' }],
    ['postgresql://localhost/db?sslmode=require', { kind: 'postgres', url: 'postgresql://localhost/db?sslmode=require' }],
    ['mysql://u:p@localhost:3306/db', { kind: 'mysql', url: 'mysql://u:p@localhost:3306/db' }],
    ['mariadb://localhost/db', { kind: 'mysql', url: 'mariadb://localhost/db' }],
  ])('reads %s', (text, expected) => {
    expect(parseSinkTarget(text)).toEqual(expected);
  });

  it.each(['', 'out.db', 'sqlite:', 'csv:  ', 'mysql://', 'oracle://x/y', 'postgres://', 'xlsx:/tmp/a', 'SQLITE:/tmp/a'])(
    'rejects %j',
    (text) => {
      expect(parseSinkTarget(text)).toBeNull();
    },
  );
});
