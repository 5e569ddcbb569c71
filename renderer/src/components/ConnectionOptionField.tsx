// A saved connection's option as a form field (storage and catalog connections alike): a secret is typed once and
// sent; it never comes back, so its field shows "saved" and offers to forget it.
import { useId } from 'react';
import { SelectField } from './Field.js';

// Options that take true or false.
const SWITCHES = new Set(['path_style', 'anonymous']);
const SWITCH_VALUES = [
  { value: '', label: 'default' },
  { value: 'true', label: 'true' },
  { value: 'false', label: 'false' },
];

const SPELLED: Record<string, string> = { id: 'ID', sas: 'SAS', ms: '(ms)' };

/** An option's name as a field label: access_key_id is "Access key ID". */
export function optionLabel(option: string): string {
  const words = option
    .split('_')
    .map((w) => SPELLED[w] ?? w)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What is sent: the fields of the chosen kind that were filled in, and the saved secrets to forget as ''. */
export function optionsOf<K extends string>(
  draft: { kind: K; values: Record<string, string>; forget: string[] },
  options: { name: string; kinds: K[] }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const option of options) {
    if (!option.kinds.includes(draft.kind)) continue;
    const value = draft.values[option.name]?.trim() ?? '';
    if (value !== '') out[option.name] = value;
    else if (draft.forget.includes(option.name)) out[option.name] = '';
  }
  return out;
}

/** Which secrets a saved connection holds, never their values. */
export function secretState(connection: { secretsSet: string[]; secretsNotSaved: boolean }): string {
  if (connection.secretsSet.length > 0)
    return `${connection.secretsSet.map(optionLabel).join(', ')} set${connection.secretsNotSaved ? ' (this session only)' : ''}`;
  return connection.secretsNotSaved ? 'secrets not saved: enter them again' : 'no secrets';
}

interface OptionFieldProps {
  option: { name: string; secret: boolean; about: string };
  value: string;
  /** A secret the host holds: its field shows "saved" and may be left empty to keep it. */
  saved: boolean;
  onChange(value: string): void;
  onForget(): void;
}

export function OptionField({ option, value, saved, onChange, onForget }: OptionFieldProps) {
  const id = useId();
  if (SWITCHES.has(option.name)) {
    return (
      <SelectField
        id={id}
        label={optionLabel(option.name)}
        title={option.about}
        value={value}
        options={SWITCH_VALUES}
        onChange={onChange}
      />
    );
  }
  return (
    <div className="field" title={option.about}>
      <label htmlFor={id}>{optionLabel(option.name)}</label>
      <div className="connections-secret">
        <input
          id={id}
          type={option.secret ? 'password' : 'text'}
          autoComplete={option.secret ? 'new-password' : 'off'}
          spellCheck={false}
          value={value}
          placeholder={saved ? 'saved' : ''}
          onChange={(e) => onChange(e.target.value)}
        />
        {option.secret && saved && (
          <button
            type="button"
            className="button small ghost"
            onClick={onForget}
            aria-label={`Forget ${optionLabel(option.name).toLowerCase()}`}
          >
            Forget
          </button>
        )}
      </div>
    </div>
  );
}
