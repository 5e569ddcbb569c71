// Column mapping (PROTOCOL.md "Column Mapping"): under mode 'name' or 'id' the Parquet files and partitionValues use
// physical names from field metadata, and under 'id' the Parquet field ids identify columns; logical names are only
// for people.
import type * as arrow from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import type { Metadata } from './log/actions.js';

export type ColumnMappingMode = 'none' | 'name' | 'id';

const PHYSICAL_NAME = 'delta.columnMapping.physicalName';
const FIELD_ID = 'delta.columnMapping.id';
const PARQUET_FIELD_ID = 'PARQUET:field_id';

export function columnMappingMode(metadata: Metadata): ColumnMappingMode {
  const mode = metadata.configuration['delta.columnMapping.mode'] ?? 'none';
  if (mode === 'none' || mode === 'name' || mode === 'id') return mode;
  throw new DeltaportError('UNSUPPORTED_PROTOCOL', `unsupported column mapping mode '${mode}'`);
}

/** The name a field has in the data files and in partitionValues. */
export function physicalName(field: StructField, mode: ColumnMappingMode): string {
  if (mode === 'none') return field.name;
  const name = field.metadata?.[PHYSICAL_NAME];
  if (typeof name !== 'string' || name === '') {
    throw new DeltaportError('CORRUPT_LOG', `column '${field.name}' has no physical name under column mapping mode '${mode}'`);
  }
  return name;
}

/** The Arrow field of a data file that holds a Delta field, or undefined when the file predates the column. */
export function findFileField<T extends arrow.Field>(fileFields: readonly T[], field: StructField, mode: ColumnMappingMode): T | undefined {
  if (mode === 'id') {
    const id = field.metadata?.[FIELD_ID];
    const byId = fileFields.find((f) => f.metadata.get(PARQUET_FIELD_ID) === String(id));
    if (byId) return byId;
    // Files written without field ids are matched by physical name.
    if (fileFields.some((f) => f.metadata.has(PARQUET_FIELD_ID))) return undefined;
  }
  const name = physicalName(field, mode);
  return fileFields.find((f) => f.name === name);
}
