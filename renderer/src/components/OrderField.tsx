// The preview's order over the whole snapshot ("cases desc, state"): checked against the schema as typed; the
// preview then shows the first rows in that order of every row the filter keeps, not just of the rows loaded.
import type { StructType } from '../../../shared/delta-schema.js';
import { parseOrderBy, sortKeysProblem, type SortKey } from '../../../shared/sort-spec.js';
import { CheckedField } from './Field.js';

interface Props {
  text: string;
  schema: StructType;
  onChange(text: string): void;
}

/** The order to ask for, or a problem; blank is file order. */
export function checkedOrder(text: string, schema: StructType): { keys?: SortKey[]; problem: string | null } {
  if (text.trim() === '') return { problem: null };
  const parsed = parseOrderBy(text);
  if ('problem' in parsed) return { problem: parsed.problem };
  const problem = sortKeysProblem(parsed.keys, schema.fields);
  return problem ? { problem } : { keys: parsed.keys, problem: null };
}

export function OrderField({ text, schema, onChange }: Props) {
  const { problem } = checkedOrder(text, schema);
  return (
    <CheckedField
      label="Order by"
      placeholder="e.g. cases desc, state (whole snapshot; blank = file order)"
      text={text}
      problem={problem}
      problemId="order-problem"
      onChange={onChange}
    />
  );
}
