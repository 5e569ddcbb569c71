// The Partitions view: every partition value combination of a snapshot with its files, rows and bytes. Rows are
// numRecords less deletion vectors' cardinality, null where a file has no statistics.
import type { PartitionSummary } from '../../../shared/table-info.js';
import { columnMappingMode, physicalName } from '../column-mapping.js';
import type { FileStats } from '../filter/file-stats.js';
import type { Snapshot } from '../snapshot.js';

export function partitionSummaries(snapshot: Snapshot, stats: (FileStats | null)[]): PartitionSummary[] {
  const mode = columnMappingMode(snapshot.metadata);
  const fields = snapshot.partitionColumns.map((name) => snapshot.schema.fields.find((f) => f.name === name)!);
  const groups = new Map<string, PartitionSummary>();
  snapshot.files.forEach((file, i) => {
    const values = fields.map((f) => {
      const raw = file.add.partitionValues[physicalName(f, mode)];
      return raw === undefined || raw === '' ? null : raw;
    });
    const key = JSON.stringify(values);
    let group = groups.get(key);
    if (!group) {
      group = { values: Object.fromEntries(fields.map((f, k) => [f.name, values[k]])), files: 0, rows: 0, bytes: 0 };
      groups.set(key, group);
    }
    const records = stats[i]?.numRecords;
    group.files++;
    group.bytes += file.add.size;
    group.rows =
      group.rows === null || typeof records !== 'number' ? null : group.rows + records - (file.add.deletionVector?.cardinality ?? 0);
  });
  return [...groups.values()].sort((a, b) => (JSON.stringify(a.values) < JSON.stringify(b.values) ? -1 : 1));
}
