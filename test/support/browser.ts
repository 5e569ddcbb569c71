// Real Chromium for the end-to-end suites: Debian's /usr/bin/chromium driven by playwright-core.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Locator, Page } from 'playwright-core';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** Screenshots of each main screen land here (git-ignored; the README names it). */
const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output/screenshots');

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh page at a desktop size, in the given colour scheme, with page errors collected for the test to check. */
export async function openPage(
  browser: Browser,
  url: string,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(msg.text());
  });
  await page.goto(url);
  return { page, pageErrors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** Whether an element's text is shown whole on one line: neither wrapped nor cut (by an ellipsis or its box). */
export function showsWholeOnOneLine(element: Locator): Promise<boolean> {
  return element.evaluate((el) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    // A line's boxes (text, an icon) overlap the first's height; a wrapped line's lie wholly below it.
    const [first, ...rest] = [...range.getClientRects()];
    const oneLine = rest.every((rect) => rect.top < first.bottom && rect.bottom > first.top);
    return oneLine && el.scrollWidth <= el.clientWidth;
  });
}

/** Whether an input's placeholder fits inside its box, measured in the input's own font. */
export function placeholderFits(input: Locator): Promise<boolean> {
  return input.evaluate((field) => {
    const page = field.ownerDocument;
    const style = page.defaultView.getComputedStyle(field);
    const context = page.createElement('canvas').getContext('2d');
    context.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(field.placeholder).width <= room;
  });
}
