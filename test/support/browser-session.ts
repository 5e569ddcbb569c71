// The set-up every end-to-end suite shares: `deltaport serve` and real Chromium started together before the file's
// tests, one page on the app (its errors collected), a scratch folder for outputs; all of it gone after the file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, openPage } from './browser.js';
import { startServe, type ServedApp } from './serve.js';

export interface BrowserSession {
  app: ServedApp;
  browser: Browser;
  page: Page;
  pageErrors: string[];
  scratch: string;
}

/** Registers the file's beforeAll/afterAll; the session's fields are set before its first test runs. */
export function useBrowserSession(scratchPrefix: string): BrowserSession {
  const session = {} as BrowserSession;
  beforeAll(async () => {
    session.scratch = fs.mkdtempSync(path.join(os.tmpdir(), scratchPrefix));
    [session.app, session.browser] = await Promise.all([startServe(), launchChromium()]);
    Object.assign(session, await openPage(session.browser, session.app.url));
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.app?.stop();
    if (session.scratch) fs.rmSync(session.scratch, { recursive: true, force: true });
  });
  return session;
}
