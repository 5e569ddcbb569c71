// What a storage connection may say: its prefix (a bucket or container, or a whole store) in one spelling, and
// options that are known and apply to that store. Pure checks, shared by the payload validation and the save.
import type { StorageOptionInfo } from '../../shared/api.js';
import { DeltaportError } from '../../shared/errors.js';
import { parseStoreLocation, storeUrl, type StoreKind } from '../../shared/store-location.js';
import { STORE_OPTIONS, storeOptionProblems, type StoreOptions } from '../storage/store-options.js';

export const STORAGE_OPTION_INFO: StorageOptionInfo[] = Object.entries(STORE_OPTIONS).map(([name, o]) => ({
  name,
  kinds: o.kinds,
  secret: o.secret === true,
  about: o.about,
}));

const WHOLE_STORE: Record<string, { prefix: string; kind: StoreKind }> = {
  s3: { prefix: 's3://', kind: 's3' },
  s3a: { prefix: 's3://', kind: 's3' },
  gs: { prefix: 'gs://', kind: 'gcs' },
  az: { prefix: 'az://', kind: 'azure' },
  abfs: { prefix: 'az://', kind: 'azure' },
  abfss: { prefix: 'az://', kind: 'azure' },
};

/** The one spelling of a connection's prefix and the store it is in; throws a one-line message for anything else. */
export function connectionPrefix(text: string): { prefix: string; kind: StoreKind } {
  const trimmed = text.trim();
  const scheme = /^([a-zA-Z0-9]+):\/\/\/?$/.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme && WHOLE_STORE[scheme]) return WHOLE_STORE[scheme];
  let location;
  try {
    location = parseStoreLocation(trimmed);
  } catch (err) {
    throw new DeltaportError('VALIDATION', (err as Error).message);
  }
  if (!location)
    throw new DeltaportError(
      'VALIDATION',
      `'${trimmed}' is not a cloud URL (s3://bucket, gs://bucket, az://container, or s3:// for every bucket)`,
    );
  const bucket = storeUrl({ ...location, key: '' });
  // Client settings are per bucket: a folder inside one would look narrower than it is.
  if (location.key !== '')
    throw new DeltaportError('VALIDATION', `a storage connection applies to a whole bucket or container: use ${bucket}, not ${trimmed}`);
  return { prefix: bucket, kind: location.kind };
}

/** Problems with a connection's options for its store, one per entry; a secret given as '' (forget it) is fine. */
export function connectionOptionProblems(kind: StoreKind, options: StoreOptions): string[] {
  const given = Object.fromEntries(Object.entries(options).filter(([name, value]) => !(value === '' && STORE_OPTIONS[name]?.secret)));
  const problems = storeOptionProblems(given);
  for (const name of Object.keys(given)) {
    const option = STORE_OPTIONS[name];
    if (option && !option.kinds.includes(kind))
      problems.push(`storage option ${name} does not apply to ${kind} (it is for ${option.kinds.join(', ')})`);
  }
  return problems;
}
