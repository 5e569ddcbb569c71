// The path of a database file a sink writes into (SQLite, DuckDB), with a Browse… button where the app has native
// file dialogs (not in a browser).
import { TextField } from './Field.js';

interface Props {
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  /** Asks for the file with the native dialog; null in a browser. */
  onBrowse: (() => void) | null;
  /** The Browse… button's accessible name. */
  browseLabel: string;
}

export function DatabaseFileField({ label, placeholder, value, onChange, onBrowse, browseLabel }: Props) {
  return (
    <div className="inline-fields">
      <TextField className="field grow" label={label} placeholder={placeholder} value={value} onChange={onChange} />
      {onBrowse && (
        <button type="button" className="button" onClick={onBrowse} aria-label={browseLabel}>
          Browse…
        </button>
      )}
    </div>
  );
}
