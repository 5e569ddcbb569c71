// The table's history as the app and the CLI show it: one summary per commit still in the log, newest first.
import type { CommitSummary } from '../../../shared/table-info.js';
import type { CommitInfo } from './actions.js';

export function commitSummary(version: number, timestamp: number, info: CommitInfo | null): CommitSummary {
  return {
    version,
    timestamp,
    commitInfoTimestamp: typeof info?.timestamp === 'number' ? info.timestamp : null,
    operation: typeof info?.operation === 'string' ? info.operation : null,
    operationParameters: objectOrEmpty(info?.operationParameters),
    operationMetrics: objectOrEmpty(info?.operationMetrics),
    engineInfo: typeof info?.engineInfo === 'string' ? info.engineInfo : null,
    userName: typeof info?.userName === 'string' ? info.userName : null,
    isBlindAppend: typeof info?.isBlindAppend === 'boolean' ? info.isBlindAppend : null,
  };
}

/** Versions that have a history entry: readable ones whose commit file is still there, newest first. */
export function historyVersions(
  listing: { earliest: number; latest: number; commits: ReadonlyMap<number, string> },
  limit: number,
): number[] {
  const versions: number[] = [];
  for (let v = listing.latest; v >= listing.earliest && versions.length < limit; v--) {
    if (listing.commits.has(v)) versions.push(v);
  }
  return versions;
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
