// The reader's failures: each a DeltaportError with a code the UI and CLI can branch on and a one-line message.
import { DeltaportError } from '../../shared/errors.js';

export const notADeltaTable = (message: string): DeltaportError => new DeltaportError('NOT_A_DELTA_TABLE', message);
export const tableNotFound = (message: string): DeltaportError => new DeltaportError('TABLE_NOT_FOUND', message);
export const unsupportedProtocol = (message: string): DeltaportError => new DeltaportError('UNSUPPORTED_PROTOCOL', message);
export const corruptLog = (message: string): DeltaportError => new DeltaportError('CORRUPT_LOG', message);
export const versionNotFound = (message: string): DeltaportError => new DeltaportError('VERSION_NOT_FOUND', message);
export const timestampOutOfRange = (message: string): DeltaportError => new DeltaportError('TIMESTAMP_OUT_OF_RANGE', message);
export const missingFile = (message: string): DeltaportError => new DeltaportError('MISSING_FILE', message);
