// Reading one NNN.json commit (or a V2 checkpoint written as JSON): newline-delimited actions.
import { DeltaportError } from '../../../shared/errors.js';
import { locationName, type Storage } from '../../storage/storage.js';
import type { Action } from './actions.js';
import { corruptLog } from '../errors.js';

export async function readJsonActions(storage: Storage, file: string): Promise<Action[]> {
  let text: string;
  try {
    text = new TextDecoder().decode(await storage.read(file));
  } catch (err) {
    const cause = err instanceof DeltaportError ? err.message : (err as Error).message.split('\n')[0];
    throw corruptLog(`cannot read ${locationName(file)} in _delta_log: ${cause}`);
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
      throw corruptLog(`${locationName(file)} in _delta_log is corrupt: line ${lineNo} is not valid JSON`);
    }
    if (typeof action !== 'object' || action === null || Array.isArray(action)) {
      throw corruptLog(`${locationName(file)} in _delta_log is corrupt: line ${lineNo} is not an action object`);
    }
    actions.push(action as Action);
  }
  return actions;
}
