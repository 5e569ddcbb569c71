// The dry run's answer: DDL to run, the per-batch statement, and whether the existing target can take the rows.
import type { ExportPlan } from '../../../shared/sink-spec.js';
import { Alert } from './Alert.js';

export function PlanView({ plan }: { plan: ExportPlan }) {
  return (
    <div className="plan">
      <p className="small">
        Target <strong>{plan.target}</strong> {plan.targetExists ? 'exists' : 'will be created'}.
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
