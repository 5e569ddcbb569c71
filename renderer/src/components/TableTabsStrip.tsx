// The open tables as WAI-ARIA tabs: each named by its folder (or catalog name), its full location on hover, with a
// close button beside it; arrow keys move between tabs, Delete closes the one focused.
import { useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { folderName } from '../format.js';
import type { TableTab } from '../table-tabs.js';

interface Props {
  tabs: TableTab[];
  active: number | null;
  onActivate(id: number): void;
  onClose(id: number): void;
}

export function TableTabsStrip({ tabs, active, onActivate, onClose }: Props) {
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent, id: number) => {
    const index = tabs.findIndex((t) => t.id === id);
    if (event.key === 'Delete') {
      event.preventDefault();
      return onClose(id);
    }
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
    onActivate(next.id);
    listRef.current?.querySelector<HTMLElement>(`#table-tab-${next.id}`)?.focus();
  };

  return (
    <div role="tablist" aria-label="Open tables" className="table-tabs" ref={listRef}>
      {tabs.map((tab) => {
        const location = tab.path ?? tab.target;
        const name = folderName(location);
        return (
          <div key={tab.id} className={tab.id === active ? 'table-tab active' : 'table-tab'}>
            <button
              id={`table-tab-${tab.id}`}
              type="button"
              role="tab"
              aria-selected={tab.id === active}
              aria-controls={`table-panel-${tab.id}`}
              tabIndex={tab.id === active ? 0 : -1}
              className="table-tab-name"
              title={location}
              onClick={() => onActivate(tab.id)}
              onKeyDown={(e) => onKeyDown(e, tab.id)}
            >
              {name}
              {tab.opening && <span className="muted"> …</span>}
            </button>
            <button
              type="button"
              className="table-tab-close"
              aria-label={`Close ${name}`}
              title={`Close ${name}`}
              onClick={() => onClose(tab.id)}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}
