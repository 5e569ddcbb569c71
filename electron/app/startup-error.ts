// What the user sees when the app cannot start: one line of cause for the error dialog, with the full detail (stack,
// versions, time) appended to a log file in the data folder for a bug report. Plain Node, so it is tested without
// Electron; main.ts shows the dialog and exits non-zero.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { toErrorValue } from '../../shared/errors.js';

export const STARTUP_LOG_NAME = 'startup-errors.log';

export interface StartupFailure {
  /** The cause in one line. */
  line: string;
  /** Where the detail was written; null when even that failed (an unwritable data folder, say). */
  logFile: string | null;
}

export function recordStartupError(err: unknown, dataDir: string, now = new Date()): StartupFailure {
  const line = toErrorValue(err).message;
  const detail = err instanceof Error ? (err.stack ?? err.message) : inspect(err);
  const entry = `${now.toISOString()} Deltaport could not start (${runtimeLabel()}): ${line}\n${detail}\n\n`;
  const logFile = path.join(dataDir, STARTUP_LOG_NAME);
  try {
    mkdirSync(dataDir, { recursive: true });
    appendFileSync(logFile, entry);
    return { line, logFile };
  } catch {
    return { line, logFile: null };
  }
}

/** The dialog's text: the cause, then where to find the rest. */
export function startupDialogText(failure: StartupFailure): string {
  return failure.logFile ? `${failure.line}\n\nDetails were written to ${failure.logFile}` : failure.line;
}

function runtimeLabel(): string {
  const { electron, node } = process.versions;
  return `${electron ? `Electron ${electron}, ` : ''}Node ${node}, ${process.platform}-${process.arch}`;
}
