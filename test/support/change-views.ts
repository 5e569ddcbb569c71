// Reading the diff and change feed views in a page: a figure of their summary, and every row of their grid.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function statValue(page: Page, label: string): Promise<string> {
  return page
    .locator('.diff-stats .stat', { has: page.locator('.stat-label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.stat-value')
    .innerText();
}

/** Every row of the grid: it draws only the rows in view, so it is read at the top and again scrolled to the end. */
export async function gridRows(page: Page, label: string): Promise<string[][]> {
  const grid = page.getByRole('grid', { name: label });
  const byIndex = new Map<string, string[]>();
  const read = async () => {
    const rows = await grid
      .locator('[role=rowgroup].grid-body [role=row]')
      .evaluateAll((els) =>
        els.map((row) => [
          row.getAttribute('aria-rowindex') ?? '',
          ...[...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? ''),
        ]),
      );
    for (const [index, ...cells] of rows) byIndex.set(index, cells);
  };
  await read();
  const count = Number(await grid.getAttribute('aria-rowcount')) - 1;
  if (byIndex.size < count) {
    await grid.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(async () => (await read(), byIndex.size)).toBe(count);
  }
  return [...byIndex.values()];
}
