// A loopback stand-in for Unity Catalog's credentials call in front of the real server (test/support/unity-catalog.ts):
// the open-source server vends S3 credentials only from its s3.* properties, and none it can make is one moto's IAM
// accepts (with a session token it vends that token's keys as they are; moto's STS gives fixed example keys its own S3
// refuses; without one it asks AWS STS, which it cannot be pointed away from). So POST .../temporary-table-credentials
// is answered here with a new access key of moto's IAM each time, with the expiry the test says; every other request
// goes to the real server (finding the table, its location).
import { createServer, type Server } from 'node:http';
import { AwsClient } from 'aws4fetch';
import type { S3Store } from './object-stores.js';
import type { UnityCatalogServer } from './unity-catalog.js';

export interface VendingStandIn {
  endpoint: string;
  /** The access keys vended, in order. */
  keys: string[];
  /** When each of them expires by the stand-in's word (epoch ms). */
  expiries: number[];
  revoke(key: string): Promise<void>;
  /** From now on the credentials call is refused as the real server refuses a user without SELECT (403). */
  refuse(): void;
  stop(): Promise<void>;
}

/** One call to moto's IAM query API, signed with the test user's keys; the answer's XML. */
async function iamCall(s3: S3Store, params: Record<string, string>): Promise<string> {
  const aws = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: s3.region,
    service: 'iam',
    retries: 0,
  });
  const response = await aws.fetch(s3.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`IAM ${params.Action} failed: ${response.status} ${text}`);
  return text;
}

function xmlValue(xml: string, name: string): string {
  const value = new RegExp(`<${name}>(.*?)</${name}>`).exec(xml)?.[1];
  if (value === undefined) throw new Error(`no ${name} in ${xml.slice(0, 200)}`);
  return value;
}

/** A loopback server that answers POST .../temporary-table-credentials itself (a new access key of the test user in
 * moto's IAM each time, valid for the next of `lifeMs` by its word, the last repeated) and passes every other request to the real Unity Catalog
 * server. IAM allows a user two keys: the test's own and one vended at a time. */
export async function startVendingStandIn(
  uc: UnityCatalogServer,
  s3: S3Store,
  lifeMs: number[],
  { revokeAtOnce = false } = {},
): Promise<VendingStandIn> {
  const iam = (params: Record<string, string>) => iamCall(s3, { ...params, Version: '2010-05-08' });
  const user = 'deltaport-test';
  const live = new Set<string>();
  const revoke = async (key: string) => {
    await iam({ Action: 'DeleteAccessKey', UserName: user, AccessKeyId: key });
    live.delete(key);
  };
  const keys: string[] = [];
  const expiries: number[] = [];
  let refusing = false;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await new Promise<Buffer>((resolve) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks)));
      });
      if (req.method === 'POST' && req.url?.endsWith('/temporary-table-credentials') && refusing) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error_code: 'PERMISSION_DENIED', message: 'User does not have SELECT on the table' }));
        return;
      }
      if (req.method === 'POST' && req.url?.endsWith('/temporary-table-credentials')) {
        for (const key of [...live]) await revoke(key);
        const xml = await iam({ Action: 'CreateAccessKey', UserName: user });
        const [id, secret] = [xmlValue(xml, 'AccessKeyId'), xmlValue(xml, 'SecretAccessKey')];
        keys.push(id);
        live.add(id);
        if (revokeAtOnce) await revoke(id);
        expiries.push(Date.now() + lifeMs[Math.min(keys.length - 1, lifeMs.length - 1)]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ aws_temp_credentials: { access_key_id: id, secret_access_key: secret }, expiration_time: expiries.at(-1) }),
        );
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) if (req.headers[name]) headers[name] = String(req.headers[name]);
      const answer = await fetch(`${uc.endpoint}${req.url}`, { method: req.method, headers, body: body.length > 0 ? body : undefined });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((err: Error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_code: 'INTERNAL', message: `the test's stand-in failed: ${err.message}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    keys,
    expiries,
    revoke,
    refuse: () => void (refusing = true),
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const key of [...live]) await revoke(key);
    },
  };
}
