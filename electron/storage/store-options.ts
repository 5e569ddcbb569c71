// Settings of the clients that read cloud stores beyond what each cloud's own credential chain finds (environment
// variables, shared config and credentials files, profiles): an endpoint for S3-compatible stores, explicit keys, a
// profile. Given per URL prefix (a bucket, or a whole scheme) by `--storage-option` on the command line or a saved
// storage connection in the app; the longest matching prefix wins. Nothing here holds them: a read is given them
// inside its engine context (delta/engine/engine-context.ts), and a worker thread receives them as data from the
// thread that starts it, since each thread has its own clients.
import { storeUrl, type StoreKind, type StoreLocation } from '../../shared/store-location.js';
import { validationError } from '../../shared/errors.js';

export type StoreOptions = Record<string, string>;

/** Each option's name and the stores it applies to. Secrets are marked so that nothing shows or logs them. */
export const STORE_OPTIONS: Record<string, { kinds: StoreKind[]; secret?: true; about: string }> = {
  endpoint: { kinds: ['s3', 'azure', 'gcs'], about: 'the service URL, for S3-compatible stores (MinIO, Ceph, R2) and emulators' },
  region: { kinds: ['s3'], about: 'the bucket region (found from the bucket when absent)' },
  profile: { kinds: ['s3'], about: 'a profile of ~/.aws/config and ~/.aws/credentials (default: $AWS_PROFILE)' },
  access_key_id: { kinds: ['s3'], about: 'an access key id (default: the AWS credential chain)' },
  secret_access_key: { kinds: ['s3'], secret: true, about: 'the secret of access_key_id' },
  session_token: { kinds: ['s3'], secret: true, about: 'a session token for temporary credentials' },
  path_style: { kinds: ['s3'], about: 'true for path-style addressing (endpoint/bucket/key), as most S3-compatible stores need' },
  account_name: { kinds: ['azure'], about: 'the storage account (default: from the URL or $AZURE_STORAGE_ACCOUNT)' },
  account_key: { kinds: ['azure'], secret: true, about: 'the account key (default: $AZURE_STORAGE_KEY)' },
  sas_token: { kinds: ['azure'], secret: true, about: 'a shared access signature (default: $AZURE_STORAGE_SAS_TOKEN)' },
  service_account_key: { kinds: ['gcs'], secret: true, about: 'a service account key file (default: $GOOGLE_APPLICATION_CREDENTIALS)' },
  timeout_ms: { kinds: ['s3', 'azure', 'gcs'], about: 'how long one request may stall before it is retried, then fails (default 30000)' },
  anonymous: { kinds: ['s3', 'azure', 'gcs'], about: 'true to send no credentials (public buckets, emulators)' },
};

/** Options by URL prefix (a bucket's, or a whole scheme's), the shorter prefixes first. */
export type PrefixedStoreOptions = { prefix: string; options: StoreOptions }[];

/** Checks names and values (no secret's value is ever quoted); every problem at once. */
export function storeOptionProblems(options: StoreOptions): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (!(name in STORE_OPTIONS)) problems.push(`unknown storage option '${name}' (known: ${Object.keys(STORE_OPTIONS).join(', ')})`);
    else if ((name === 'path_style' || name === 'anonymous') && value !== 'true' && value !== 'false') {
      problems.push(`storage option ${name} must be true or false, not '${value}'`);
    } else if (name === 'timeout_ms' && !/^[1-9][0-9]{0,6}$/.test(value)) {
      problems.push(`storage option timeout_ms must be a whole number of milliseconds, not '${value}'`);
    } else if (name === 'endpoint' && !/^https?:\/\/[^/]+/.test(value)) {
      problems.push(`storage option endpoint must be an http(s):// URL, not '${value}'`);
    }
  }
  return problems;
}

/** A list with the options for the locations under `prefix`, replacing any it had for it; checked first. */
export function withStoreOptions(list: PrefixedStoreOptions, prefix: string, options: StoreOptions): PrefixedStoreOptions {
  const problems = storeOptionProblems(options);
  if (problems.length > 0) throw validationError(problems);
  const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return [...list.filter((r) => r.prefix !== folder), { prefix: folder, options }].sort((a, b) => a.prefix.length - b.prefix.length);
}

/** The prefix that names a store's whole bucket (or container) in a list of prefixed options. */
export function bucketPrefix(store: StoreLocation): string {
  return `${storeUrl({ ...store, key: '' })}/`;
}

/** A store's options in a list of them: those of every prefix it is under, the longer prefix winning. */
export function optionsIn(list: PrefixedStoreOptions, store: StoreLocation): StoreOptions {
  const url = bucketPrefix(store);
  const merged: StoreOptions = {};
  for (const { prefix, options } of list) if (url.startsWith(prefix)) Object.assign(merged, options);
  return merged;
}
