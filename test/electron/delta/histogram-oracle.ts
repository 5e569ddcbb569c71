// Expected histogram bins, from DuckDB: every live data file the log lists (the naive replay of
// test/support/delta-oracle.ts), less the rows its deletion vector deletes (by file_row_number, from
// test/support/delta-oracle-deletion-vectors.ts), and the same equal-width bins computed in SQL: for whole types
// (integers, decimals, dates as days, timestamps as microseconds) width ceil((max - min + 1) / 10), bin
// (v - min) // width; for float and double width (max - min) / 10, bin least(floor((v - min) / width), 9).
import { duckCells, fileSelect } from '../../support/delta-oracle-rows.js';
import { deletedRows } from '../../support/delta-oracle-deletion-vectors.js';
import { commitVersions, oracleSnapshot, type Json } from '../../support/delta-oracle.js';

const BINS = 10;

export interface ExpectedHistogram {
  counts: number[];
  /** For integer columns: each bin's bounds as text. */
  bounds?: [string, string][];
}

/** The snapshot's rows (latest version unless given) as one DuckDB SELECT of the table's logical columns. */
export async function liveRows(root: string, version = commitVersions(root).at(-1)!): Promise<string> {
  const snapshot = await oracleSnapshot(root, version);
  const parts = await Promise.all(
    [...snapshot.adds.values()].map(async (add: Json) => {
      const select = (await fileSelect(root, snapshot.metaData, add)).replace(/\)$/, ', file_row_number = true)');
      if (!add.deletionVector) return select;
      const deleted = await deletedRows(root, add.deletionVector);
      return `${select} WHERE file_row_number NOT IN (${deleted.join(', ')})`;
    }),
  );
  return parts.join(' UNION ALL BY NAME ');
}

/** The bins of `column` (of Delta type `type`) over `rows`; null when the column holds no value. */
export async function expectedHistogram(rows: string, column: string, type: string): Promise<ExpectedHistogram | null> {
  const c = `"${column.replaceAll('"', '""')}"`;
  const float = type === 'float' || type === 'double';
  const scale = /^decimal\(\d+,(\d+)\)$/.exec(type)?.[1];
  const x = float
    ? `CAST(${c} AS DOUBLE)`
    : type === 'date'
      ? `CAST(${c} - DATE '1970-01-01' AS HUGEINT)`
      : type.startsWith('timestamp')
        ? `CAST(epoch_us(${c}) AS HUGEINT)`
        : `CAST(${c} * ${10 ** Number(scale ?? 0)} AS HUGEINT)`;
  const width = float ? `(hi - lo) / ${BINS}` : `(hi - lo + ${BINS}) // ${BINS}`;
  const bin = float ? `CASE WHEN hi = lo THEN 0 ELSE least(floor((x - lo) / width), ${BINS - 1}) END` : `(x - lo) // width`;
  const cte = `WITH v AS (SELECT ${x} AS x FROM (${rows}) WHERE ${c} IS NOT NULL),
    b AS (SELECT min(x) AS lo, max(x) AS hi FROM v), w AS (SELECT lo, hi, ${width} AS width FROM b)`;
  const [range] = await duckCells(`${cte} SELECT lo, hi, width, (SELECT count(*) FROM v) AS n FROM w`, ['lo', 'hi', 'width', 'n']);
  const [lo, hi, w, n] = range.split('|');
  if (Number(n) === 0) return null;
  const binCount = float ? (lo === hi ? 1 : BINS) : Number((BigInt(hi) - BigInt(lo) + BigInt(w)) / BigInt(w));
  const counts = new Array<number>(binCount).fill(0);
  for (const line of await duckCells(`${cte} SELECT CAST(${bin} AS BIGINT) AS bin, count(*) AS n FROM v, w GROUP BY 1`, ['bin', 'n'])) {
    const [k, count] = line.split('|').map(Number);
    counts[k] = count;
  }
  if (!['byte', 'short', 'integer', 'long'].includes(type)) return { counts };
  const step = BigInt(w);
  const bounds = counts.map((_, k): [string, string] => {
    const from = BigInt(lo) + BigInt(k) * step;
    const to = from + step - 1n;
    return [String(from), String(to < BigInt(hi) ? to : BigInt(hi))];
  });
  return { counts, bounds };
}
