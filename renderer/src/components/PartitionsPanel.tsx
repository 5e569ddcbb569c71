// Every partition of the chosen snapshot, one line per combination of partition values, with its files, rows and
// bytes (from the log alone), and the totals.
import { useCallback } from 'react';
import type { PartitionSummary } from '../../../shared/table-info.js';
import { api } from '../api-client.js';
import { formatCount, humanBytes } from '../format.js';
import { useSnapshotRead } from '../snapshot-read.js';
import { Alert } from './Alert.js';

interface Props {
  path: string;
  version: number;
  partitionColumns: string[];
  visible: boolean;
}

function rowsText(rows: number | null): string {
  return rows === null ? '—' : formatCount(rows);
}

function sum(parts: PartitionSummary[], pick: (p: PartitionSummary) => number | null): number | null {
  let total = 0;
  for (const p of parts) {
    const n = pick(p);
    if (n === null) return null;
    total += n;
  }
  return total;
}

export function PartitionsPanel({ path, version, partitionColumns, visible }: Props) {
  const partitioned = partitionColumns.length > 0;
  const read = useCallback(() => api.partitions({ path, versionAsOf: version }), [path, version]);
  const partitions = useSnapshotRead<PartitionSummary[]>(`${path}@${version}`, visible && partitioned, read);
  if (!partitioned) return <p className="muted">This table is not partitioned.</p>;
  const list = partitions.value;
  return (
    <div className="partitions">
      <Alert message={partitions.error} />
      {!list ? (
        <p className="muted">{partitions.busy ? 'Reading the log…' : ''}</p>
      ) : (
        <>
          <p className="muted small">
            {formatCount(list.length)} partition{list.length === 1 ? '' : 's'} at v{version}, by {partitionColumns.join(', ')}; rows less
            those deleted by deletion vectors.
          </p>
          <table className="history-table partitions-table" aria-label="Partitions">
            <thead>
              <tr>
                {partitionColumns.map((name) => (
                  <th key={name} scope="col">
                    {name}
                  </th>
                ))}
                <th scope="col" className="num">
                  Files
                </th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col" className="num">
                  Bytes
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={JSON.stringify(partitionColumns.map((n) => p.values[n] ?? null))}>
                  {partitionColumns.map((name) => (
                    <td key={name} className="mono">
                      {p.values[name] ?? <span className="muted">NULL</span>}
                    </td>
                  ))}
                  <td className="num">{formatCount(p.files)}</td>
                  <td className="num">{rowsText(p.rows)}</td>
                  <td className="num" title={`${formatCount(p.bytes)} bytes`}>
                    {humanBytes(p.bytes)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td colSpan={partitionColumns.length}>Total</td>
                <td className="num">{formatCount(list.reduce((n, p) => n + p.files, 0))}</td>
                <td className="num">{rowsText(sum(list, (p) => p.rows))}</td>
                <td className="num">{humanBytes(list.reduce((n, p) => n + p.bytes, 0))}</td>
              </tr>
            </tfoot>
          </table>
        </>
      )}
    </div>
  );
}
