import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { reportPageFailures, type PageWindow } from '../../../electron/app/page-failures.js';

/** A window whose page events the test fires, as Electron's webContents would. */
function window(): { win: PageWindow & { shown: number }; contents: EventEmitter; reports: string[] } {
  const contents = new EventEmitter();
  const win = { shown: 0, show: () => void win.shown++, webContents: contents as unknown as PageWindow['webContents'] };
  const reports: string[] = [];
  reportPageFailures(win, (err) => reports.push(err.message));
  return { win, contents, reports };
}

describe("the window's page failures", () => {
  it('shows the hidden window and reports a main-frame load failure in one line', () => {
    const { win, contents, reports } = window();
    contents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://deltaport/index.html', true);
    expect(win.shown).toBe(1);
    expect(reports).toEqual(["the window's page app://deltaport/index.html could not be loaded (ERR_FILE_NOT_FOUND, code -6)"]);
  });

  it('reports a renderer that crashed or was killed, with a way out', () => {
    const { win, contents, reports } = window();
    contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 137 });
    expect(win.shown).toBe(1);
    expect(reports).toEqual(["the window's page stopped (oom, exit code 137); reload it (File, Reload)"]);
  });

  it('ignores a load that another load replaced, a sub-frame, and a clean exit', () => {
    const { win, contents, reports } = window();
    contents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'app://deltaport/index.html', true);
    contents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://deltaport/frame.html', false);
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(win.shown).toBe(0);
    expect(reports).toEqual([]);
  });
});
