import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/native/sqlite-binding.js';

describe('SQLite in every process', () => {
  it("opens a database with better-sqlite3's N-API build from its own package (the one Electron loads too)", () => {
    const db = openDatabase(':memory:');
    expect(db.prepare('SELECT 6 * 7 AS n').get()).toEqual({ n: 42 });
    db.close();
    const packageDir = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    // The addon mapped into this process, as the kernel lists it.
    const maps = readFileSync('/proc/self/maps', 'utf8');
    expect(maps).toContain(path.join(packageDir, 'prebuilds', `${process.platform}-${process.arch}.node`));
  });
});
