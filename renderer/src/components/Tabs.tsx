// WAI-ARIA tabs: arrow keys move between tabs; every panel stays mounted (hidden) so its state survives a switch.
import { useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';

interface TabDef<K extends string> {
  key: K;
  label: string;
  badge?: string;
  content: ReactNode;
}

interface Props<K extends string> {
  label: string;
  tabs: TabDef<K>[];
  active: K;
  onChange(key: K): void;
}

export function Tabs<K extends string>({ label, tabs, active, onChange }: Props<K>) {
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((t) => t.key === active);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
    onChange(next.key);
    listRef.current?.querySelector<HTMLElement>(`#tab-${next.key}`)?.focus();
  };

  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list" ref={listRef}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            id={`tab-${tab.key}`}
            type="button"
            role="tab"
            aria-selected={tab.key === active}
            aria-controls={`panel-${tab.key}`}
            tabIndex={tab.key === active ? 0 : -1}
            className="tab"
            onClick={() => onChange(tab.key)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
            {tab.badge && <span className="tab-badge">{tab.badge}</span>}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.key}
          id={`panel-${tab.key}`}
          role="tabpanel"
          aria-labelledby={`tab-${tab.key}`}
          className="tab-panel"
          hidden={tab.key !== active}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
