// The form rows every panel uses, so each kind of field is built one way: a text or number input inside its label
// (the label's text is the input's accessible name), a select with its label beside it, and a one-line input that is
// checked as the user types, with the problem announced next to it.
import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

interface TextFieldProps extends InputProps {
  label: string;
  value: string;
  onChange(value: string): void;
}

/** An input inside its label; a text input is not spell-checked unless asked (names, paths and SQL are not prose). */
export function TextField({ label, value, onChange, className = 'field', type = 'text', ...input }: TextFieldProps) {
  return (
    <label className={className}>
      <span>{label}</span>
      <input
        type={type}
        spellCheck={type === 'text' ? false : undefined}
        {...input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

export interface SelectOption<T extends string> {
  value: T;
  label: ReactNode;
}

interface SelectFieldProps<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  onChange(value: T): void;
  disabled?: boolean;
  title?: string;
}

export function SelectField<T extends string>({ id, label, value, options, onChange, disabled, title }: SelectFieldProps<T>) {
  return (
    <div className="field" title={title}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T)} disabled={disabled}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

interface CheckedFieldProps {
  label: string;
  placeholder: string;
  text: string;
  /** What is wrong with the text as typed, or null. */
  problem: string | null;
  /** The problem's element id, when the input names it as its description. */
  problemId?: string;
  /** Shown in the problem's place while there is none. */
  hint?: ReactNode;
  onChange(text: string): void;
}

export function CheckedField({ label, placeholder, text, problem, problemId, hint, onChange }: CheckedFieldProps) {
  return (
    <div className="filter-bar">
      <TextField
        className="field compact filter-field"
        label={label}
        placeholder={placeholder}
        value={text}
        aria-invalid={problem !== null}
        aria-describedby={problem && problemId ? problemId : undefined}
        onChange={onChange}
      />
      {problem ? (
        <span id={problemId} role="status" className="filter-problem">
          {problem}
        </span>
      ) : (
        hint
      )}
    </div>
  );
}
