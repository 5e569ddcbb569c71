// The API over Electron IPC: one handler per method on channel deltaport:<method>, answering only the main frame of
// our own window on an app:// page, with the payload validated by dispatch; job events go out on deltaport:job-event.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { ipcMain } from 'electron';
import type { DeltaportApi, JobEvent, Result } from '../shared/api.js';
import { API_METHODS } from '../shared/api.js';
import { dispatchCall } from './app/dispatch.js';
import { isTrustedSender } from './app/ipc-validation.js';

export const IPC_PREFIX = 'deltaport:';
export const JOB_EVENT_CHANNEL = 'deltaport:job-event';

const FORBIDDEN: Result<never> = { ok: false, error: { code: 'FORBIDDEN', message: 'this page may not use the Deltaport API' } };

export function registerIpcHandlers(api: DeltaportApi, isOurWindow: (contents: WebContents) => boolean): void {
  for (const method of API_METHODS) {
    ipcMain.handle(`${IPC_PREFIX}${method}`, (event: IpcMainInvokeEvent, payload: unknown) => {
      const frame = event.senderFrame;
      const trusted = isTrustedSender({
        frameUrl: frame?.url ?? null,
        isMainFrame: frame !== null && frame === event.sender.mainFrame,
        isOurWindow: isOurWindow(event.sender),
      });
      return trusted ? dispatchCall(api, method, payload) : FORBIDDEN;
    });
  }
}

export function sendJobEvent(contents: WebContents | undefined, event: JobEvent): void {
  if (contents && !contents.isDestroyed()) contents.send(JOB_EVENT_CHANNEL, event);
}
