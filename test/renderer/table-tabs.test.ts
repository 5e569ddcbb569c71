// Which tab a table opens in: the table bar replaces the shown tab's table, the navigator shows the tab that already
// has the table or adds one, and closing the shown tab shows a neighbour.
import { describe, expect, it } from 'vitest';
import { activeTab, NO_TABS, tableTabsReducer, type TableTabs, type TableTabsAction } from '../../renderer/src/table-tabs.js';

const run = (...actions: TableTabsAction[]): TableTabs => actions.reduce(tableTabsReducer, NO_TABS);

describe('table tabs', () => {
  it('opens the first table in a first tab, and the table bar opens the next one in the same tab', () => {
    const state = run(
      { type: 'openHere', target: '/a' },
      { type: 'status', id: 1, path: '/a', opening: false },
      { type: 'openHere', target: '/b' },
    );
    expect(state.tabs).toEqual([{ id: 1, target: '/b', asked: 2, path: '/a', opening: false }]);
    expect(state.active).toBe(1);
  });

  it('asks again when the same location is opened again in the tab', () => {
    const state = run({ type: 'openHere', target: '/a' }, { type: 'openHere', target: '/a' });
    expect(state.tabs[0].asked).toBe(2);
  });

  it('opens a table from the navigator in a new tab, or shows the tab that has it', () => {
    let state = run(
      { type: 'openHere', target: '/a' },
      { type: 'status', id: 1, path: '/a', opening: false },
      { type: 'openInNewTab', target: 's3://b/t' },
    );
    expect(state.tabs.map((t) => [t.id, t.target])).toEqual([
      [1, '/a'],
      [2, 's3://b/t'],
    ]);
    expect(state.active).toBe(2);
    state = tableTabsReducer(state, { type: 'openInNewTab', target: '/a' });
    expect(state.tabs).toHaveLength(2);
    expect(activeTab(state)?.id).toBe(1);
    // Not yet opened: known by what it was asked for.
    state = tableTabsReducer(state, { type: 'openInNewTab', target: 's3://b/t' });
    expect(state.tabs).toHaveLength(2);
    expect(state.active).toBe(2);
  });

  it('shows the right-hand neighbour of a closed shown tab, else the left one, else nothing', () => {
    const three = run(
      { type: 'openInNewTab', target: '/a' },
      { type: 'openInNewTab', target: '/b' },
      { type: 'openInNewTab', target: '/c' },
      { type: 'activate', id: 2 },
    );
    expect(tableTabsReducer(three, { type: 'close', id: 2 }).active).toBe(3);
    expect(tableTabsReducer(three, { type: 'close', id: 1 }).active).toBe(2);
    const last = tableTabsReducer(tableTabsReducer(three, { type: 'activate', id: 3 }), { type: 'close', id: 3 });
    expect(last.active).toBe(2);
    const none = run({ type: 'openInNewTab', target: '/a' }, { type: 'close', id: 1 });
    expect(none).toEqual({ tabs: [], active: null, nextId: 2 });
    // A new tab never reuses the id of a closed one: its TableView starts afresh.
    expect(tableTabsReducer(none, { type: 'openHere', target: '/a' }).tabs[0].id).toBe(2);
  });
});
