// The dry run's answer: DDL to run, the per-batch statement, and what happens to a target that already exists.
import type { ExportPlan } from '../../../shared/sink-spec.js';
import { Alert } from './Alert.js';

interface Props {
  plan: ExportPlan;
  /** Export will ask whether to append to, replace or keep an existing target. */
  asks: boolean;
}

function existingTargetNote(plan: ExportPlan, asks: boolean): string {
  const file = plan.sink === 'parquet' || plan.sink === 'csv' || plan.sink === 'jsonl';
  if (!plan.targetExists) return 'will be created.';
  if (asks)
    return file
      ? 'exists: Export will ask whether to replace it or stop.'
      : 'exists: Export will ask whether to append to it, replace it or stop.';
  return file ? 'exists and will be replaced.' : 'exists; the write mode decides what happens to its rows.';
}

export function PlanView({ plan, asks }: Props) {
  return (
    <div className="plan">
      <p className="small">
        Target <strong>{plan.target}</strong> {existingTargetNote(plan, asks)}
      </p>
      {plan.incompatibility && <Alert message={plan.incompatibility} />}
      {plan.ddl.length > 0 && (
        <>
          <div className="plan-label">DDL</div>
          <pre className="code">{plan.ddl.join(';\n\n')};</pre>
        </>
      )}
      <div className="plan-label">Each batch</div>
      <pre className="code">{plan.statement}</pre>
    </div>
  );
}
