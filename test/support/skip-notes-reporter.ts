// A passing run's console output is not shown (vitest.config.ts) and the default reporter counts skipped tests
// without their reasons: this reporter writes each skipped test's reason (the note of its ctx.skip) to
// test-output/skip-notes.json, by test file and by the name the JSON report gives the test, for .ci/run's summary.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

const SKIP_NOTES_FILE = 'test-output/skip-notes.json';

export default class SkipNotesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const notes: Record<string, Record<string, string>> = {};
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        if (result.state !== 'skipped' || !result.note) continue;
        (notes[module.moduleId] ??= {})[jsonReportName(test)] = result.note;
      }
    }
    mkdirSync(path.dirname(SKIP_NOTES_FILE), { recursive: true });
    writeFileSync(SKIP_NOTES_FILE, JSON.stringify(notes, null, 1));
  }
}

/** The JSON reporter's fullName: the suites' names and the test's, joined by spaces. */
function jsonReportName(test: TestCase): string {
  const names = [test.name];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) names.unshift(parent.name);
  return names.join(' ');
}
