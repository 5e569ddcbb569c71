import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DeletionVectorDescriptor } from '../../../../electron/delta/log/actions.js';
import {
  deletionVectorFile,
  deletionVectorFileName,
  deletionVectorPath,
  inlineDescriptor,
  loadDeletionVector,
  storedDescriptor,
} from '../../../../electron/delta/scan/deletion-vectors.js';
import { tablePath } from '../../../support/tables.js';
import { LocalStorage } from '../../../../electron/storage/local-storage.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'deltaport-dv-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const local = new LocalStorage();

// From table-with-dv-small/_delta_log/00000000000000000001.json (DELETE ... value IN (0, 9)).
const SMALL_DV: DeletionVectorDescriptor = {
  storageType: 'u',
  pathOrInlineDv: 'vBn[lx{q8@P<9BNH/isA',
  offset: 1,
  sizeInBytes: 36,
  cardinality: 2,
};

describe('deletion vectors', () => {
  it('loads the stored deletion vector of table-with-dv-small', async () => {
    const root = tablePath('table-with-dv-small');
    expect(deletionVectorPath(root, SMALL_DV)).toBe(path.join(root, 'deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin'));
    expect(Array.from(await loadDeletionVector(local, root, SMALL_DV))).toEqual([0, 9]);
  });

  it('reads the second entry of a shared file (cdf-table-with-cdc-and-dvs, offset 43)', async () => {
    const root = tablePath('cdf-table-with-cdc-and-dvs');
    const dv: DeletionVectorDescriptor = {
      storageType: 'u',
      pathOrInlineDv: 'F0u+Uo^@EuVa@tFk))2D',
      offset: 43,
      sizeInBytes: 34,
      cardinality: 1,
    };
    expect(await loadDeletionVector(local, root, dv)).toHaveLength(1);
  });

  it('fails on a checksum mismatch, a wrong cardinality and a missing file', async () => {
    const dir = mkdtempSync(path.join(scratch, 'dv-'));
    const name = deletionVectorFileName('61d16c75-6994-46b7-a15b-8b538852e50e');
    const bytes = readFileSync(path.join(tablePath('table-with-dv-small'), name));
    bytes[bytes.length - 6] ^= 1; // a bit of the bitmap body
    writeFileSync(path.join(dir, name), bytes);
    await expect(loadDeletionVector(local, dir, SMALL_DV)).rejects.toThrow(/checksum mismatch/);
    copyFileSync(path.join(tablePath('table-with-dv-small'), name), path.join(dir, name));
    await expect(loadDeletionVector(local, dir, { ...SMALL_DV, cardinality: 3 })).rejects.toThrow(/holds 2 rows but the log says 3/);
    await expect(loadDeletionVector(local, tmpdir(), SMALL_DV)).rejects.toMatchObject({ code: 'MISSING_FILE' });
  });

  it('writes files and descriptors that read back: u with a prefix, p as a file URI, i inline', async () => {
    const root = mkdtempSync(path.join(scratch, 'dv-'));
    const uuid = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
    const sets = [
      [1, 2, 3],
      [0, 100000, 2 ** 35],
    ];
    const { bytes, entries } = deletionVectorFile(sets);
    mkdirSync(path.join(root, 'ab'));
    writeFileSync(path.join(root, 'ab', deletionVectorFileName(uuid)), bytes);
    for (const [i, rows] of sets.entries()) {
      const u = storedDescriptor(uuid, entries[i], 'ab');
      expect(Array.from(await loadDeletionVector(local, root, u))).toEqual(rows);
      const p: DeletionVectorDescriptor = { ...u, storageType: 'p', pathOrInlineDv: pathToFileURL(deletionVectorPath(root, u)).href };
      expect(Array.from(await loadDeletionVector(local, '/elsewhere', p))).toEqual(rows);
      expect(Array.from(await loadDeletionVector(local, root, inlineDescriptor(rows)))).toEqual(rows);
    }
  });
});
