// Every example the README gives for the command line runs as printed: the block after "Examples, on the tables in
// `../shared/delta-tables`" is read from README.md, each line split into arguments by bash itself (its quoting, not
// ours), and run from the project folder. The one change: /tmp/ outputs go to a scratch folder, so that the test
// never meets another run's files.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-readme-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function readmeExamples(): string[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('Examples, on the tables in `../shared/delta-tables`');
  const block = /```\n([\s\S]*?)```/.exec(readme.slice(at));
  return block ? block[1].split('\n').filter((line) => line.trim() !== '') : [];
}

/** The arguments bash gives `deltaport` for this line. */
function shellWords(line: string): string[] {
  const words = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return words.split('\0').slice(0, -1);
}

describe("the README's command-line examples", () => {
  const examples = readmeExamples();

  it('are found, each a deltaport command on a shared table', () => {
    expect(examples.length).toBeGreaterThan(5);
    for (const line of examples) expect(line).toMatch(/^npx deltaport \w+ \.\.\/shared\/delta-tables\//);
  });

  it.each(examples)(
    '%s',
    async (line) => {
      const [npx, command, ...args] = shellWords(line.replaceAll('/tmp/', `${scratch}/`));
      expect([npx, command]).toEqual(['npx', 'deltaport']);
      const cwd = process.cwd();
      process.chdir(REPO_ROOT);
      try {
        const run = await cli(...args);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout.length).toBeGreaterThan(0);
      } finally {
        process.chdir(cwd);
      }
    },
    180_000,
  );
});
