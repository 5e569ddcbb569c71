import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removePartialFiles } from '../../../electron/jobs/partial-files.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-partials-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('removePartialFiles', () => {
  it('removes only the partial files of the given target', async () => {
    const names = [
      'out.csv',
      'out.csv.partial-0123456789ab',
      'out.csv.partial-a1b2c3d4e5f6',
      'out.csv.partial-0123456789abc',
      'out.csv.partial-notahexvalue',
      'out.csv.bak',
      'other.csv.partial-0123456789ab',
      'xout.csv.partial-0123456789ab',
    ];
    for (const name of names) fs.writeFileSync(path.join(dir, name), 'x');
    const removed = await removePartialFiles(path.join(dir, 'out.csv'));
    expect(removed.map((f) => path.basename(f)).sort()).toEqual(['out.csv.partial-0123456789ab', 'out.csv.partial-a1b2c3d4e5f6']);
    expect(fs.readdirSync(dir).sort()).toEqual(names.filter((n) => !removed.includes(path.join(dir, n))).sort());
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect(await removePartialFiles(path.join(dir, 'missing', 'out.csv'))).toEqual([]);
  });
});
