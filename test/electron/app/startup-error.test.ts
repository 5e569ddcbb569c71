import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import { recordStartupError, STARTUP_LOG_NAME, startupDialogText } from '../../../electron/app/startup-error.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-startup-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('start-up errors', () => {
  it('gives the dialog one line of cause and appends the stack to a log in the data folder', () => {
    const err = new Error('cannot open state.db: disk I/O error\nsecond line of detail');
    const failure = recordStartupError(err, dir, new Date('2026-01-02T03:04:05Z'));
    expect(failure).toEqual({ line: 'cannot open state.db: disk I/O error', logFile: path.join(dir, STARTUP_LOG_NAME) });
    const log = fs.readFileSync(failure.logFile!, 'utf8');
    expect(log).toMatch(
      /^2026-01-02T03:04:05\.000Z Deltaport could not start \(Node [\d.]+, \w+-\w+\): cannot open state\.db: disk I\/O error\n/,
    );
    expect(log).toContain('second line of detail');
    expect(log).toContain(err.stack!.split('\n')[2]!);
    expect(startupDialogText(failure)).toBe(`cannot open state.db: disk I/O error\n\nDetails were written to ${failure.logFile}`);

    recordStartupError(new DeltaportError('STATE_TOO_NEW', 'state.db was written by a newer Deltaport'), dir);
    expect(fs.readFileSync(failure.logFile!, 'utf8').match(/Deltaport could not start/g)).toHaveLength(2);
  });

  it('takes any thrown value, and still has a line when the log cannot be written', () => {
    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, '');
    const failure = recordStartupError('no display to open a window on', path.join(blocked, 'data'));
    expect(failure).toEqual({ line: 'no display to open a window on', logFile: null });
    expect(startupDialogText(failure)).toBe('no display to open a window on');
  });
});
