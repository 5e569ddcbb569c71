// The layers of the main process hold because lint fails an import that points upward (eslint.config.js): each case
// lints one planted import as if it were written in a file of that folder, through the project's own config.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') });

/** The messages of no-restricted-imports for one import line in a file at `file`. */
async function refusals(file: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import '${from}';\n`, { filePath: file });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['electron/delta/table.ts', '../sinks/sink.js'],
    ['electron/delta/scan/scan.ts', '../../export/run-export.js'],
    ['electron/delta/log/replay.ts', '../../jobs/tasks.js'],
    ['electron/delta/engine/parquet-file.ts', '../../app/dispatch.js'],
  ])('the reader never imports a layer above it: %s -> %s', async (file, from) => {
    expect(await refusals(file, from)).toEqual([expect.stringContaining('the reader (electron/delta/)')]);
  });

  it.each([
    ['electron/sinks/sink.ts', '../delta/table.js'],
    ['electron/sinks/sink.ts', '../delta/log/replay.js'],
    ['electron/sinks/sink.ts', '../delta/scan/scan.js'],
  ])("a sink never imports the reader's internals: %s -> %s", async (file, from) => {
    expect(await refusals(file, from)).toEqual([expect.stringContaining('a sink takes')]);
  });

  it.each([
    ['electron/sinks/sink.ts', '../delta/scan/scan-types.js'],
    ['electron/sinks/parquet-sink.ts', '../delta/engine/parquet-file.js'],
    ['electron/delta/scan/scan.ts', '../../storage/storage.js'],
    ['electron/storage/s3-storage.ts', '../../shared/errors.js'],
  ])('an import downward or into the public parts passes: %s -> %s', async (file, from) => {
    expect(await refusals(file, from)).toEqual([]);
  });

  it.each([
    ['electron/storage/storage.ts', '../delta/table.js'],
    ['electron/storage/s3-storage.ts', '../threads/start-worker.js'],
  ])('storage imports nothing above it: %s -> %s', async (file, from) => {
    expect(await refusals(file, from)).toEqual([expect.stringContaining('electron/storage/ is the bottom layer')]);
  });
});
