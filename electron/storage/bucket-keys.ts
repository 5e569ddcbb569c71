// Object keys from locations: a bucket's client is given full URLs (s3://bucket/a/b) and speaks in keys (a/b).
export class BucketKeys {
  /** `root`: the bucket's URL without a trailing '/' (s3://bucket, gs://bucket, az://container, abfss://...). */
  constructor(readonly root: string) {}

  key(location: string): string {
    return location.slice(this.root.length + 1);
  }

  /** A folder's key prefix: '' for the bucket, else ending in '/', so that a listing stays inside the folder. */
  folderKey(folder: string): string {
    const key = folder.slice(this.root.length).replace(/^\/+/, '');
    return key === '' || key.endsWith('/') ? key : `${key}/`;
  }
}
