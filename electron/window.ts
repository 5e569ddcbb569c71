// The app window and everything that keeps its content ours: the app:// protocol serving dist/renderer (CSP on
// every response), denied navigation, new windows and webviews, and no permission but the clipboard write to the
// app's own page, for this and any other webContents.
import type { App, Session, WebContents } from 'electron';
import { BrowserWindow, protocol } from 'electron';
import { answerAppRequest } from './app/app-protocol.js';
import { allowNavigation, allowPermission, APP_SCHEME, secureWebPreferences, windowOpenAction } from './app/security.js';

/** Must run before the app is ready: app:// behaves like https (standard, secure origin, fetch allowed). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await answerAppRequest(rendererRoot, request.url);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}

export function hardenSession(session: Session): void {
  // A request names the requesting frame's URL, a check its origin: allowPermission takes either.
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(allowPermission(permission, details.requestingUrl)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowPermission(permission, requestingOrigin));
}

/** Applies the navigation rules to every webContents the app ever creates, not only the main window's. */
export function hardenAllWebContents(app: App): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!allowNavigation(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!allowNavigation(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => windowOpenAction());
  });
}

export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    // The smallest size that still shows the grid and the whole export form with the Jobs strip closed.
    minWidth: 1024,
    minHeight: 700,
    title: 'Deltaport',
    show: false,
    webPreferences: secureWebPreferences(preloadPath),
  });
  win.once('ready-to-show', () => win.show());
  return win;
}
