// Where the snapshot goes and how it is written; a dry-run plan; the Export button that starts a job.
import { useEffect, useId, useState } from 'react';
import type { JobInfo, SinkProfile } from '../../../shared/api.js';
import type { ConnectionReport, ExportPlan, SinkKind, WriteMode } from '../../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { api } from '../api-client.js';
import { emptyForm, fromSinkSpec, isSqlKind, SINK_KINDS, toSinkSpec, WRITE_MODES } from '../sink-form.js';
import type { SinkForm } from '../sink-form.js';
import { Alert } from './Alert.js';
import { PlanView } from './PlanView.js';
import { PostgresFields } from './PostgresFields.js';
import { ProfilesCard } from './ProfilesCard.js';
import { SparkJobCard } from './SparkJobCard.js';

interface Props {
  source: DeltaSourceSpec | null;
  blocked: string | null;
  defaultTable: string;
  columns: string[];
  nativeDialogs: boolean;
  onStarted(job: JobInfo): void;
}

const FILE_HINT: Record<SinkKind, string> = {
  sqlite: '',
  postgres: '',
  parquet: '/path/to/out.parquet',
  csv: '/path/to/out.csv',
  jsonl: '/path/to/out.jsonl',
};

export function SinkPanel({ source, blocked, defaultTable, columns, nativeDialogs, onStarted }: Props) {
  const ids = useId();
  const [form, setForm] = useState<SinkForm>(() => emptyForm(defaultTable));
  // A loaded profile whose password the host keeps encrypted; requests name it so the host can fill it in.
  const [profileWithPassword, setProfileWithPassword] = useState<string | null>(null);
  const [plan, setPlan] = useState<ExportPlan | null>(null);
  const [planError, setPlanError] = useState<string | null>(null);
  const [connection, setConnection] = useState<ConnectionReport | null>(null);
  const [connectionError, setConnectionError] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const [busy, setBusy] = useState<'plan' | 'test' | 'export' | null>(null);

  useEffect(() => setForm((f) => ({ ...f, table: defaultTable })), [defaultTable]);

  const built = toSinkSpec(form);
  const profile = profileWithPassword && !form.password ? { profile: profileWithPassword } : {};
  const set = <K extends keyof SinkForm>(key: K, value: SinkForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setPlan(null);
  };

  const loadProfile = (p: SinkProfile) => {
    setForm(fromSinkSpec(p.sink, form));
    setProfileWithPassword(p.hasPassword ? p.name : null);
    setPlan(null);
  };

  const chooseSqlite = async () => {
    const result = await api.chooseSqliteFile();
    if (result.ok && result.value) set('sqlitePath', result.value);
    else if (!result.ok) setExportError(result.error.message);
  };

  const testConnection = async () => {
    setConnection(null);
    setConnectionError(null);
    if (!built.spec) return setConnectionError(built.problems.join(' '));
    setBusy('test');
    const result = await api.testConnection({ sink: built.spec, ...profile });
    setBusy(null);
    if (result.ok) setConnection(result.value);
    else setConnectionError(result.error.message);
  };

  const showPlan = async () => {
    setPlan(null);
    setPlanError(null);
    if (!source) return setPlanError(blocked ?? 'Open a table first.');
    if (!built.spec) return setPlanError(built.problems.join(' '));
    setBusy('plan');
    const result = await api.planExport({ source, sink: built.spec, ...profile });
    setBusy(null);
    if (result.ok) setPlan(result.value);
    else setPlanError(result.error.message);
  };

  const startExport = async () => {
    setExportError(null);
    setStarted(null);
    if (!source) return setExportError(blocked ?? 'Open a table first.');
    if (!built.spec) return setExportError(built.problems.join(' '));
    setBusy('export');
    const result = await api.startExport({ source, sink: built.spec, ...profile });
    setBusy(null);
    if (!result.ok) return setExportError(result.error.message);
    onStarted(result.value);
    setStarted(`Started: ${result.value.title}. Follow it in Jobs below.`);
  };

  const sql = isSqlKind(form.kind);
  return (
    <div className="sink">
      <div className="sink-columns">
        <div className="sink-main">
          <section className="card" aria-labelledby="destination-title">
            <h3 id="destination-title">Destination</h3>
            <div className="field">
              <label htmlFor={`${ids}-sink`}>Sink</label>
              <select
                id={`${ids}-sink`}
                value={form.kind}
                onChange={(e) => {
                  set('kind', e.target.value as SinkKind);
                  setConnection(null);
                  setConnectionError(null);
                }}
              >
                {SINK_KINDS.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </select>
            </div>
            {form.kind === 'sqlite' && (
              <div className="inline-fields">
                <label className="field grow">
                  <span>SQLite file</span>
                  <input
                    type="text"
                    spellCheck={false}
                    placeholder="/path/to/database.sqlite (created when missing)"
                    value={form.sqlitePath}
                    onChange={(e) => set('sqlitePath', e.target.value)}
                  />
                </label>
                {nativeDialogs && (
                  <button type="button" className="button" onClick={() => void chooseSqlite()} aria-label="Choose a database file">
                    Browse…
                  </button>
                )}
              </div>
            )}
            {form.kind === 'postgres' && (
              <>
                <PostgresFields form={form} set={set} savedPassword={profileWithPassword !== null} />
                <div className="inline-fields">
                  <button type="button" className="button" onClick={() => void testConnection()} disabled={busy === 'test'}>
                    {busy === 'test' ? 'Connecting…' : 'Test connection'}
                  </button>
                  {connection && (
                    <span className="ok-text" role="status">
                      Connected: {connection.serverVersion}; table “{form.table}”{' '}
                      {connection.targetExists ? 'exists' : 'will be created'}.
                    </span>
                  )}
                </div>
                <Alert message={connectionError} />
              </>
            )}
            {!sql && (
              <label className="field">
                <span>Output file</span>
                <input
                  type="text"
                  spellCheck={false}
                  placeholder={FILE_HINT[form.kind]}
                  value={form.filePath}
                  onChange={(e) => set('filePath', e.target.value)}
                />
              </label>
            )}
          </section>

          {sql && (
            <section className="card" aria-labelledby="target-title">
              <h3 id="target-title">Target</h3>
              <div className="form-grid">
                <label className="field">
                  <span>Target table</span>
                  <input type="text" spellCheck={false} value={form.table} onChange={(e) => set('table', e.target.value)} />
                </label>
                <div className="field">
                  <label htmlFor={`${ids}-mode`}>Write mode</label>
                  <select id={`${ids}-mode`} value={form.mode} onChange={(e) => set('mode', e.target.value as WriteMode)}>
                    {WRITE_MODES.map((m) => (
                      <option key={m.mode} value={m.mode}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                </div>
                <label className="field span-2">
                  <span>Key columns</span>
                  <input
                    type="text"
                    spellCheck={false}
                    placeholder={form.mode === 'upsert' ? 'e.g. id (comma-separated)' : 'used by Upsert'}
                    disabled={form.mode !== 'upsert'}
                    value={form.keyColumns}
                    onChange={(e) => set('keyColumns', e.target.value)}
                  />
                </label>
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
                <label className="field">
                  <span>Batch size</span>
                  <input type="number" min={1} value={form.batchSize} onChange={(e) => set('batchSize', e.target.value)} />
                </label>
                <label className="field">
                  <span>Batch interval (ms)</span>
                  <input
                    type="number"
                    min={0}
                    value={form.batchIntervalMs}
                    onChange={(e) => set('batchIntervalMs', e.target.value)}
                  />
                </label>
                <label className="field">
                  <span>Max retries</span>
                  <input type="number" min={0} value={form.maxRetries} onChange={(e) => set('maxRetries', e.target.value)} />
                </label>
              </div>
              <label className="check">
                <input type="checkbox" checked={form.exactlyOnce} onChange={(e) => set('exactlyOnce', e.target.checked)} />
                <span>Exactly once</span>
              </label>
              <p className="muted small">
                Records which batches landed in the target, so a re-run after a failure writes each row once.
              </p>
            </section>
          )}
        </div>

        <div className="sink-side">
          <ProfilesCard current={built} onLoad={loadProfile} />
          <section className="card" aria-labelledby="plan-title">
            <header className="card-header">
              <h3 id="plan-title">Plan</h3>
              <button type="button" className="button small" onClick={() => void showPlan()} disabled={busy === 'plan'}>
                {busy === 'plan' ? 'Planning…' : 'Show plan'}
              </button>
            </header>
            {plan ? <PlanView plan={plan} /> : <p className="muted small">A dry run: what will be created and run, before anything is written.</p>}
            <Alert message={planError} />
          </section>
          <SparkJobCard source={source} blocked={blocked} sink={built} />
        </div>
      </div>

      <div className="export-bar">
        <button type="button" className="button primary large" onClick={() => void startExport()} disabled={busy === 'export'}>
          Export
        </button>
        {blocked ? <span className="muted small">{blocked}</span> : null}
        {started && (
          <span className="ok-text" role="status">
            {started}
          </span>
        )}
        <Alert message={exportError} />
      </div>
    </div>
  );
}
