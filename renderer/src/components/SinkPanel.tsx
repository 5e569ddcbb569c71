// Where the snapshot goes and how it is written; a dry-run plan; the Export button that starts a job, after asking
// what to do when the target already exists.
import { useId, useReducer, useState } from 'react';
import type { JobInfo } from '../../../shared/api.js';
import { isSqlKind, isSqlSink, keyColumnProblems, replacingSpec } from '../../../shared/sink-spec.js';
import type { SinkKind, SinkSpec } from '../../../shared/sink-spec.js';
import { isChangeSource, ledgerAlwaysKept, type ExportSource } from '../../../shared/change-source.js';
import { api } from '../api-client.js';
import { copyText } from '../clipboard.js';
import { formatCount } from '../format.js';
import { offerNotifications } from '../jobs.js';
import { keyColumnList, SINK_KINDS, toSinkSpec, WRITE_MODES } from '../sink-form.js';
import type { SinkForm } from '../sink-form.js';
import { formFor, initialSinkPanel, sinkPanelReducer } from '../sink-panel-state.js';
import { Alert, formProblems } from './Alert.js';
import { CsvFields } from './CsvFields.js';
import { DatabaseFileField } from './DatabaseFileField.js';
import { SelectField, TextField } from './Field.js';
import { PlanView } from './PlanView.js';
import { PostgresFields } from './PostgresFields.js';
import { ProfilesCard } from './ProfilesCard.js';
import { SparkJobCard } from './SparkJobCard.js';

interface Props {
  /** A snapshot, or a diff's or a change feed's rows (which Spark does not take). */
  source: ExportSource | null;
  blocked: string | null;
  defaultTable: string;
  columns: string[];
  nativeDialogs: boolean;
  /** The jobs the window knows, to show how the one started here is doing. */
  jobs: JobInfo[];
  onStarted(job: JobInfo): void;
}

const FILE_HINT: Record<SinkKind, string> = {
  sqlite: '',
  postgres: '',
  mysql: '',
  duckdb: '',
  parquet: '/path/to/out.parquet',
  csv: '/path/to/out.csv',
  jsonl: '/path/to/out.jsonl',
};

const SINK_OPTIONS = SINK_KINDS.map((k) => ({ value: k.kind, label: k.label }));
const MODE_OPTIONS = WRITE_MODES.map((m) => ({ value: m.mode, label: m.label }));

/** An export that would add to (SQL append) or replace (a file) what is already there asks first. */
function asksAboutExistingTarget(spec: SinkSpec): boolean {
  return isSqlSink(spec) ? spec.mode === 'append' : !spec.overwrite;
}

/** A file export's folder: shown in the file manager where there is one (the desktop app), else its path is said
 * (and copied) for a browser's user to open. */
function OpenFolder({ jobId }: { jobId: string }) {
  const [note, setNote] = useState<string | null>(null);
  const open = async () => {
    const result = await api.revealTarget({ id: jobId });
    if (!result.ok) return setNote(result.error.message);
    if (result.value.shown) return setNote(`Shown in the file manager: ${result.value.location}`);
    const copied = await copyText(result.value.location).then(
      () => true,
      () => false,
    );
    setNote(`${copied ? 'Path copied' : 'Path'}: ${result.value.location}`);
  };
  return (
    <>
      <button type="button" className="button small" onClick={() => void open()}>
        Open folder
      </button>
      {note && <span className="muted small">{note}</span>}
    </>
  );
}

/** The started job as it is now, in one line; a job that failed at once says so, never "Started". */
function StartedJob({ job }: { job: JobInfo | undefined }) {
  if (!job) return null;
  switch (job.state) {
    case 'queued':
    case 'running':
      return (
        <span className="ok-text" role="status">
          {job.state === 'queued' ? 'Queued' : `Running (${Math.round(job.progress.percent)}%)`}: {job.title}. Follow it in Jobs below.
        </span>
      );
    case 'succeeded':
      return (
        <>
          <span className="ok-text" role="status">
            Done: {formatCount(job.result?.rows ?? job.progress.rows)} rows exported to {job.title.split(' -> ').pop()}.
          </span>
          {'path' in job.request.sink && <OpenFolder jobId={job.id} />}
        </>
      );
    case 'cancelled':
      return (
        <span className="muted small" role="status">
          Cancelled: {job.title}.
        </span>
      );
    case 'failed':
      return <Alert lead="Export failed: " message={job.error ?? 'unknown error'} />;
  }
}

export function SinkPanel({ source, blocked, defaultTable, columns, nativeDialogs, jobs, onStarted }: Props) {
  const ids = useId();
  const [state, dispatch] = useReducer(sinkPanelReducer, undefined, initialSinkPanel);
  const typed = formFor(state, defaultTable);
  // A diff's or a change feed's rows have no position to resume from: exactly once is off for them, and says why. A
  // snapshot written by the sink's own statements always keeps the record (Retry resumes from it): on, and says so.
  const changeRows = source !== null && isChangeSource(source);
  const alwaysLedger = source !== null && ledgerAlwaysKept(source, typed.kind, typed.mode);
  const form = changeRows || alwaysLedger ? { ...typed, exactlyOnce: alwaysLedger } : typed;
  const { plan, busy, connection } = state;
  const built = toSinkSpec(form);
  // The keys are checked against the exported columns as they are typed, by the rule the host applies.
  const keyProblem = form.mode === 'upsert' ? (keyColumnProblems(keyColumnList(form.keyColumns), columns)[0] ?? null) : null;
  const profile = state.profileWithPassword && !form.password ? { profile: state.profileWithPassword } : {};
  const set = <K extends keyof SinkForm>(key: K, value: SinkForm[K]) => dispatch({ type: 'edit', changes: { [key]: value }, defaultTable });
  // Problems of the form as it is now: shown once something was tried, gone as soon as they are fixed.
  const formProblem = state.tried && built.problems.length > 0 ? formProblems(built.problems) : null;
  const startedJob = jobs.find((j) => j.id === state.startedJobId);

  const chooseFile = async (field: 'sqlitePath' | 'duckdbPath') => {
    const result = field === 'sqlitePath' ? await api.chooseSqliteFile() : await api.chooseDuckdbFile();
    if (result.ok && result.value) set(field, result.value);
    else if (!result.ok) dispatch({ type: 'exportFailed', error: result.error });
  };

  const testConnection = async () => {
    dispatch({ type: 'tried' });
    if (!built.spec) return;
    dispatch({ type: 'busy', busy: 'test' });
    const result = await api.testConnection({ sink: built.spec, ...profile });
    dispatch(result.ok ? { type: 'connected', report: result.value } : { type: 'connectionFailed', error: result.error });
  };

  const showPlan = async () => {
    dispatch({ type: 'tried' });
    if (!source || !built.spec) return;
    dispatch({ type: 'busy', busy: 'plan' });
    const result = await api.planExport({ source, sink: built.spec, ...profile });
    dispatch(result.ok ? { type: 'planned', plan: result.value } : { type: 'planFailed', error: result.error });
  };

  const run = async (spec: SinkSpec) => {
    if (!source) return;
    dispatch({ type: 'busy', busy: 'export' });
    offerNotifications();
    const result = await api.startExport({ source, sink: spec, ...profile });
    if (!result.ok) return dispatch({ type: 'exportFailed', error: result.error });
    onStarted(result.value);
    dispatch({ type: 'started', jobId: result.value.id });
  };

  const startExport = async () => {
    dispatch({ type: 'tried' });
    if (!source || !built.spec) return;
    const spec = built.spec;
    if (asksAboutExistingTarget(spec)) {
      dispatch({ type: 'busy', busy: 'export' });
      const planned = await api.planExport({ source, sink: spec, ...profile });
      if (!planned.ok) return dispatch({ type: 'exportFailed', error: planned.error });
      dispatch({ type: 'planned', plan: planned.value });
      if (planned.value.targetExists) {
        return dispatch({ type: 'targetExists', target: planned.value.target, canAppend: isSqlSink(spec) });
      }
    }
    await run(spec);
  };

  const sql = isSqlKind(form.kind);
  return (
    <div className="sink">
      <div className="sink-columns">
        <div className="sink-main">
          <section className="card" aria-labelledby="destination-title">
            <h3 id="destination-title">Destination</h3>
            <SelectField id={`${ids}-sink`} label="Sink" value={form.kind} options={SINK_OPTIONS} onChange={(kind) => set('kind', kind)} />
            {form.kind === 'sqlite' && (
              <DatabaseFileField
                label="SQLite file"
                placeholder="/path/to/database.sqlite (created when missing)"
                value={form.sqlitePath}
                onChange={(value) => set('sqlitePath', value)}
                onBrowse={nativeDialogs ? () => void chooseFile('sqlitePath') : null}
                browseLabel="Choose a database file"
              />
            )}
            {form.kind === 'duckdb' && (
              <DatabaseFileField
                label="DuckDB file"
                placeholder="/path/to/database.duckdb (created when missing)"
                value={form.duckdbPath}
                onChange={(value) => set('duckdbPath', value)}
                onBrowse={nativeDialogs ? () => void chooseFile('duckdbPath') : null}
                browseLabel="Choose a DuckDB file"
              />
            )}
            {(form.kind === 'postgres' || form.kind === 'mysql') && (
              <PostgresFields form={form} set={set} savedPassword={state.profileWithPassword !== null} kind={form.kind} />
            )}
            {(form.kind === 'postgres' || form.kind === 'mysql' || form.kind === 'duckdb') && (
              <>
                <div className="inline-fields">
                  <button type="button" className="button" onClick={() => void testConnection()} disabled={busy === 'test'}>
                    {busy === 'test' ? 'Connecting…' : 'Test connection'}
                  </button>
                  {connection && (
                    <span className="ok-text" role="status">
                      Connected: {connection.serverVersion}; table “{form.table}” {connection.targetExists ? 'exists' : 'will be created'}.
                    </span>
                  )}
                </div>
                <Alert message={state.connectionError} />
              </>
            )}
            {!sql && (
              <TextField
                label="Output file"
                placeholder={FILE_HINT[form.kind]}
                value={form.filePath}
                onChange={(value) => set('filePath', value)}
              />
            )}
            {form.kind === 'csv' && <CsvFields form={form} set={set} />}
          </section>

          {sql && (
            <section className="card" aria-labelledby="target-title">
              <h3 id="target-title">Target</h3>
              <div className="form-grid three">
                <TextField label="Target table" value={form.table} onChange={(value) => set('table', value)} />
                <SelectField
                  id={`${ids}-mode`}
                  label="Write mode"
                  value={form.mode}
                  options={MODE_OPTIONS}
                  onChange={(mode) => set('mode', mode)}
                />
                <div>
                  <TextField
                    label="Key columns"
                    placeholder={form.mode === 'upsert' ? 'e.g. id (comma-separated)' : 'used by Upsert'}
                    disabled={form.mode !== 'upsert'}
                    value={form.keyColumns}
                    aria-invalid={keyProblem !== null}
                    aria-describedby={keyProblem !== null ? `${ids}-keys` : undefined}
                    onChange={(value) => set('keyColumns', value)}
                  />
                  {keyProblem !== null && (
                    <span id={`${ids}-keys`} role="status" className="filter-problem">
                      {keyProblem}
                    </span>
                  )}
                </div>
              </div>
              {form.mode === 'sql' && (
                <>
                  <div className="field">
                    <label htmlFor={`${ids}-sql`}>Custom SQL</label>
                    <textarea
                      id={`${ids}-sql`}
                      rows={4}
                      spellCheck={false}
                      placeholder={`INSERT INTO ${form.table || 'target'} (…) VALUES (:${columns[0] ?? 'column'}, …)`}
                      value={form.sql}
                      onChange={(e) => set('sql', e.target.value)}
                    />
                  </div>
                  <p className="muted small">
                    Parameters:{' '}
                    {columns.map((c) => (
                      <code key={c} className="param">
                        :{c}
                      </code>
                    ))}
                  </p>
                </>
              )}
            </section>
          )}

          {sql && (
            <section className="card" aria-labelledby="execution-title">
              <h3 id="execution-title">Execution</h3>
              <div className="form-grid three">
                <TextField label="Batch size" type="number" min={1} value={form.batchSize} onChange={(value) => set('batchSize', value)} />
                <TextField
                  label="Batch interval (ms)"
                  type="number"
                  min={0}
                  value={form.batchIntervalMs}
                  onChange={(value) => set('batchIntervalMs', value)}
                />
                <TextField
                  label="Max retries"
                  type="number"
                  min={0}
                  value={form.maxRetries}
                  onChange={(value) => set('maxRetries', value)}
                />
                {form.kind === 'postgres' && (
                  <TextField
                    label="Connections"
                    type="number"
                    min={1}
                    value={form.connections}
                    onChange={(value) => set('connections', value)}
                  />
                )}
              </div>
              <div className="check-row">
                <label className="check">
                  <input
                    type="checkbox"
                    checked={form.exactlyOnce}
                    disabled={changeRows || alwaysLedger}
                    aria-describedby={`${ids}-exactly-once`}
                    onChange={(e) => set('exactlyOnce', e.target.checked)}
                  />
                  <span>Exactly once</span>
                </label>
                <span id={`${ids}-exactly-once`} className="muted small">
                  {changeRows
                    ? 'Not for changed rows: a diff or a change feed has no position a rerun could resume from.'
                    : alwaysLedger
                      ? 'Always on for a snapshot: the target records which batches landed, so Retry resumes after them and writes each row once.'
                      : 'Records which batches landed, so a rerun after a failure writes each row once.'}
                </span>
              </div>
            </section>
          )}
        </div>

        <div className="sink-side">
          <ProfilesCard current={built} onLoad={(p) => dispatch({ type: 'loadProfile', profile: p, table: form.table })} />
          <section className="card" aria-labelledby="plan-title">
            <header className="card-header">
              <h3 id="plan-title">Plan</h3>
              <button type="button" className="button small" onClick={() => void showPlan()} disabled={busy === 'plan'}>
                {busy === 'plan' ? 'Planning…' : 'Show plan'}
              </button>
            </header>
            {plan ? (
              <PlanView plan={plan} asks={built.spec !== null && asksAboutExistingTarget(built.spec)} />
            ) : (
              <p className="muted small">A dry run: what will be created and run, before anything is written.</p>
            )}
            <Alert message={state.planError} />
          </section>
          {!changeRows && <SparkJobCard source={source} blocked={blocked} sink={built} />}
        </div>
      </div>

      {state.existingTarget && built.spec && (
        <div className="target-choice" role="alertdialog" aria-labelledby={`${ids}-exists`}>
          <p id={`${ids}-exists`}>
            <strong>{state.existingTarget.target}</strong> already exists.{' '}
            {state.existingTarget.canAppend
              ? 'Append these rows to it (rows exported before are written again), replace its contents, or stop?'
              : 'Replace the file with this export, or stop?'}
          </p>
          <div className="inline-fields">
            {state.existingTarget.canAppend && (
              <button type="button" className="button" onClick={() => void run(built.spec!)}>
                Append
              </button>
            )}
            <button type="button" className="button danger" onClick={() => void run(replacingSpec(built.spec!))}>
              Replace
            </button>
            <button type="button" className="button ghost" onClick={() => dispatch({ type: 'stopped' })}>
              Stop
            </button>
          </div>
        </div>
      )}
      <div className="export-bar">
        <button type="button" className="button primary large" onClick={() => void startExport()} disabled={busy === 'export'}>
          {busy === 'export' ? 'Checking…' : 'Export'}
        </button>
        {blocked ? <span className="muted small">{blocked}</span> : null}
        <StartedJob job={startedJob} />
        <Alert message={state.exportError ?? formProblem} />
      </div>
    </div>
  );
}
