// Catalog connections: a Unity Catalog server or Databricks workspace (endpoint and token) or an AWS Glue catalog
// (region and profile; keys from the AWS credential chain), kept by the host. Their tables open by name:
// uc://<connection>/catalog.schema.table and glue://<connection>/database/table. The token is typed once and sent; it
// never comes back, so its field shows "saved" instead.
import { useEffect, useId, useRef, useState } from 'react';
import type { CatalogConnection, CatalogConnections, Result } from '../../../shared/api.js';
import type { CatalogKind } from '../../../shared/catalog-name.js';
import { api } from '../api-client.js';
import { Alert } from './Alert.js';
import { OptionField, optionsOf, secretState } from './ConnectionOptionField.js';
import { SelectField } from './Field.js';
import { Notice } from './Notice.js';

const KINDS: { value: CatalogKind; label: string }[] = [
  { value: 'unity', label: 'Unity Catalog' },
  { value: 'glue', label: 'AWS Glue' },
];

interface Draft {
  /** The connection being edited, null for a new one. */
  existing: CatalogConnection | null;
  name: string;
  kind: CatalogKind;
  values: Record<string, string>;
  /** Saved secrets to drop. */
  forget: string[];
}

/** How a table of the connection is named, for the user to type or paste. */
function tableForm(c: { name: string; kind: CatalogKind }): string {
  return c.kind === 'unity' ? `uc://${c.name}/catalog.schema.table` : `glue://${c.name}/database/table`;
}

export function CatalogConnectionsDialog({ onClose, onStorage }: { onClose(): void; onStorage(): void }) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [data, setData] = useState<CatalogConnections | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const show = (result: Result<CatalogConnections>) => {
    if (result.ok) setData(result.value);
    else setError(result.error.message);
  };
  useEffect(() => {
    dialog.current?.showModal();
    void api.listCatalogConnections().then(show);
  }, []);

  const edit = (existing: CatalogConnection | null) => {
    setError(null);
    setNote(null);
    setDraft(
      existing
        ? { existing, name: existing.name, kind: existing.kind, values: { ...existing.options }, forget: [] }
        : { existing: null, name: '', kind: 'unity', values: {}, forget: [] },
    );
  };
  const change = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setValue = (name: string, value: string) => setDraft((d) => (d ? { ...d, values: { ...d.values, [name]: value } } : d));

  const save = async () => {
    if (!draft || !data) return;
    setError(null);
    setNote(null);
    if (!draft.name.trim()) return setError('Give the connection a name.');
    const result = await api.saveCatalogConnection({ name: draft.name.trim(), kind: draft.kind, options: optionsOf(draft, data.options) });
    if (!result.ok) return setError(result.error.message);
    show(await api.listCatalogConnections());
    setDraft(null);
    const saved = result.value;
    const kept =
      saved.secretsNotSaved && saved.secretsSet.length > 0
        ? '; its token is kept until this host stops, not on disk (it cannot encrypt it)'
        : '';
    setNote(`Saved “${saved.name}”${kept}. Open its tables as ${tableForm(saved)}.`);
  };

  const remove = async (name: string) => {
    setError(null);
    setNote(null);
    const result = await api.deleteCatalogConnection({ name });
    if (!result.ok) return setError(result.error.message);
    show(await api.listCatalogConnections());
    if (draft?.existing?.name === name) setDraft(null);
    setNote(`Deleted “${name}”.`);
  };

  return (
    <dialog ref={dialog} className="connections-dialog" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <div className="card-header">
        <h3 id={`${ids}-title`}>Catalog connections</h3>
        <button type="button" className="button ghost small" onClick={onStorage}>
          Storage connections
        </button>
        <button type="button" className="button ghost small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="muted small">
        Tables named in Unity Catalog (the open-source server or a Databricks workspace) or AWS Glue open by their name:{' '}
        <code>uc://connection/catalog.schema.table</code> or <code>glue://connection/database/table</code>. Unity Catalog lends the
        credentials to read each table; Glue tables are read with the AWS credentials of this computer.
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
              <th>Catalog</th>
              <th>Tables</th>
              <th>Secrets</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {data.connections.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  None saved yet.
                </td>
              </tr>
            ) : (
              data.connections.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  <td>{KINDS.find((k) => k.value === c.kind)?.label}</td>
                  <td className="mono">{tableForm(c)}</td>
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
          aria-label={draft.existing ? `Edit ${draft.existing.name}` : 'New catalog connection'}
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <div className="form-grid">
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
            <SelectField id={`${ids}-kind`} label="Catalog" value={draft.kind} options={KINDS} onChange={(kind) => change({ kind })} />
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
