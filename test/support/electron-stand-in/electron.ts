// A stand-in for the parts of Electron's main-process API that electron/main.ts and its wiring use, so that the
// packaged main process runs under plain Node (test/electron/launcher/packaged-app.test.ts). It imports nothing but
// Node, so every other module the app loads comes from the packaged tree. What the app does with Electron is reported
// to the test over the child-process channel; the test invokes IPC handlers and fetches app:// URLs the same way.
import { EventEmitter } from 'node:events';

type ProtocolHandler = (request: Request) => Promise<Response> | Response;
type IpcHandler = (event: unknown, payload: unknown) => unknown;

/** A message to the test; `then` runs once it is sent (before an exit, say). */
function report(message: Record<string, unknown>, then?: () => void): void {
  if (process.send) process.send(message, undefined, {}, () => then?.());
  else then?.();
}
const record = (what: string, detail?: unknown, then?: () => void): void => report({ type: 'record', what, detail }, then);

// A packaged Electron's argv is its executable, then the user's arguments; Node's has the script's path between.
process.argv.splice(1, 1);

const protocolHandlers = new Map<string, ProtocolHandler>();
const ipcHandlers = new Map<string, IpcHandler>();
const windows: BrowserWindow[] = [];
const paths: Record<string, string> = { userData: process.env.STAND_IN_USER_DATA ?? '' };

class StandInApp extends EventEmitter {
  readonly isPackaged = true;
  getPath(name: string): string {
    return paths[name] ?? '';
  }
  setPath(name: string, value: string): void {
    paths[name] = value;
    record('app.setPath', [name, value]);
  }
  requestSingleInstanceLock(): boolean {
    record('app.requestSingleInstanceLock', paths.userData);
    return true;
  }
  whenReady(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
  quit(): void {
    record('app.quit', undefined, () => process.exit(0));
  }
  exit(code = 0): void {
    record('app.exit', code, () => process.exit(code));
  }
}
export const app = new StandInApp();

export const dialog = {
  showErrorBox: (title: string, content: string) => record('dialog.showErrorBox', { title, content }),
  showMessageBox: async (...args: unknown[]) => {
    record('dialog.showMessageBox', args.at(-1));
    return { response: 0, checkboxChecked: false };
  },
  showMessageBoxSync: () => 0,
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  showSaveDialog: async () => ({ canceled: true, filePath: '' }),
};

export const shell = { showItemInFolder: (file: string) => record('shell.showItemInFolder', file) };

/** Reversible, so that a saved secret can be told from a dropped one; the backend is the test's choice. */
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => process.env.STAND_IN_KEYRING ?? 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from(plain).reverse(),
  decryptString: (cipher: Buffer) => Buffer.from(cipher).reverse().toString(),
};

export const session = {
  defaultSession: { setPermissionRequestHandler: () => undefined, setPermissionCheckHandler: () => undefined },
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown) => record('protocol.registerSchemesAsPrivileged', schemes),
  handle: (scheme: string, handler: ProtocolHandler) => void protocolHandlers.set(scheme, handler),
};

export const Menu = {
  buildFromTemplate: (template: unknown) => template,
  setApplicationMenu: () => undefined,
};

export const ipcMain = {
  handle: (channel: string, handler: IpcHandler) => void ipcHandlers.set(channel, handler),
};

class WebContents extends EventEmitter {
  readonly mainFrame = { url: '' };
  send(channel: string, payload: unknown): void {
    report({ type: 'send', channel, payload });
  }
  isDestroyed(): boolean {
    return false;
  }
  getURL(): string {
    return this.mainFrame.url;
  }
  reload(): void {}
  setWindowOpenHandler(): void {}
}

/** Loads a page through the registered protocol handler, as Chromium would: a thrown handler is a failed load. */
export class BrowserWindow extends EventEmitter {
  readonly webContents = new WebContents();
  constructor(options: { webPreferences?: { preload?: string } }) {
    super();
    windows.push(this);
    record('BrowserWindow', { preload: options.webPreferences?.preload });
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    const handler = protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    this.webContents.mainFrame.url = url;
    try {
      if (!handler) throw new Error('ERR_UNKNOWN_URL_SCHEME');
      const response = await handler(new Request(url));
      record('BrowserWindow.loadURL', { url, status: response.status });
      this.emit('ready-to-show');
    } catch (err) {
      this.webContents.emit('did-fail-load', {}, -2, (err as Error).message, url, true);
      throw err;
    }
  }
  show(): void {
    record('BrowserWindow.show');
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {}
  close(): void {}
}

/** The test's requests: invoke an IPC handler as the window's main frame would, or fetch an app:// URL. */
process.on('message', (message: { id: number; invoke?: string; payload?: unknown; fetch?: string }) => {
  const answer = async (): Promise<unknown> => {
    if (message.invoke !== undefined) {
      const handler = ipcHandlers.get(message.invoke);
      if (!handler) throw new Error(`no IPC handler for ${message.invoke}`);
      const sender = windows.at(-1)!.webContents;
      return handler({ sender, senderFrame: sender.mainFrame }, message.payload ?? null);
    }
    const url = message.fetch!;
    const response = await protocolHandlers.get(new URL(url).protocol.slice(0, -1))!(new Request(url));
    return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  };
  answer().then(
    (value) => report({ type: 'reply', id: message.id, value }),
    (err: Error) => report({ type: 'reply', id: message.id, error: err.message }),
  );
});
