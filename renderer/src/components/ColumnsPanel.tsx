// The columns a preview or export reads: only the checked ones are decoded.
import { useState } from 'react';
import { typeLabel } from '../../../shared/delta-schema.js';
import type { StructField } from '../../../shared/delta-schema.js';

interface Props {
  fields: StructField[];
  partitionColumns: string[];
  chosen: string[];
  onChange(chosen: string[]): void;
}

export function ColumnsPanel({ fields, partitionColumns, chosen, onChange }: Props) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = fields.filter((f) => f.name.toLowerCase().includes(needle));
  const chosenSet = new Set(chosen);

  // Keep schema order whatever order the boxes were ticked in, so previews and exports read columns predictably.
  const setChosen = (names: Set<string>) => onChange(fields.map((f) => f.name).filter((n) => names.has(n)));
  const toggle = (name: string, on: boolean) => {
    const next = new Set(chosenSet);
    if (on) next.add(name);
    else next.delete(name);
    setChosen(next);
  };
  const setShown = (on: boolean) => {
    const next = new Set(chosenSet);
    for (const f of shown) {
      if (on) next.add(f.name);
      else next.delete(f.name);
    }
    setChosen(next);
  };

  return (
    <section className="columns-panel" aria-labelledby="columns-title">
      <header className="panel-header">
        <h2 id="columns-title">Columns</h2>
        <span className="muted small">
          {chosen.length} of {fields.length}
        </span>
      </header>
      <input
        type="search"
        className="filter-input"
        aria-label="Filter columns"
        placeholder="Filter…"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div className="columns-actions">
        <button type="button" className="button small" onClick={() => setShown(true)} aria-label="Select all columns">
          All
        </button>
        <button type="button" className="button small" onClick={() => setShown(false)} aria-label="Select no columns">
          None
        </button>
      </div>
      <ul className="column-list">
        {shown.map((field) => (
          <li key={field.name}>
            <label className="column-item" title={typeLabel(field.type)}>
              <input
                type="checkbox"
                aria-label={field.name}
                checked={chosenSet.has(field.name)}
                onChange={(e) => toggle(field.name, e.target.checked)}
              />
              <span className="column-name">{field.name}</span>
              {partitionColumns.includes(field.name) && (
                <span className="pill" title="Partition column">
                  P
                </span>
              )}
              <span className="column-type">{typeof field.type === 'string' ? field.type : field.type.type}</span>
            </label>
          </li>
        ))}
        {shown.length === 0 && <li className="muted small empty">No column matches “{filter}”.</li>}
      </ul>
      {chosen.length === 0 && <p className="hint">Choose at least one column to preview or export.</p>}
    </section>
  );
}
