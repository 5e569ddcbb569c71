// What changed between two versions, as the engine's diff computes it (rows from the change data feed where the table
// records one over the range, else from the two file sets): schema, property and protocol changes, the data files
// added and removed, and the changed rows in the grid with their `_change` column.
// Key columns pair a removed and an added row into one update. The rows can be exported from here.
import { useState } from 'react';
import type { DiffResult, Result } from '../../../shared/api.js';
import { rowsFromText, type VersionChange } from '../../../shared/table-info.js';
import { api } from '../api-client.js';
import { changeCounts, newDeletionsNote, pairByKeys } from '../diff-rows.js';
import { formatCount } from '../format.js';
import { DataGrid } from '../grid/DataGrid.js';
import { SLOW_READ_MS, useReadProgress } from '../read-progress.js';
import { useLimitedRead } from '../use-limited-read.js';
import { ReadProblem } from './ReadProblem.js';
import { ReadProgressLine } from './ReadProgressLine.js';
import { RowLimitField } from './RowLimitField.js';
import { ChangeViewHeader, type ChangeViewProps } from './RowsExport.js';
import { Stat } from './Stat.js';

interface Props extends ChangeViewProps {
  /** The table's column names, for checking the pair-by keys as they are typed. */
  columns: string[];
}

/** A diff's answer with the keys its rows were paired by, which the counts and the export follow. */
interface PairedDiff {
  result: DiffResult;
  pairBy: string[];
}

async function pairedDiff(
  path: string,
  from: number,
  to: number,
  pairBy: string[],
  limit: number,
  readId: string,
): Promise<Result<PairedDiff>> {
  const answer = await api.diff({ path, from, to, limit, readId, ...(pairBy.length ? { pairBy } : {}) });
  return answer.ok ? { ok: true, value: { result: answer.value, pairBy } } : answer;
}

function ChangeTable({ title, changes }: { title: string; changes: VersionChange[] }) {
  return (
    <div className="diff-changes-part">
      <div className="plan-label">{title}</div>
      {changes.length === 0 ? (
        <span className="muted small">no changes</span>
      ) : (
        <table className="kv-table" aria-label={`${title} changes`}>
          <tbody>
            {changes.map((c) => (
              <tr key={c.name}>
                <th scope="row">{c.name}</th>
                <td>{c.from === null ? <span className="pill">added</span> : c.from}</td>
                <td aria-hidden="true">→</td>
                <td>{c.to === null ? <span className="pill warn">removed</span> : c.to}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function FileList({ title, files }: { title: string; files: string[] }) {
  if (files.length === 0) return null;
  return (
    <details className="diff-files">
      <summary>
        {title} ({formatCount(files.length)})
      </summary>
      <ul className="mono small">
        {files.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
    </details>
  );
}

function DiffBody({
  result,
  pairBy,
  from,
  to,
  gridKey,
}: {
  result: DiffResult;
  pairBy: string[];
  from: number;
  to: number;
  gridKey: number;
}) {
  const counts = changeCounts(result);
  const more = result.truncated ? 'in the rows shown; there are more' : undefined;
  return (
    <>
      <div className="stats diff-stats" aria-label="Diff summary">
        <Stat label="Rows added" value={formatCount(counts.added)} note={more} />
        <Stat label="Rows removed" value={formatCount(counts.removed)} note={more} />
        {pairBy.length > 0 && <Stat label="Rows updated" value={formatCount(counts.updated)} note={`paired by ${pairBy.join(', ')}`} />}
        <Stat label="Files added" value={formatCount(result.filesAdded.length)} />
        <Stat
          label="Files removed"
          value={formatCount(result.filesRemoved.length)}
          note={newDeletionsNote(result.filesWithNewDeletions.length)}
        />
      </div>
      <div className="diff-changes">
        <ChangeTable title="Schema" changes={result.schema} />
        <ChangeTable title="Properties" changes={result.properties} />
        <ChangeTable title="Protocol" changes={result.protocol} />
      </div>
      <FileList title="Files added" files={result.filesAdded} />
      <FileList title="Files removed" files={result.filesRemoved} />
      <FileList title="Files with rows newly deleted" files={result.filesWithNewDeletions} />
      <p className="muted small diff-rows-from">{rowsFromText(result.rowsFrom)}</p>
      {result.rows.length === 0 ? (
        <p className="muted diff-none">
          No rows changed between v{from} and v{to}.
        </p>
      ) : (
        <div className="grid-frame diff-grid">
          <DataGrid key={gridKey} label={`Changed rows from v${from} to v${to}`} columns={result.columns} rows={result.rows} />
        </div>
      )}
    </>
  );
}

export function DiffView({ path, from, to, columns, onClose, onExport }: Props) {
  const [pairText, setPairText] = useState('');
  const pairing = pairByKeys(pairText, columns);
  // The view is keyed by its range: showing it is asking for that diff (no key columns are typed yet).
  const read = useLimitedRead(pairing.problem === null ? (limit, readId) => pairedDiff(path, from, to, pairing.keys, limit, readId) : null);
  const slow = useReadProgress(read.readId, read.busy, SLOW_READ_MS);

  return (
    <section className="card diff-view" aria-labelledby="diff-title">
      <ChangeViewHeader
        titleId="diff-title"
        title={`Changes from v${from} to v${to}`}
        rows={
          read.value && {
            source: { rows: 'diff', tablePath: path, from, to, ...(read.value.pairBy.length ? { pairBy: read.value.pairBy } : {}) },
            columns: read.value.result.columns.map((c) => c.name),
          }
        }
        onExport={onExport}
        onClose={onClose}
      />
      <form className="toolbar-row" onSubmit={read.run}>
        <label className="field compact grow">
          <span>Pair rows by</span>
          <input
            type="text"
            spellCheck={false}
            placeholder="key columns, e.g. id"
            value={pairText}
            aria-invalid={pairing.problem !== null}
            aria-describedby={pairing.problem !== null ? 'pair-by-problem' : undefined}
            onChange={(e) => setPairText(e.target.value)}
          />
        </label>
        <RowLimitField text={read.limitText} onChange={read.setLimitText} />
        <button type="submit" className="button primary" disabled={read.busy || pairing.problem !== null || read.limitProblem !== null}>
          {read.busy ? 'Reading…' : 'Compare'}
        </button>
      </form>
      {slow.shown && <ReadProgressLine what="Diff" progress={slow.progress} onCancel={read.cancel} />}
      <ReadProblem message={pairing.problem ?? read.error} id={pairing.problem !== null ? 'pair-by-problem' : undefined} />
      {read.value ? (
        <DiffBody {...read.value} from={from} to={to} gridKey={read.reads} />
      ) : (
        <p className="muted">{read.busy ? 'Reading the files that differ…' : ''}</p>
      )}
    </section>
  );
}
