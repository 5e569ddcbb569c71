// The row limit a limited read is asked with, and why a typed one cannot be used (use-limited-read.ts), said next to
// the field and named as its description for screen readers.
import { useId } from 'react';
import { PREVIEW_MAX_ROWS } from '../../../shared/api.js';
import { limitProblemOf } from '../use-limited-read.js';
import { TextField } from './Field.js';

export function RowLimitField({ text, onChange }: { text: string; onChange(text: string): void }) {
  const problemId = useId();
  const problem = limitProblemOf(text);
  return (
    <>
      <TextField
        className="field compact"
        label="Row limit"
        type="number"
        min={1}
        max={PREVIEW_MAX_ROWS}
        step={1}
        value={text}
        aria-invalid={problem !== null}
        aria-describedby={problem ? problemId : undefined}
        onChange={onChange}
      />
      {problem && (
        <span id={problemId} role="alert" className="filter-problem">
          {problem}
        </span>
      )}
    </>
  );
}
