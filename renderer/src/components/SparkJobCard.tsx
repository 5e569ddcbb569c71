// "Export as Spark job": the export set up in this tab, handed to Spark with Delta Lake as a PySpark script to show,
// copy or save (for snapshots too big for one machine). Nothing is exported.
import { useState } from 'react';
import type { SparkJobResult } from '../../../shared/api.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import type { DeltaSourceSpec } from '../../../shared/source-spec.js';
import { api } from '../api-client.js';
import { copyText } from '../clipboard.js';
import type { ErrorValue } from '../../../shared/errors.js';
import { Alert, formProblems } from './Alert.js';
import { TextField } from './Field.js';

interface Props {
  source: DeltaSourceSpec | null;
  blocked: string | null;
  sink: { spec: SinkSpec | null; problems: string[] };
}

export function SparkJobCard({ source, blocked, sink }: Props) {
  const [job, setJob] = useState<SparkJobResult | null>(null);
  const [savePath, setSavePath] = useState('');
  const [error, setError] = useState<string | ErrorValue | null>(null);
  const [busy, setBusy] = useState(false);

  const request = async (save: boolean) => {
    setError(null);
    if (!source) return setError(blocked ?? 'Open a table first.');
    if (!sink.spec) return setError(formProblems(sink.problems));
    setBusy(true);
    const result = await api.exportSparkJob({ source, sink: sink.spec, ...(save ? { savePath: savePath.trim() } : {}) });
    setBusy(false);
    if (result.ok) setJob(result.value);
    else setError(result.error);
  };

  return (
    <section className="card" aria-labelledby="spark-title">
      <header className="card-header">
        <h3 id="spark-title">Spark job</h3>
        <button type="button" className="button small" onClick={() => void request(false)} disabled={busy}>
          Export as Spark job
        </button>
      </header>
      <p className="muted small">
        The same export as a PySpark script, for Spark with Delta Lake when a snapshot is too big for one machine.
      </p>
      {job && (
        <>
          <div className="inline-fields">
            <TextField className="field grow" label="Save as" placeholder="/path/to/job.py" value={savePath} onChange={setSavePath} />
            <button type="button" className="button" onClick={() => void request(true)} disabled={busy || savePath.trim() === ''}>
              Save
            </button>
            <button type="button" className="button" onClick={() => void copyText(job.script)}>
              Copy
            </button>
          </div>
          {job.savedTo && (
            <p className="ok-text small" role="status">
              Saved to {job.savedTo}
            </p>
          )}
          <pre className="code" aria-label="Spark job script">
            {job.script}
          </pre>
        </>
      )}
      <Alert message={error} />
    </section>
  );
}
