// A real S3 server (moto) holding a copy of one of the shared tables, for the tests that read a table by its s3://
// URL; or why there is none here, for the test to report as skipped.
import { isSkipped, startS3, uploadFolder, type S3Store } from './object-stores.js';
import { tablePath } from './tables.js';

export type S3WithTable = { s3: S3Store; url: string } | { skipped: string };

/** Starts moto and uploads ../shared/delta-tables/<table> to s3://<bucket>/<table>. */
export async function startS3WithTable(bucket: string, table: string): Promise<S3WithTable> {
  const started = await startS3();
  if (isSkipped(started)) return started;
  await started.createBucket(bucket);
  await uploadFolder(started, bucket, table, tablePath(table));
  return { s3: started, url: `s3://${bucket}/${table}` };
}
