// Reads the first rows of the chosen snapshot and columns into the grid.
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { PreviewResult } from '../../../shared/api.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { orderByText } from '../../../shared/sort-spec.js';
import { formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import { Alert } from './Alert.js';

interface Props {
  source: DeltaSourceSpec | null;
  /** Why there is no source yet, shown next to the disabled button. */
  blocked: string | null;
  preview(source: DeltaSourceSpec, limit: number): Promise<{ result?: PreviewResult; error?: string }>;
}

const DEFAULT_LIMIT = '1000';

export function PreviewPanel({ source, blocked, preview }: Props) {
  const [limitText, setLimitText] = useState(DEFAULT_LIMIT);
  const [result, setResult] = useState<PreviewResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const limit = Number(limitText);
  const limitProblem = Number.isInteger(limit) && limit >= 1 ? null : 'Row limit must be a whole number, 1 or more.';

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (!source || limitProblem) return;
    setBusy(true);
    setError(null);
    const answer = await preview(source, limit);
    setBusy(false);
    if (answer.error) setError(answer.error);
    else if (answer.result) setResult(answer.result);
  };

  return (
    <div className="preview">
      <form className="toolbar-row" onSubmit={(e) => void run(e)}>
        <label className="field compact">
          <span>Row limit</span>
          <input type="number" min={1} step={1} value={limitText} onChange={(e) => setLimitText(e.target.value)} />
        </label>
        <button type="submit" className="button primary" disabled={busy || !source || limitProblem !== null}>
          {busy ? 'Reading…' : 'Preview'}
        </button>
        {blocked && <span className="muted small">{blocked}</span>}
        <span className="spacer" />
        {result && (
          <span className="preview-status" aria-live="polite">
            <span className="pill">snapshot v{result.version}</span> {formatCount(result.rows.length)} rows
            {result.truncated ? ` (first ${formatCount(result.rows.length)}; the table has more)` : ''} ·{' '}
            {result.columns.length} columns
            {result.skipping && (
              <span className="skip-note">
                {' '}
                · filter skipped {formatCount(result.skipping.filesSkipped)} of {formatCount(result.skipping.filesTotal)} files
              </span>
            )}
            {result.order && (
              <span className="order-note">
                {' '}
                · ordered by {orderByText(result.order.keys)} over {formatCount(result.order.rowsSorted)} rows
              </span>
            )}
          </span>
        )}
      </form>
      <Alert message={limitProblem ?? error} />
      {result ? (
        <DataGrid label={`Rows of snapshot v${result.version}`} columns={result.columns} rows={result.rows} />
      ) : (
        <div className="empty-state">
          <p>Choose columns on the left, then press Preview to read the first rows of this snapshot.</p>
        </div>
      )}
    </div>
  );
}
