// Reading one NNN.json commit (or a V2 checkpoint written as JSON): newline-delimited actions.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Action } from './actions.js';
import { CorruptLogError } from './errors.js';

export async function readJsonActions(file: string): Promise<Action[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CorruptLogError(`cannot read ${path.basename(file)} in _delta_log: ${(err as Error).message.split('\n')[0]}`);
  }
  return parseJsonActions(text, file);
}

export function parseJsonActions(text: string, file: string): Action[] {
  const actions: Action[] = [];
  let lineNo = 0;
  for (const line of text.split('\n')) {
    lineNo++;
    if (line.trim() === '') continue;
    let action: unknown;
    try {
      action = JSON.parse(line);
    } catch {
      throw new CorruptLogError(`${path.basename(file)} in _delta_log is corrupt: line ${lineNo} is not valid JSON`);
    }
    if (typeof action !== 'object' || action === null || Array.isArray(action)) {
      throw new CorruptLogError(`${path.basename(file)} in _delta_log is corrupt: line ${lineNo} is not an action object`);
    }
    actions.push(action as Action);
  }
  return actions;
}
