// One call to moto's Glue API as the test user (aws4fetch's signing): tests make Glue's databases and tables through
// Glue's own API, never through the code under test.
import { AwsClient } from 'aws4fetch';
import type { S3Store } from './object-stores.js';

export async function glueCall(store: S3Store, action: string, body: object): Promise<void> {
  const aws = new AwsClient({
    accessKeyId: store.accessKeyId,
    secretAccessKey: store.secretAccessKey,
    region: store.region,
    service: 'glue',
    retries: 0,
  });
  const response = await aws.fetch(store.endpoint, {
    method: 'POST',
    headers: { 'x-amz-target': `AWSGlue.${action}`, 'content-type': 'application/x-amz-json-1.1' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`Glue ${action} failed: ${response.status} ${await response.text()}`);
}
