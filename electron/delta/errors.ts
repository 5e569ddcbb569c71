// The reader's failures, each a DeltaportError with a code the UI and CLI can branch on and a one-line message.
import { DeltaportError } from '../../shared/errors.js';

export class NotADeltaTableError extends DeltaportError {
  constructor(message: string) {
    super('NOT_A_DELTA_TABLE', message);
  }
}

export class TableNotFoundError extends DeltaportError {
  constructor(message: string) {
    super('TABLE_NOT_FOUND', message);
  }
}

export class UnsupportedProtocolError extends DeltaportError {
  constructor(message: string) {
    super('UNSUPPORTED_PROTOCOL', message);
  }
}

export class CorruptLogError extends DeltaportError {
  constructor(message: string) {
    super('CORRUPT_LOG', message);
  }
}

export class VersionNotFoundError extends DeltaportError {
  constructor(message: string) {
    super('VERSION_NOT_FOUND', message);
  }
}

export class TimestampOutOfRangeError extends DeltaportError {
  constructor(message: string) {
    super('TIMESTAMP_OUT_OF_RANGE', message);
  }
}

export class MissingFileError extends DeltaportError {
  constructor(message: string) {
    super('MISSING_FILE', message);
  }
}
