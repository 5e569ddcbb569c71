// The oracle's deletion-vector reader against the log: every deletion vector a table's commits or its latest
// snapshot name deletes as many rows as its descriptor's cardinality says, each once and within its file.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deletedRows } from './delta-oracle-deletion-vectors.js';
import { commitVersions, liveFiles, readCommit, type Json } from './delta-oracle.js';
import { tablePath } from './tables.js';

const SAMPLE = path.resolve(import.meta.dirname, '../../assets/sample-sales');

/** Every add or remove with a deletion vector, from each commit and the latest snapshot (which may have it only from
 * a checkpoint), once per deletion vector. */
async function withDeletionVectors(root: string): Promise<Json[]> {
  const actions = commitVersions(root).flatMap((v) => readCommit(root, v).flatMap((a) => [a.add, a.remove].filter(Boolean) as Json[]));
  const found = new Map<string, Json>();
  for (const action of [...actions, ...(await liveFiles(root))]) {
    const dv = action.deletionVector as Json | null | undefined;
    if (dv) found.set(`${dv.storageType}${dv.pathOrInlineDv}@${dv.offset ?? ''}`, action);
  }
  return [...found.values()];
}

describe("the oracle's deletion-vector reader", () => {
  it.each([
    ['table-with-dv-small', tablePath('table-with-dv-small'), ['u']],
    ['table_with_deletion_logs', tablePath('table_with_deletion_logs'), ['u']],
    ['cdf-table-with-cdc-and-dvs', tablePath('cdf-table-with-cdc-and-dvs'), ['u']],
    ['the sample', SAMPLE, ['i', 'u']],
  ])('deletes the cardinality the log gives, in %s', async (_, root, storageTypes) => {
    const actions = await withDeletionVectors(root);
    expect([...new Set(actions.map((a) => a.deletionVector.storageType))].sort()).toEqual(storageTypes);
    for (const action of actions) {
      const dv = action.deletionVector as Json;
      const rows = await deletedRows(root, dv);
      expect(rows, `${action.path} ${dv.pathOrInlineDv}`).toHaveLength(dv.cardinality);
      expect(rows.every((row, i) => i === 0 || row > rows[i - 1])).toBe(true);
      const records = action.stats ? (JSON.parse(action.stats as string) as Json).numRecords : undefined;
      if (typeof records === 'number') expect(rows.at(-1)).toBeLessThan(records);
    }
  });

  it("reads a 'p' descriptor, an absolute path or a file: URI, as the 'u' one naming the same file", async () => {
    const root = tablePath('table-with-dv-small');
    const [stored] = await withDeletionVectors(root);
    const [file] = readdirSync(root).filter((n) => n.startsWith('deletion_vector_'));
    const expected = await deletedRows(root, stored.deletionVector);
    for (const where of [path.join(root, file), pathToFileURL(path.join(root, file)).href]) {
      expect(await deletedRows('/nowhere', { ...stored.deletionVector, storageType: 'p', pathOrInlineDv: where })).toEqual(expected);
    }
  });
});
