// The window's security settings as plain data and pure decisions, so that tests can assert them without Electron.
// window.ts and main.ts apply them; the HTTP host sends the same CSP.

/** The privileged scheme that serves dist/renderer inside Electron: the page's origin is app://deltaport. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'deltaport';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

// React sets styles through the CSSOM, which CSP does not govern, so style-src needs no 'unsafe-inline'.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
  "worker-src 'self'",
].join('; ');

export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  safeDialogs: true;
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // A folder dropped on the window must reach the page's drop handler, not navigate the window to file://.
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

/** True when a URL is a page of the app itself (scheme and host; non-special schemes have an opaque origin). */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password;
}

/**
 * The single page never navigates: the UI changes views in place and reloads go through webContents.reload(),
 * which does not ask. Any navigation request therefore comes from content we did not write, and is refused.
 */
export function allowNavigation(_url: string): boolean {
  return false;
}

/** New windows (window.open, target=_blank) are refused outright. */
export function windowOpenAction(): { action: 'deny' } {
  return { action: 'deny' };
}

/**
 * The permissions the page needs: Copy cell / copy range write text through navigator.clipboard.writeText, and a
 * long export that ends while the window is in the background says so in a notification.
 */
const APP_PERMISSIONS = new Set(['clipboard-sanitized-write', 'notifications']);

/**
 * Grants the app's own pages (app://deltaport, given as a URL or an origin) those permissions and nothing else:
 * no camera, clipboard-read, geolocation... and nothing at all to any other origin.
 */
export function allowPermission(permission: string, requester: string): boolean {
  return APP_PERMISSIONS.has(permission) && isAppUrl(requester);
}
