// Errors cross the renderer/main boundary as values: a stable code a program can branch on and a one-line message a
// person can act on.

export type ErrorCode =
  | 'VALIDATION'
  | 'NOT_A_DELTA_TABLE'
  | 'TABLE_NOT_FOUND'
  | 'UNSUPPORTED_PROTOCOL'
  | 'CORRUPT_LOG'
  | 'MISSING_FILE'
  | 'VERSION_NOT_FOUND'
  | 'TIMESTAMP_OUT_OF_RANGE'
  | 'CORRUPT_DATA'
  | 'SINK_CONNECTION'
  | 'SINK_AUTH'
  | 'SINK_INCOMPATIBLE'
  | 'SINK_WRITE'
  | 'TARGET_EXISTS'
  | 'SINK_BUSY'
  | 'STORAGE'
  | 'CANCELLED'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'STATE_TOO_NEW'
  | 'INTERNAL';

export interface ErrorValue {
  code: ErrorCode;
  message: string;
  /** A validation failure's problems, one each, for the CLI to print one per line and the UI to show as a list. */
  problems?: readonly string[];
}

export class DeltaportError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly problems?: readonly string[],
  ) {
    super(message);
    this.name = new.target.name;
  }

  toValue(): ErrorValue {
    const value = { code: this.code, message: this.message };
    return this.problems?.length ? { ...value, problems: [...this.problems] } : value;
  }

  static fromValue(value: ErrorValue): DeltaportError {
    return new DeltaportError(value.code, value.message, value.problems);
  }
}

/** A VALIDATION error carrying its problems as data; its message is all of them on one line. */
export function validationError(problems: readonly string[]): DeltaportError {
  return new DeltaportError('VALIDATION', problems.join('; '), problems);
}

/** The one wording of a stop on request: what was stopped ("cancelled", "export cancelled", "scan cancelled") and,
 * when it says more, when or how far it got ("export cancelled after 5 rows were committed"). */
export function cancelledError(what: 'job' | 'export' | 'scan' | 'query' = 'job', detail?: string): DeltaportError {
  const head = what === 'job' ? 'cancelled' : `${what} cancelled`;
  return new DeltaportError('CANCELLED', detail ? `${head} ${detail}` : head);
}

/** Turns anything thrown into an ErrorValue; unknown errors keep only their first line, never a stack. */
export function toErrorValue(err: unknown): ErrorValue {
  if (err instanceof DeltaportError) return err.toValue();
  const text = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: text.split('\n')[0] || 'unknown error' };
}
