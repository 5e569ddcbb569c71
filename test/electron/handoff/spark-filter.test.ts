// The filter as Spark SQL text: what each construct becomes (that Spark keeps the same rows is spark-job.test.ts).
import { describe, expect, it } from 'vitest';
import type { StructType } from '../../../shared/delta-schema.js';
import { compileFilter } from '../../../shared/expression/index.js';
import { sparkCondition } from '../../../electron/handoff/spark-filter.js';

const SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'day', type: 'date', nullable: true },
    { name: 'at', type: 'timestamp', nullable: true },
    { name: 'local', type: 'timestamp_ntz', nullable: true },
    { name: 'price', type: 'decimal(10,2)', nullable: true },
    { name: 'n', type: 'long', nullable: true },
    { name: 'f', type: 'float', nullable: true },
    { name: 'x', type: 'double', nullable: true },
    { name: 'it`s name', type: 'string', nullable: true },
    { name: 'a', type: { type: 'struct', fields: [{ name: 'b', type: 'string', nullable: true }] }, nullable: true },
  ],
};

function spark(filter: string): string {
  const compiled = compileFilter(filter, SCHEMA);
  if (!compiled.ok) throw new Error(compiled.message);
  return sparkCondition(compiled.expr);
}

describe('sparkCondition', () => {
  it('types literals as the checker typed them, times in UTC', () => {
    expect(spark("day >= '2024-01-31' AND at < '2024-01-31 10:00:00.5'")).toBe(
      "((`day` >= DATE'2024-01-31') AND (`at` < TIMESTAMP'2024-01-31T10:00:00.500000Z'))",
    );
    expect(spark("local = TIMESTAMP_NTZ '2024-01-31 10:00:00'")).toBe("(`local` = TIMESTAMP_NTZ'2024-01-31T10:00:00.000000')");
    expect(spark('price BETWEEN -1.5 AND 10')).toBe('((`price` >= (-1.5BD)) AND (`price` <= 10L))');
    expect(spark('n IN (-9223372036854775808, 1) AND x <> 1e3')).toBe('((`n` IN ((-9223372036854775807L - 1L), 1L)) AND (`x` <> 1000D))');
    expect(spark("x = 'NaN' OR f > 0.1")).toBe("((`x` = CAST('NaN' AS DOUBLE)) OR (CAST(`f` AS DOUBLE) > 0.1BD))");
  });

  it('back-quotes names and nested fields, and escapes strings and LIKE patterns for Spark', () => {
    expect(spark("a.b IS NOT NULL AND \"it`s name\" = 'O''Brien \\ x'")).toBe(
      "((NOT (`a`.`b` IS NULL)) AND (`it``s name` = 'O\\'Brien \\\\ x'))",
    );
    // Deltaport's escape (any character, or none) becomes Spark's backslash; a backslash is literal without ESCAPE.
    expect(spark("a.b LIKE '50!%_a\\b' ESCAPE '!'")).toBe("(`a`.`b` LIKE '50\\\\%_a\\\\\\\\b')");
    expect(spark("NOT a.b LIKE '%!x'")).toBe("(NOT (`a`.`b` LIKE '%!x'))");
  });
});
