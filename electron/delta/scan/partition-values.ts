// Typed partition values from add.partitionValues strings (PROTOCOL.md "Partition Value Serialization"); directory
// names are never consulted. null and "" both mean null.
import type { DeltaType } from '../../../shared/delta-schema.js';
import { parseDeltaText } from '../../../shared/delta-values.js';
import { DeltaportError } from '../../../shared/errors.js';
import type { Scalar } from '../engine/arrow-data.js';

export { daysFromCivil, parseDecimal, parseTimestampMicros } from '../../../shared/delta-values.js';

/** The value in the unit of its canonical Arrow type (see shared/delta-values.ts). */
export function parsePartitionValue(raw: string | null | undefined, type: DeltaType, column: string): Scalar {
  if (raw === null || raw === undefined || raw === '') return null;
  const value = parseDeltaText(raw, type);
  if (value === undefined) {
    throw new DeltaportError('CORRUPT_LOG', `partition value '${raw}' of column '${column}' is not a valid ${String(type)}`);
  }
  return value;
}
