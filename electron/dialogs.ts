// Native pickers for the paths a user would rather click than type (a table folder, a SQLite or DuckDB file), and the
// file manager for an export's target.
import type { BrowserWindow } from 'electron';
import { dialog, shell } from 'electron';
import type { NativeDialogs } from './app/api-service.js';

export function nativeDialogs(window: () => BrowserWindow | null): NativeDialogs {
  return {
    async chooseTableFolder() {
      const options: Electron.OpenDialogOptions = { title: 'Open Delta table', buttonLabel: 'Open', properties: ['openDirectory'] };
      const win = window();
      const { canceled, filePaths } = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return canceled ? null : (filePaths[0] ?? null);
    },
    chooseSqliteFile: () => chooseDatabaseFile('SQLite', ['db', 'sqlite', 'sqlite3']),
    chooseDuckdbFile: () => chooseDatabaseFile('DuckDB', ['duckdb', 'db']),
    showInFolder(file) {
      shell.showItemInFolder(file);
    },
  };

  async function chooseDatabaseFile(kind: string, extensions: string[]): Promise<string | null> {
    // A save dialog, because the export may create the file; what happens to an existing one is the write mode's
    // business, so no overwrite prompt is asked for.
    const options: Electron.SaveDialogOptions = {
      title: `${kind} file`,
      buttonLabel: 'Choose',
      filters: [
        { name: `${kind} database`, extensions },
        { name: 'All files', extensions: ['*'] },
      ],
      properties: ['createDirectory'],
    };
    const win = window();
    const { canceled, filePath } = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return canceled || !filePath ? null : filePath;
  }
}
