// A sink spec checked once, where an export starts (export/run-export.ts), against the columns it will receive: the
// type says so, and the sinks take it without checking again.
import { DeltaportError, validationError } from '../../shared/errors.js';
import { exportSinkProblems, isSqlSink, type SinkSpec } from '../../shared/sink-spec.js';
import { canonicalLocation, isCloudLocation, type StorageResolver } from '../storage/storage.js';
import { fileExists } from '../storage/target-files.js';

declare const checked: unique symbol;

/** A spec that passed checkSink; made nowhere else. */
export type CheckedSink = SinkSpec & { readonly [checked]: true };

/** What stops an export before its sink is made: a spec that does not fit the columns, and an existing file that
 * may not be replaced (the UI asks the user, the CLI wants --force).
 * `storage`: where a file target is looked for. */
export async function checkSink(spec: SinkSpec, columns: readonly string[], storage: StorageResolver): Promise<CheckedSink> {
  const problems = exportSinkProblems(spec, columns);
  if (spec.kind === 'sqlite' && isCloudLocation(spec.path))
    problems.push(`a SQLite database is a local file, not ${spec.path}: export to a local path`);
  if (problems.length > 0) throw validationError(problems);
  if (!isSqlSink(spec) && !spec.overwrite) {
    const target = canonicalLocation(spec.path);
    if (await fileExists(storage, target)) throw new DeltaportError('TARGET_EXISTS', `the output file ${target} already exists`);
  }
  return spec as CheckedSink;
}
