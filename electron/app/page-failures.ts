// A page that cannot load, or a renderer that dies, would otherwise leave the window hidden (it shows on
// ready-to-show) or blank with nothing said: the window is shown and the cause reported in one line. Plain Node over
// the few parts of a BrowserWindow it needs, so that it is tested without Electron.

/** Chromium's code for a load that another load replaced (a second loadURL): not a failure. */
const LOAD_ABORTED = -3;

export interface PageWindow {
  show(): void;
  webContents: {
    on(
      event: 'did-fail-load',
      listener: (event: unknown, code: number, description: string, url: string, isMainFrame: boolean) => void,
    ): unknown;
    on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string; exitCode: number }) => void): unknown;
  };
}

export function reportPageFailures(win: PageWindow, report: (err: Error) => void): void {
  win.webContents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
    if (!isMainFrame || code === LOAD_ABORTED) return;
    win.show();
    report(new Error(`the window's page ${url} could not be loaded (${description}, code ${code})`));
  });
  win.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    win.show();
    report(new Error(`the window's page stopped (${details.reason}, exit code ${details.exitCode}); reload it (File, Reload)`));
  });
}
