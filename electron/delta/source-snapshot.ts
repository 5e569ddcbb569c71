// The table and snapshot a source spec names, with the builder's checks of them (the spec itself, the version or
// timestamp, the column names), and nothing of what reading rows takes: describing a table (`deltaport schema`)
// loads neither apache-arrow nor the filter's planner. source.ts builds the row source on it.
import { DeltaportError } from '../../shared/errors.js';
import { resolveSourceSpec, type DeltaSourceSpec, type ResolvedSourceSpec } from '../../shared/source-spec.js';
import type { Snapshot } from './snapshot.js';
import { DeltaTable } from './table.js';

export class DeltaSourceValidationError extends DeltaportError {
  constructor(override readonly problems: string[]) {
    super('VALIDATION', problems.join('\n'));
  }
}

export interface SpecSnapshot {
  table: DeltaTable;
  snapshot: Snapshot;
  resolved: ResolvedSourceSpec;
}

/** `openTable` lets the app's worker reuse a table it already opened (table-cache.ts) instead of reading its log
 * again. Every problem found is reported at once, in one DeltaSourceValidationError. */
export async function openSpecSnapshot(
  spec: DeltaSourceSpec,
  openTable: (tablePath: string) => Promise<DeltaTable>,
): Promise<SpecSnapshot> {
  const { problems, resolved } = resolveSourceSpec(spec);
  if (typeof spec.tablePath !== 'string' || spec.tablePath.trim() === '') throw new DeltaSourceValidationError(problems);

  const table = await openTable(resolved.tablePath);
  const { versionAsOf, timestampMs } = resolved;
  let snapshot: Snapshot | null = null;
  if (versionAsOf === undefined || timestampMs === undefined) {
    try {
      snapshot = await table.snapshot({ version: versionAsOf, timestampMs });
    } catch (err) {
      if (!(err instanceof DeltaportError && TIME_TRAVEL_CODES.has(err.code))) throw err;
      problems.push(err.message);
    }
  }
  // The column names are still checked when the version is wrong, against the latest schema.
  const schemaSource = snapshot ?? (await table.snapshot());
  problems.push(...columnProblems(resolved.columns, schemaSource));
  if (problems.length > 0 || !snapshot) throw new DeltaSourceValidationError(problems);
  return { table, snapshot, resolved };
}

const TIME_TRAVEL_CODES = new Set(['VERSION_NOT_FOUND', 'TIMESTAMP_OUT_OF_RANGE']);

function columnProblems(columns: string[] | undefined, snapshot: Snapshot): string[] {
  if (!columns) return [];
  const names = snapshot.schema.fields.map((f) => f.name);
  const known = new Set(names);
  const problems: string[] = [];
  for (const name of new Set(columns)) {
    if (typeof name !== 'string' || name.trim() === '' || known.has(name)) continue;
    const sameButCase = names.find((n) => n.toLowerCase() === name.toLowerCase());
    problems.push(
      sameButCase
        ? `no column '${name}' in version ${snapshot.version} (did you mean '${sameButCase}'?)`
        : `no column '${name}' in version ${snapshot.version}; its columns are ${listNames(names)}`,
    );
  }
  return problems;
}

function listNames(names: string[]): string {
  const shown = names.slice(0, 12).map((n) => `'${n}'`);
  return shown.join(', ') + (names.length > shown.length ? ` and ${names.length - shown.length} more` : '');
}
