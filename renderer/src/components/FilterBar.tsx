// The filter over the grid and the export: a SQL WHERE condition, checked against the snapshot's schema as the user
// types (the same parser and checker the reader uses, shared/expression), the problem shown with its position.
import type { StructType } from '../../../shared/delta-schema.js';
import { compileFilter } from '../../../shared/expression/index.js';
import { CheckedField } from './Field.js';

interface Props {
  text: string;
  schema: StructType;
  onChange(text: string): void;
}

/** The filter to put in the source spec, or a problem; blank is no filter. */
export function checkedFilter(text: string, schema: StructType): { filter?: string; problem: string | null } {
  if (text.trim() === '') return { problem: null };
  const compiled = compileFilter(text, schema);
  return compiled.ok ? { filter: text, problem: null } : { problem: compiled.message };
}

export function FilterBar({ text, schema, onChange }: Props) {
  const { problem } = checkedFilter(text, schema);
  return (
    <CheckedField
      label="Filter rows"
      placeholder="e.g. state = 'Ohio' AND cases > 100"
      text={text}
      problem={problem}
      problemId="filter-problem"
      hint={
        <span className="muted small">
          {text.trim() === '' ? 'Every row; the filter applies to the preview and the export.' : 'Applies to the preview and the export.'}
        </span>
      }
      onChange={onChange}
    />
  );
}
