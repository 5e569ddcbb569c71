// Where a table lives when it is not on a local disk: the URL forms the clouds' own tools use, read into the store,
// its bucket (a container on Azure), the storage account where the URL names it, and the key prefix. Shared so that
// the app knows a cloud location when the user types one, before anything is read.

export type StoreKind = 's3' | 'azure' | 'gcs';

export interface StoreLocation {
  kind: StoreKind;
  bucket: string;
  /** Azure only: the storage account, when the URL names it (abfss://container@account.dfs.core.windows.net/...). */
  account: string | null;
  /** The key, or key prefix of a folder: no leading or trailing '/', not URL-encoded ('' is the bucket's root). */
  key: string;
}

const KINDS: Record<string, StoreKind> = {
  s3: 's3',
  s3a: 's3',
  gs: 'gcs',
  az: 'azure',
  abfs: 'azure',
  abfss: 'azure',
};

// scheme://authority/rest; the rest keeps its own spelling (keys may hold spaces, '%' or '#').
const URL_PARTS = /^([a-zA-Z][a-zA-Z0-9+.-]+):\/\/([^/]*)(?:\/(.*))?$/s;
// Azure's Data Lake form names the container and the account: container@account.dfs.core.windows.net.
const AZURE_AUTHORITY = /^([^@]+)@([a-z0-9]+)\.(?:dfs|blob)\.core\.windows\.net$/;
// S3 and GCS bucket names: lower-case letters, digits, dots and hyphens (GCS also allows '_'); Azure containers the same.
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,221}[a-z0-9]$/;

/** The store a URL names, or null for anything that is not a cloud URL (a local path, a file: URI). Throws a
 * one-line message for a cloud URL that cannot be right (a scheme this reader does not know, a bad bucket). */
export function parseStoreLocation(text: string): StoreLocation | null {
  const parts = URL_PARTS.exec(text);
  if (!parts || parts[1].toLowerCase() === 'file') return null;
  const scheme = parts[1].toLowerCase();
  const kind = KINDS[scheme];
  if (!kind)
    throw new Error(`unknown storage scheme '${scheme}://' (Deltaport reads s3://, s3a://, gs://, az://, abfss:// and local paths)`);
  let bucket = parts[2];
  let account: string | null = null;
  if (kind === 'azure') {
    const azure = AZURE_AUTHORITY.exec(bucket);
    if (azure) [, bucket, account] = azure;
    else if (scheme !== 'az') throw new Error(`${scheme}:// needs container@account.dfs.core.windows.net after it, not '${bucket}'`);
  }
  if (!BUCKET.test(bucket)) throw new Error(`'${bucket}' is not a valid ${kind === 'azure' ? 'container' : 'bucket'} name in ${text}`);
  return { kind, bucket, account, key: trimSlashes(parts[3] ?? '') };
}

/** One spelling per place, so that the same table typed two ways is one table: s3a:// becomes s3://, and an Azure
 * URL that names its account keeps it in the abfss:// form. */
export function storeUrl(location: StoreLocation): string {
  const key = location.key === '' ? '' : `/${location.key}`;
  switch (location.kind) {
    case 's3':
      return `s3://${location.bucket}${key}`;
    case 'gcs':
      return `gs://${location.bucket}${key}`;
    case 'azure':
      return location.account
        ? `abfss://${location.bucket}@${location.account}.dfs.core.windows.net${key}`
        : `az://${location.bucket}${key}`;
  }
}

export function isStoreUrl(text: string): boolean {
  const parts = URL_PARTS.exec(text);
  return parts !== null && parts[1].toLowerCase() in KINDS;
}

function trimSlashes(key: string): string {
  return key.replace(/^\/+|\/+$/g, '');
}
