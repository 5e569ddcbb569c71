// The tables open in the window, one tab each: what each was asked to open and where it opened. A tab's own state
// (version, filter, forms) lives in its TableView, which stays mounted while another tab is shown.
export interface TableTab {
  id: number;
  /** The location last asked for, as typed or clicked. */
  target: string;
  /** How many times a table was asked for in this tab: asking again for the same location opens it again. */
  asked: number;
  /** Where the table opened (the host's spelling of the location); null until it did. */
  path: string | null;
  opening: boolean;
}

export interface TableTabs {
  tabs: TableTab[];
  active: number | null;
  nextId: number;
}

export type TableTabsAction =
  /** The table bar, a drop, a recent table: in the tab shown, or a first tab. */
  | { type: 'openHere'; target: string }
  /** The navigator: the tab that already shows this table, else a new one. */
  | { type: 'openInNewTab'; target: string }
  | { type: 'status'; id: number; path: string | null; opening: boolean }
  | { type: 'activate'; id: number }
  | { type: 'close'; id: number };

export const NO_TABS: TableTabs = { tabs: [], active: null, nextId: 1 };

export function activeTab(state: TableTabs): TableTab | null {
  return state.tabs.find((t) => t.id === state.active) ?? null;
}

export function tableTabsReducer(state: TableTabs, action: TableTabsAction): TableTabs {
  switch (action.type) {
    case 'openHere': {
      const shown = activeTab(state);
      if (!shown) return withNewTab(state, action.target);
      return { ...state, tabs: state.tabs.map((t) => (t.id === shown.id ? { ...t, target: action.target, asked: t.asked + 1 } : t)) };
    }
    case 'openInNewTab': {
      const showing = state.tabs.find((t) => t.path === action.target || (t.path === null && t.target === action.target));
      return showing ? { ...state, active: showing.id } : withNewTab(state, action.target);
    }
    case 'status':
      return {
        ...state,
        tabs: state.tabs.map((t) => (t.id === action.id ? { ...t, path: action.path, opening: action.opening } : t)),
      };
    case 'activate':
      return state.tabs.some((t) => t.id === action.id) ? { ...state, active: action.id } : state;
    case 'close': {
      const index = state.tabs.findIndex((t) => t.id === action.id);
      if (index < 0) return state;
      const tabs = state.tabs.filter((t) => t.id !== action.id);
      // Closing the tab shown shows its right-hand neighbour, else the one to its left.
      const active = state.active === action.id ? (tabs[Math.min(index, tabs.length - 1)]?.id ?? null) : state.active;
      return { ...state, tabs, active };
    }
  }
}

function withNewTab(state: TableTabs, target: string): TableTabs {
  const tab: TableTab = { id: state.nextId, target, asked: 1, path: null, opening: false };
  return { tabs: [...state.tabs, tab], active: tab.id, nextId: state.nextId + 1 };
}
