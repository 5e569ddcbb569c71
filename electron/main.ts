// Electron's entry: one secure window on app://deltaport, the API over IPC, jobs in worker threads, state in the
// user-data folder. Everything it wires up is plain Node (electron/app, jobs, state) except the few Electron files.
import path from 'node:path';
import type { BrowserWindow } from 'electron';
import { app, dialog, safeStorage, session } from 'electron';
import { createApiService } from './app/api-service.js';
import { entryUrl, tableFromArgv } from './app/launch-args.js';
import { reportPageFailures } from './app/page-failures.js';
import { rendererDir } from './app/package-root.js';
import { sampleTableProvider } from './app/sample.js';
import { recordStartupError, startupDialogText } from './app/startup-error.js';
import { nativeDialogs } from './dialogs.js';
import { registerIpcHandlers, sendJobEvent } from './ipc-electron.js';
import { JobRunner } from './jobs/job-runner.js';
import { StorageConnections } from './app/storage-connections.js';
import { setAppMenu } from './menu.js';
import { SQL_TEMP_FOLDER } from './sql/limits.js';
import { AppState, STATE_FILE_NAME } from './state/app-state.js';
import { resolveDataDir } from './state/data-dir.js';
import { platformEncryptor } from './state/secrets.js';
import { setEngineFlags } from './threads/engine-flags.js';
import { createMainWindow, hardenAllWebContents, hardenSession, registerAppScheme, serveRenderer } from './window.js';

setEngineFlags();
registerAppScheme();
hardenAllWebContents(app);

// Known before the app is ready, so that a failure anywhere in start() can be logged there.
const dataDir = resolveDataDir(process.env, app.getPath('userData'));
// The single-instance lock belongs to the userData folder: a data folder of its own (DELTAPORT_DATA_DIR) is then an
// instance of its own, beside the usual one.
if (dataDir !== app.getPath('userData')) app.setPath('userData', dataDir);

function reportStartupFailure(err: unknown): void {
  dialog.showErrorBox('Deltaport could not start', startupDialogText(recordStartupError(err, dataDir)));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // catch() after then(): an exception thrown inside start() is a start-up failure too.
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      reportStartupFailure(err);
      app.exit(1);
    });
}

function start(): void {
  const state = AppState.open(path.join(dataDir, STATE_FILE_NAME), { encryptor: platformEncryptor(safeStorage) });
  // One engine's settings for every read, made from the saved storage connections (and again when they change).
  const connections = new StorageConnections(state);
  const jobs = new JobRunner({ store: state, engine: connections.settings });
  const sampleTable = sampleTableProvider(dataDir);
  let win: BrowserWindow | null = null;

  // Open Recent lists what the API service just added to the recent tables.
  const api = createApiService({
    state,
    jobs,
    connections,
    sampleTable,
    dialogs: nativeDialogs(() => win),
    onTableOpened: () => refreshMenu(),
    sqlTempDirectory: path.join(dataDir, SQL_TEMP_FOLDER),
  });

  serveRenderer(rendererDir());
  hardenSession(session.defaultSession);
  registerIpcHandlers(api, (contents) => contents === win?.webContents);
  jobs.onJobEvent((event) => sendJobEvent(win?.webContents, event));

  // A page that fails to load is reported by reportPageFailures (did-fail-load), which loadURL's rejection repeats.
  const show = (table: string | null) => void win?.loadURL(entryUrl(table)).catch(() => undefined);
  const actions = {
    openTable: async () => {
      const folder = await nativeDialogs(() => win).chooseTableFolder();
      if (folder) show(folder);
    },
    openRecent: (table: string) => show(table),
    reload: () => win?.webContents.reload(),
  };
  function refreshMenu(): void {
    setAppMenu(state.recentTables(), actions, { mac: process.platform === 'darwin', devTools: !app.isPackaged });
  }
  refreshMenu();

  win = createMainWindow(path.join(import.meta.dirname, 'preload.cjs'));
  reportPageFailures(win, reportStartupFailure);
  show(tableFromArgv(process.argv, app.isPackaged, process.cwd()));
  if (state.setAsidePath) {
    void dialog.showMessageBox(win, {
      type: 'warning',
      message: 'Deltaport started with fresh settings',
      detail: `Its state file could not be read and was moved to ${state.setAsidePath}.`,
    });
  }
  // First run: the sample is written in the background so the window opens at once.
  sampleTable().catch(() => undefined);

  let quitting = false;
  win.on('close', (event) => {
    const active = jobs.activeCount();
    if (quitting || active === 0) return;
    event.preventDefault();
    const choice = dialog.showMessageBoxSync(win!, {
      type: 'question',
      buttons: ['Cancel jobs and quit', 'Keep working'],
      defaultId: 1,
      cancelId: 1,
      message: active === 1 ? 'An export is still running.' : `${active} exports are still running or queued.`,
      detail: 'Quitting cancels them; SQL targets keep only their committed batches, files are not written.',
    });
    if (choice !== 0) return;
    quitting = true;
    void jobs.cancelAll().finally(() => win?.close());
  });
  win.on('closed', () => (win = null));

  app.on('second-instance', (_event, argv, cwd) => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
    const table = tableFromArgv(argv, app.isPackaged, cwd);
    if (table) show(table);
  });
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => state.close());
}
