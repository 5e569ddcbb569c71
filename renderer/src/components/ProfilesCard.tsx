// Saved sink settings: load one into the form, save the form under a name, delete one.
import { useEffect, useId, useState } from 'react';
import type { Result, SinkProfile } from '../../../shared/api.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { api } from '../api-client.js';
import type { ErrorValue } from '../../../shared/errors.js';
import { Alert } from './Alert.js';
import { SelectField } from './Field.js';
import { Notice } from './Notice.js';

interface Props {
  /** The form as a spec, or why it cannot be saved yet. */
  current: { spec: SinkSpec | null; problems: string[] };
  onLoad(profile: SinkProfile): void;
}

export function ProfilesCard({ current, onLoad }: Props) {
  const ids = useId();
  const [profiles, setProfiles] = useState<SinkProfile[]>([]);
  const [selected, setSelected] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | ErrorValue | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const showProfiles = (result: Result<SinkProfile[]>) => {
    if (result.ok) setProfiles(result.value);
    else setError(result.error);
  };
  const refresh = async () => showProfiles(await api.listProfiles());
  useEffect(() => {
    void api.listProfiles().then(showProfiles);
  }, []);

  const load = (profileName: string) => {
    setSelected(profileName);
    setNote(null);
    const profile = profiles.find((p) => p.name === profileName);
    if (profile) {
      onLoad(profile);
      setName(profile.name);
    }
  };

  const save = async () => {
    setError(null);
    setNote(null);
    if (!name.trim()) return setError('Give the profile a name.');
    if (!current.spec) return setError(`The settings cannot be saved yet: ${current.problems.join(' ')}`);
    const result = await api.saveProfile({ name: name.trim(), sink: current.spec });
    if (!result.ok) return setError(result.error);
    // The list is refreshed before the note, so "Saved" never shows beside a list that lacks the profile.
    await refresh();
    setSelected(result.value.name);
    setNote(
      result.value.passwordNotSaved
        ? `Saved “${result.value.name}” without its password: this host cannot encrypt it.`
        : `Saved “${result.value.name}”.`,
    );
  };

  const remove = async () => {
    setError(null);
    setNote(null);
    const result = await api.deleteProfile({ name: selected });
    if (!result.ok) return setError(result.error);
    await refresh();
    setNote(`Deleted “${selected}”.`);
    setSelected('');
  };

  return (
    <section className="card" aria-labelledby="profiles-title">
      <h3 id="profiles-title">Profiles</h3>
      <SelectField
        id={`${ids}-saved`}
        label="Saved profiles"
        value={selected}
        options={[
          { value: '', label: profiles.length === 0 ? 'None saved yet' : 'Load a profile…' },
          ...profiles.map((p) => ({ value: p.name, label: `${p.name} (${p.sink.kind})` })),
        ]}
        onChange={load}
        disabled={profiles.length === 0}
      />
      <div className="inline-fields">
        <label className="field grow">
          <span>Profile name</span>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. warehouse staging" />
        </label>
        <button type="button" className="button" onClick={() => void save()}>
          Save profile
        </button>
        <button type="button" className="button danger" onClick={() => void remove()} disabled={!selected}>
          Delete profile
        </button>
      </div>
      <Notice text={note} />
      <Alert message={error} />
    </section>
  );
}
