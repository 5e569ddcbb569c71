// The row limit a limited read is asked with; use-limited-read.ts says why a typed one cannot be used.
import { PREVIEW_MAX_ROWS } from '../../../shared/api.js';
import { TextField } from './Field.js';

export function RowLimitField({ text, onChange }: { text: string; onChange(text: string): void }) {
  return (
    <TextField
      className="field compact"
      label="Row limit"
      type="number"
      min={1}
      max={PREVIEW_MAX_ROWS}
      step={1}
      value={text}
      onChange={onChange}
    />
  );
}
