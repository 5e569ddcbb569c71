// Storage connections: the client settings for tables under a cloud URL prefix (a bucket, or every bucket of a store),
// kept by the host. A secret is typed once and sent; it never comes back, so its field shows "saved" instead.
import { useEffect, useId, useRef, useState } from 'react';
import type { Result, StorageConnection, StorageConnections } from '../../../shared/api.js';
import type { StoreKind } from '../../../shared/store-location.js';
import { api } from '../api-client.js';
import { Alert } from './Alert.js';
import { SelectField } from './Field.js';
import { Notice } from './Notice.js';
import { OptionField, optionsOf, secretState } from './ConnectionOptionField.js';

const KINDS: { kind: StoreKind; label: string; placeholder: string }[] = [
  { kind: 's3', label: 'S3', placeholder: 's3://bucket, or s3:// for every bucket' },
  { kind: 'azure', label: 'Azure', placeholder: 'az://container or abfss://container@account.dfs.core.windows.net' },
  { kind: 'gcs', label: 'GCS', placeholder: 'gs://bucket, or gs:// for every bucket' },
];

const KIND_OPTIONS = KINDS.map((k) => ({ value: k.kind, label: k.label }));

interface Draft {
  /** The connection being edited, null for a new one. */
  existing: StorageConnection | null;
  name: string;
  kind: StoreKind;
  prefix: string;
  values: Record<string, string>;
  /** Saved secrets to drop. */
  forget: string[];
}

function kindOf(prefix: string): StoreKind {
  if (prefix.startsWith('gs://')) return 'gcs';
  return prefix.startsWith('s3://') ? 's3' : 'azure';
}

export function StorageConnectionsDialog({ onClose, onCatalogs }: { onClose(): void; onCatalogs(): void }) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [data, setData] = useState<StorageConnections | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const show = (result: Result<StorageConnections>) => {
    if (result.ok) setData(result.value);
    else setError(result.error.message);
  };
  useEffect(() => {
    dialog.current?.showModal();
    void api.listStorageConnections().then(show);
  }, []);

  const edit = (existing: StorageConnection | null) => {
    setError(null);
    setNote(null);
    setDraft(
      existing
        ? {
            existing,
            name: existing.name,
            kind: kindOf(existing.prefix),
            prefix: existing.prefix,
            values: { ...existing.options },
            forget: [],
          }
        : { existing: null, name: '', kind: 's3', prefix: '', values: {}, forget: [] },
    );
  };
  const change = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setValue = (name: string, value: string) => setDraft((d) => (d ? { ...d, values: { ...d.values, [name]: value } } : d));

  const save = async () => {
    if (!draft || !data) return;
    setError(null);
    setNote(null);
    if (!draft.name.trim()) return setError('Give the connection a name.');
    if (!draft.prefix.trim()) return setError('Say which bucket or container it is for.');
    const result = await api.saveStorageConnection({
      name: draft.name.trim(),
      prefix: draft.prefix.trim(),
      options: optionsOf(draft, data.options),
    });
    if (!result.ok) return setError(result.error.message);
    show(await api.listStorageConnections());
    setDraft(null);
    const saved = result.value;
    setNote(
      saved.secretsNotSaved && saved.secretsSet.length > 0
        ? `Saved “${saved.name}”; its secrets are kept until this host stops, not on disk (it cannot encrypt them).`
        : `Saved “${saved.name}”.`,
    );
  };

  const remove = async (name: string) => {
    setError(null);
    setNote(null);
    const result = await api.deleteStorageConnection({ name });
    if (!result.ok) return setError(result.error.message);
    show(await api.listStorageConnections());
    if (draft?.existing?.name === name) setDraft(null);
    setNote(`Deleted “${name}”.`);
  };

  return (
    <dialog ref={dialog} className="connections-dialog" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <div className="card-header">
        <h3 id={`${ids}-title`}>Storage connections</h3>
        <button type="button" className="button ghost small" onClick={onCatalogs}>
          Catalog connections
        </button>
        <button type="button" className="button ghost small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="muted small">
        Settings for reading tables in S3, Azure or Google Cloud Storage, beyond what the cloud's own environment variables and config files
        give. Each applies to the tables under its bucket (or every bucket of a store).
      </p>
      {data && !data.secretsSaved && (
        <p className="hint connections-hint" role="note">
          This host cannot encrypt secrets: they are kept in memory until it stops and never written to disk.
        </p>
      )}
      {data && (
        <table className="connections-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Applies to</th>
              <th>Secrets</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {data.connections.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted">
                  None saved yet.
                </td>
              </tr>
            ) : (
              data.connections.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  <td className="mono">{c.prefix}</td>
                  <td className="muted">{secretState(c)}</td>
                  <td className="connections-actions">
                    <button type="button" className="button small" onClick={() => edit(c)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button small danger"
                      onClick={() => void remove(c.name)}
                      aria-label={`Delete ${c.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      )}
      {draft && data ? (
        <form
          className="connections-form"
          aria-label={draft.existing ? `Edit ${draft.existing.name}` : 'New storage connection'}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="form-grid three">
            <div className="field">
              <label htmlFor={`${ids}-name`}>Connection name</label>
              <input
                id={`${ids}-name`}
                type="text"
                value={draft.name}
                readOnly={draft.existing !== null}
                onChange={(e) => change({ name: e.target.value })}
              />
            </div>
            <SelectField id={`${ids}-kind`} label="Store" value={draft.kind} options={KIND_OPTIONS} onChange={(kind) => change({ kind })} />
            <div className="field">
              <label htmlFor={`${ids}-prefix`}>Applies to</label>
              <input
                id={`${ids}-prefix`}
                type="text"
                className="mono"
                spellCheck={false}
                value={draft.prefix}
                placeholder={KINDS.find((k) => k.kind === draft.kind)?.placeholder}
                onChange={(e) => change({ prefix: e.target.value })}
              />
            </div>
          </div>
          <div className="form-grid">
            {data.options
              .filter((o) => o.kinds.includes(draft.kind))
              .map((o) => (
                <OptionField
                  key={o.name}
                  option={o}
                  value={draft.values[o.name] ?? ''}
                  saved={Boolean(draft.existing?.secretsSet.includes(o.name)) && !draft.forget.includes(o.name)}
                  onChange={(value) => setValue(o.name, value)}
                  onForget={() => change({ forget: [...draft.forget, o.name] })}
                />
              ))}
          </div>
          <div className="inline-fields">
            <button type="submit" className="button primary">
              Save connection
            </button>
            <button type="button" className="button ghost" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button" onClick={() => edit(null)} disabled={!data}>
          Add connection
        </button>
      )}
      <Notice text={note} />
      <Alert message={error} />
    </dialog>
  );
}
