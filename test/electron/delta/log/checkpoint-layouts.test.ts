// Checkpoint files in the Parquet layouts of other writers (test/fixtures/checkpoints/make-files.py, pyarrow): zstd
// and gzip, data pages v1 and v2, several row groups, with and without dictionaries, a required or optional add.path.
// Expected: the actions as pyarrow reads them back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint, recordCounts } from '../../../../electron/delta/log/checkpoint-reader.js';
import { LocalStorage } from '../../../../electron/storage/local-storage.js';

const local = new LocalStorage();

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/checkpoints');
type Expected = { actions: Record<string, unknown>[]; numRecords: Record<string, number> };
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'expected.json'), 'utf8')) as Record<string, Expected>;

describe.each(Object.entries(expected))('%s', (name, { actions, numRecords }) => {
  const ref = { version: 0, kind: 'classic' as const, files: [path.join(FIXTURES, name)] };

  it('reads protocol, metaData and every add as pyarrow does', async () => {
    const state = await readCheckpoint(local, ref);
    expect(state.protocol).toEqual(actions.find((a) => a.protocol)?.protocol);
    expect(state.metadata).toEqual(actions.find((a) => a.metaData)?.metaData);
    expect(state.adds).toEqual(actions.filter((a) => a.add).map((a) => ({ ...(a.add as object), dataChange: false })));
  });

  it('counts the records of each file from its stats', async () => {
    expect(Object.fromEntries(await recordCounts(local, await readCheckpoint(local, ref)))).toEqual(numRecords);
  });
});
