// The SQL tab: a query over the opened table's current snapshot, named `t` (another version of it is `t@<version>`
// in the query), and over other tables the user names in the tab (`orders=/data/orders`, each at the version it had
// when the tab opened it), run by the host's engine (electron/sql/). The result shows in the same grid as the Data
// tab; its header sort orders the rows shown here, in the window (a query sorts the whole result with ORDER BY).
// Recent queries and the other tables are remembered per table.
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import type { SqlRows, TableRef } from '../../../shared/api.js';
import type { ErrorValue } from '../../../shared/errors.js';
import { api } from '../api-client.js';
import { formatCount, formatDuration } from '../format.js';
import { useLatestRequest } from '../latest-request.js';
import { DataGrid } from '../grid/DataGrid.js';
import { recentQueries, rememberQuery } from '../sql-history.js';
import { namedTables, parseNamedTable, storeNamedTables, type NamedTable } from '../sql-tables.js';
import { Alert } from './Alert.js';
import type { RowsToExport } from './RowsExport.js';

// CodeMirror is half of the renderer's code: it comes in a chunk of its own, loaded once a table is open, so the
// window's first paint does not wait for it.
const SqlEditor = lazy(() => import('./SqlEditor.js').then((m) => ({ default: m.SqlEditor })));

/** The most rows a query brings into the window. */
export const SQL_ROWS_SHOWN = 10_000;

interface Props {
  path: string;
  version: number;
  /** The table's top-level fields, whose names the editor completes. */
  fields: { name: string }[];
  /** Sends the query (run again by the export, every row of it) to the Export tab's sink form. */
  onExportRows(rows: RowsToExport): void;
}

/** Why an export runs the query again: the window holds only the rows shown, and the export's job, in a process of
 * its own, writes every row. The snapshots are the same versions, so it writes the same rows (unless the query itself
 * varies, with random() or now()). */
export const EXPORT_RERUNS = `Export these rows runs the query again, over the same versions, and writes every row: this window keeps at most ${formatCount(SQL_ROWS_SHOWN)}.`;

/** What the status line says about a result: its rows, the time taken and what each snapshot contributed. */
export function sqlResultSummary(result: SqlRows): string {
  const rows = result.truncated
    ? `first ${formatCount(result.rows.length)} rows shown (the query returns more)`
    : `${formatCount(result.rows.length)} ${result.rows.length === 1 ? 'row' : 'rows'}`;
  const scanned = result.snapshots.map((s) => `${s.name} v${s.version}: ${formatCount(s.rows)}`).join(', ');
  return `${rows} in ${formatDuration(result.seconds)}; rows scanned ${scanned || 'none'}`;
}

/** Another table the query may name: its version and columns once opened, or why it could not be. */
interface OtherTable extends NamedTable {
  version?: number;
  columns: string[];
  error?: ErrorValue;
}

async function openOther(table: NamedTable): Promise<OtherTable> {
  const answer = await api.openTable({ path: table.path });
  return answer.ok
    ? { ...table, version: answer.value.version, columns: answer.value.schema.fields.map((f) => f.name) }
    : { ...table, columns: [], error: answer.error };
}

export function SqlPanel({ path, version, fields, onExportRows }: Props) {
  const [history, setHistory] = useState(() => recentQueries(path));
  const [text, setText] = useState(() => history[0] ?? 'SELECT * FROM t LIMIT 100');
  const [running, setRunning] = useState(false);
  // The result with the query that gave it: Export these rows exports that query, not the editor's current text.
  const [result, setResult] = useState<(SqlRows & { sql: string; tables: Record<string, TableRef> }) | null>(null);
  const [error, setError] = useState<string | ErrorValue | null>(null);
  const [gridKey, setGridKey] = useState(0);
  // A new run cancels the one before (its answer is dropped); Cancel cancels the running one.
  const latest = useLatestRequest();
  const exportNoteId = `sql-export${useId()}`;
  const [others, setOthers] = useState<OtherTable[]>([]);
  const [adding, setAdding] = useState('');
  const [addError, setAddError] = useState<string | ErrorValue | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all(namedTables(path).map(openOther)).then((opened) => {
      if (live) setOthers(opened);
    });
    return () => {
      live = false;
    };
  }, [path]);
  const queryTables = useMemo(() => {
    const refs: Record<string, TableRef> = { t: { path, versionAsOf: version } };
    for (const o of others) if (o.version !== undefined) refs[o.name] = { path: o.path, versionAsOf: o.version };
    return refs;
  }, [path, version, others]);
  const tables = useMemo(
    () => Object.fromEntries([['t', fields.map((f) => f.name)], ...others.map((o) => [o.name, o.columns])]) as Record<string, string[]>,
    [fields, others],
  );

  const keepOthers = (list: OtherTable[]) => {
    setOthers(list);
    storeNamedTables(
      path,
      list.map((o) => ({ name: o.name, path: o.path })),
    );
  };

  const add = async () => {
    const parsed = parseNamedTable(adding, ['t', ...others.map((o) => o.name)]);
    if (typeof parsed === 'string') {
      setAddError(parsed);
      return;
    }
    setAddError(null);
    const opened = await openOther(parsed);
    if (opened.error) {
      setAddError(opened.error);
      return;
    }
    keepOthers([...others, opened]);
    setAdding('');
  };

  const run = async () => {
    const sql = text.trim();
    if (sql === '') {
      setError('Type a query first.');
      return;
    }
    setRunning(true);
    setError(null);
    setHistory(rememberQuery(path, sql));
    const answer = await latest.send((queryId) =>
      api.sql({
        sql,
        tables: queryTables,
        limit: SQL_ROWS_SHOWN,
        queryId,
      }),
    );
    if (answer === null) return;
    setRunning(false);
    if (answer.ok) {
      setResult({ ...answer.value, sql, tables: queryTables });
      setGridKey((k) => k + 1);
    } else {
      setResult(null);
      setError(answer.error.code === 'CANCELLED' ? 'The query was cancelled.' : answer.error);
    }
  };

  return (
    <div className="sql-panel">
      <Suspense fallback={<p className="muted small">Loading the editor…</p>}>
        <SqlEditor label="SQL query" value={text} tables={tables} onChange={setText} onRun={() => void run()} />
      </Suspense>
      <div className="sql-actions">
        <button type="button" className="button primary" disabled={running} onClick={() => void run()} title="Ctrl+Enter">
          Run
        </button>
        <button type="button" className="button" disabled={!running} onClick={latest.cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button"
          disabled={!result || running}
          aria-describedby={exportNoteId}
          onClick={() =>
            result &&
            onExportRows({
              source: { rows: 'sql', tablePath: path, sql: result.sql, tables: result.tables },
              columns: result.columns.map((c) => c.name),
            })
          }
        >
          Export these rows
        </button>
        <label className="field compact sql-history">
          <span>Recent queries</span>
          <select
            aria-label="Recent queries"
            value=""
            disabled={history.length === 0}
            onChange={(e) => {
              if (e.target.value !== '') setText(e.target.value);
            }}
          >
            <option value="">{history.length === 0 ? 'none yet' : `${history.length} on this table`}</option>
            {history.map((q) => (
              <option key={q} value={q}>
                {q.replace(/\s+/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <span className="muted small">
          The table at v{version} is <code>t</code>; <code>t@3</code> is its version 3.
        </span>
        <span className="muted small" id={exportNoteId}>
          {EXPORT_RERUNS}
        </span>
      </div>
      <div className="sql-tables">
        <span className="muted small">Other tables:</span>
        {others.map((o) => (
          <span key={o.name} className="sql-table">
            <code>{o.name}</code>{' '}
            <span className="muted small">{o.error ? `cannot be opened: ${o.error.message}` : `v${o.version} ${o.path}`}</span>
            <button
              type="button"
              className="button small"
              aria-label={`Remove ${o.name}`}
              onClick={() => keepOthers(others.filter((x) => x !== o))}
            >
              ×
            </button>
          </span>
        ))}
        <input
          type="text"
          aria-label="Add a table"
          placeholder="orders=/data/orders"
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void add();
          }}
        />
        <button type="button" className="button" onClick={() => void add()}>
          Add
        </button>
      </div>
      <Alert message={addError} lead={addError && typeof addError !== 'string' ? 'Cannot add the table: ' : ''} />
      <Alert message={error} lead={error && typeof error !== 'string' ? 'Query failed: ' : ''} />
      <p className="muted small sql-status" role="status">
        {running
          ? 'Running…'
          : result
            ? `${sqlResultSummary(result)}. Clicking a header sorts the rows shown, in the window.`
            : 'Ctrl+Enter runs the query.'}
      </p>
      {result && !running && (
        <div className="grid-frame sql-grid">
          <DataGrid key={gridKey} label="Query result" columns={result.columns} rows={result.rows} />
        </div>
      )}
    </div>
  );
}
