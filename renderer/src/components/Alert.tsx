import type { ErrorValue } from '../../../shared/errors.js';

// An error shown where it happened, announced to screen readers. A failure with several problems shows them as a
// list, one per line, rather than as one run-together message; `lead` says what failed ("Export failed: ").
// `id` lets the field the error is about name it as its description (aria-describedby).
export function Alert({ message, lead = '', id }: { message: string | ErrorValue | null; lead?: string; id?: string }) {
  if (!message) return null;
  const error = typeof message === 'string' ? { message } : message;
  const problems = 'problems' in error ? error.problems : undefined;
  return (
    <div role="alert" className="alert" id={id}>
      <span className="alert-icon" aria-hidden="true">
        !
      </span>
      {problems && problems.length > 1 ? (
        <div>
          {lead}
          <ul className="alert-problems">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : (
        <span>
          {lead}
          {error.message}
        </span>
      )}
    </div>
  );
}

/** The form's own problems as one error, shown like the host's validation failures. */
export function formProblems(problems: string[]): ErrorValue {
  return { code: 'VALIDATION', message: problems.join(' '), problems };
}
