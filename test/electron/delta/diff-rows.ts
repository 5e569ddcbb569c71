// A diff's rows as the tests compare them: each row's columns and `_change` as display text ('NULL' for null)
// joined by '|', sorted.
import { diffSnapshots } from '../../../electron/delta/change/snapshot-diff.js';
import { DeltaTable } from '../../../electron/delta/table.js';
import { displayTextReader } from '../../../electron/values/text-formats.js';
import { localReads } from '../../support/task-tables.js';

export async function diffRows(root: string, from: number, to: number, columns: string[]) {
  const diff = await diffSnapshots(await DeltaTable.open(root, localReads), from, to);
  const rows: string[] = [];
  for await (const batch of diff.rows()) {
    const cells = [...columns, '_change'].map((name) => displayTextReader(batch.getChild(name)!));
    for (let r = 0; r < batch.numRows; r++) rows.push(cells.map((cell) => cell(r) ?? 'NULL').join('|'));
  }
  return { diff, rows: rows.sort() };
}
