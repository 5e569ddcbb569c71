// What the storage and the catalog connections dialogs share: the saved connections in a table (edit, delete), the
// form of one (its name, its kind, the kind's options with secrets typed once and never shown again), and the lines
// saying what was saved or went wrong. Each dialog gives its own columns, fields and words.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { Result } from '../../../shared/api.js';
import { Alert } from './Alert.js';
import { OptionField, optionsOf, secretState } from './ConnectionOptionField.js';
import { SelectField, type SelectOption } from './Field.js';
import { Notice } from './Notice.js';

/** A saved connection as the host lists it: never a secret's value. */
export interface SavedConnection {
  name: string;
  options: Record<string, string>;
  secretsSet: string[];
  secretsNotSaved: boolean;
}

/** The form's state: the fields every connection has; a dialog may add its own. */
export interface ConnectionDraft<C, K extends string> {
  /** The connection being edited, null for a new one. */
  existing: C | null;
  name: string;
  kind: K;
  values: Record<string, string>;
  /** Saved secrets to drop. */
  forget: string[];
}

interface ConnectionList<C, K extends string> {
  connections: C[];
  options: { name: string; kinds: K[]; secret: boolean; about: string }[];
  secretsSaved: boolean;
}

/** A column of the saved connections' table. */
export interface Column<C> {
  header: string;
  className?: string;
  cell(connection: C): ReactNode;
}

interface Props<C extends SavedConnection, K extends string, D extends ConnectionDraft<C, K>> {
  title: string;
  /** The button to the other connections dialog. */
  other: { label: string; open(): void };
  intro: ReactNode;
  /** The form's name for a new connection. */
  newLabel: string;
  kindLabel: string;
  kinds: readonly SelectOption<K>[];
  /** The table's columns between the name and the secrets. */
  columns: Column<C>[];
  /** The form's state for a new connection, or one to edit. */
  draftOf(existing: C | null): D;
  /** More fields beside the name and the kind. */
  moreFields?(draft: D, change: (patch: Partial<D>) => void): ReactNode;
  /** Why the draft cannot be saved yet, beyond a missing name. */
  problem?(draft: D): string | null;
  /** Lists the saved connections: a constant (the dialog lists them again whenever it changes). */
  list(): Promise<Result<ConnectionList<C, K>>>;
  save(draft: D, options: Record<string, string>): Promise<Result<C>>;
  savedNote(saved: C): string;
  remove(name: string): Promise<Result<null>>;
  onClose(): void;
}

export function ConnectionsDialog<C extends SavedConnection, K extends string, D extends ConnectionDraft<C, K>>(props: Props<C, K, D>) {
  const { title, other, intro, newLabel, kindLabel, kinds, columns, draftOf, moreFields, problem, list, save, savedNote, remove, onClose } =
    props;
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [data, setData] = useState<ConnectionList<C, K> | null>(null);
  const [draft, setDraft] = useState<D | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const show = useCallback((result: Result<ConnectionList<C, K>>) => {
    if (result.ok) setData(result.value);
    else setError(result.error.message);
  }, []);
  useEffect(() => dialog.current?.showModal(), []);
  useEffect(() => {
    void list().then(show);
  }, [list, show]);

  const edit = (existing: C | null) => {
    setError(null);
    setNote(null);
    setDraft(draftOf(existing));
  };
  const change = (patch: Partial<D> | Partial<ConnectionDraft<C, K>>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const setValue = (name: string, value: string) => setDraft((d) => (d ? { ...d, values: { ...d.values, [name]: value } } : d));

  const saveDraft = async () => {
    if (!draft || !data) return;
    setError(null);
    setNote(null);
    if (!draft.name.trim()) return setError('Give the connection a name.');
    const problemNow = problem?.(draft) ?? null;
    if (problemNow) return setError(problemNow);
    const result = await save({ ...draft, name: draft.name.trim() }, optionsOf(draft, data.options));
    if (!result.ok) return setError(result.error.message);
    show(await list());
    setDraft(null);
    setNote(savedNote(result.value));
  };

  const removeSaved = async (name: string) => {
    setError(null);
    setNote(null);
    const result = await remove(name);
    if (!result.ok) return setError(result.error.message);
    show(await list());
    if (draft?.existing?.name === name) setDraft(null);
    setNote(`Deleted “${name}”.`);
  };

  const more = draft && moreFields?.(draft, change);
  return (
    <dialog ref={dialog} className="connections-dialog" aria-labelledby={`${ids}-title`} onClose={onClose}>
      <div className="card-header">
        <h3 id={`${ids}-title`}>{title}</h3>
        <button type="button" className="button ghost small" onClick={other.open}>
          {other.label}
        </button>
        <button type="button" className="button ghost small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="muted small">{intro}</p>
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
              {columns.map((column) => (
                <th key={column.header}>{column.header}</th>
              ))}
              <th>Secrets</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {data.connections.length === 0 ? (
              <tr>
                <td colSpan={columns.length + 3} className="muted">
                  None saved yet.
                </td>
              </tr>
            ) : (
              data.connections.map((c) => (
                <tr key={c.name}>
                  <td>{c.name}</td>
                  {columns.map((column) => (
                    <td key={column.header} className={column.className}>
                      {column.cell(c)}
                    </td>
                  ))}
                  <td className="muted">{secretState(c)}</td>
                  <td className="connections-actions">
                    <button type="button" className="button small" onClick={() => edit(c)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </button>
                    <button
                      type="button"
                      className="button small danger"
                      onClick={() => void removeSaved(c.name)}
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
          aria-label={draft.existing ? `Edit ${draft.existing.name}` : newLabel}
          onSubmit={(e) => {
            e.preventDefault();
            void saveDraft();
          }}
        >
          <div className={more ? 'form-grid three' : 'form-grid'}>
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
            <SelectField id={`${ids}-kind`} label={kindLabel} value={draft.kind} options={kinds} onChange={(kind) => change({ kind })} />
            {more}
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
