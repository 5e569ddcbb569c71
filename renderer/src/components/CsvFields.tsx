// The CSV sink's style: delimiter, quote, header row, null text and line ending. Each problem is shown under its
// own field as it is typed, by the rule the spec applies (shared/csv-style.ts).
import { useId } from 'react';
import { csvStyleProblems, type CsvStyleField, type LineEnding } from '../../../shared/csv-style.js';
import { csvStyleOfForm, type SinkForm } from '../sink-form.js';
import { SelectField, TextField } from './Field.js';

interface Props {
  form: SinkForm;
  set<K extends keyof SinkForm>(key: K, value: SinkForm[K]): void;
}

const LINE_ENDING_OPTIONS: { value: LineEnding; label: string }[] = [
  { value: 'lf', label: 'LF (Linux, macOS)' },
  { value: 'crlf', label: 'CRLF (Windows)' },
];

export function CsvFields({ form, set }: Props) {
  const ids = useId();
  const problems = csvStyleProblems(csvStyleOfForm(form));
  const field = (name: CsvStyleField, key: 'csvDelimiter' | 'csvQuote' | 'csvNullText', label: string, placeholder: string) => {
    const problem = problems.find((p) => p.field === name)?.message ?? null;
    const problemId = `${ids}-${name}`;
    return (
      <div>
        <TextField
          label={label}
          placeholder={placeholder}
          value={form[key]}
          aria-invalid={problem !== null}
          aria-describedby={problem !== null ? problemId : undefined}
          onChange={(value) => set(key, value)}
        />
        {problem !== null && (
          <span id={problemId} role="status" className="filter-problem">
            {problem}
          </span>
        )}
      </div>
    );
  };
  return (
    <div className="form-grid three">
      {field('delimiter', 'csvDelimiter', 'Delimiter', ', or ; or \\t for a tab')}
      {field('quote', 'csvQuote', 'Quote', '"')}
      {field('nullText', 'csvNullText', 'Null text', 'empty')}
      <SelectField
        id={`${ids}-line-ending`}
        label="Line ending"
        value={form.csvLineEnding}
        options={LINE_ENDING_OPTIONS}
        onChange={(value) => set('csvLineEnding', value)}
      />
      <label className="check">
        <input type="checkbox" checked={form.csvHeader} onChange={(e) => set('csvHeader', e.target.checked)} />
        <span>Header row</span>
      </label>
    </div>
  );
}
