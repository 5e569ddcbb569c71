// S3Storage's reads of bytes (read, readRange) against moto: the bytes are the object's, byte for byte; a wrong secret
// is refused in one line naming the key; and, through a loopback proxy that stalls or cuts the first connection for
// real mid-body (past the headers, where the SDK's own retries end), the read is sent again and gives the whole range,
// and a range cut on every connection fails rather than coming back short. After the client's first GET, ranged reads
// go straight to the address it used (s3-direct-gets.ts), signed so that moto's signature check takes them, and whole
// objects still through the client; one cut or stalled goes through the client instead, and a refused one turns them
// off. A loopback server stands in for AWS's
// answer to a request signed for the wrong region, which moto never gives.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { S3Storage } from '../../../electron/storage/s3-storage.js';
import { StorageError } from '../../../electron/storage/storage.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../../support/fault-proxy.js';
import { startGatedProxy } from '../../support/gated-http-proxy.js';
import { serverOptions, type S3Store } from '../../support/object-stores.js';
import { SERVERS, serverForSuite } from '../../support/object-stores-suite.js';

const BUCKET = 'reads';
// Characters a key may hold that a URL path must escape, some of which encodeURIComponent leaves as they are.
const KEY = "folder/with space/it's (1)*!.bin";
const LOCATION = `s3://${BUCKET}/${KEY}`;
// Large enough to come in many socket reads, so that a fault strikes mid-body.
const OBJECT = randomBytes(3 << 20);
/** Whether a request was sent by the AWS SDK (every one of its requests names it as the user agent). */
const bySdk = (userAgent: string) => userAgent.includes('aws-sdk-js');

const suite = serverForSuite(SERVERS[0], async (store) => {
  await store.createBucket(BUCKET);
  await store.putObject(BUCKET, KEY, OBJECT);
});

let proxy: FaultProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
});

function storage(options: Record<string, string> = serverOptions(suite.store as S3Store).options): S3Storage {
  return new S3Storage({ kind: 's3', bucket: BUCKET, account: null, key: '' }, options);
}

interface Refusal {
  status: number;
  code: string;
  headers?: Record<string, string>;
}

/** Runs `test` with options that reach a loopback server standing in for a bucket (path style, made-up keys): it
 * refuses a request as `refusal` says (an S3 error of that status and code), or else serves the 4 bytes 'abcd'. */
async function withLoopbackBucket(
  refusal: (req: http.IncomingMessage) => Refusal | null,
  test: (options: Record<string, string>) => Promise<void>,
): Promise<void> {
  const server = http.createServer((req, res) => {
    const refused = refusal(req);
    if (refused) {
      res.writeHead(refused.status, { 'content-type': 'application/xml', ...refused.headers });
      return void res.end(`<Error><Code>${refused.code}</Code><Message>refused</Message></Error>`);
    }
    res.writeHead(206, { 'content-length': '4' });
    res.end(Buffer.from('abcd'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await test({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      path_style: 'true',
      access_key_id: 'AKIALOOPBACK',
      secret_access_key: 'secret',
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The storage reached through a proxy whose n-th connection (from 0) meets `faultFor(n)`. */
async function throughProxy(faultFor: (connection: number) => Fault | null): Promise<S3Storage> {
  const { options } = serverOptions(suite.store as S3Store);
  proxy = await startFaultProxy(options.endpoint, faultFor);
  return storage({ ...options, endpoint: proxy.url.replace(/\/$/, ''), timeout_ms: '500' });
}

describe('S3 reads of bytes', () => {
  it('reads ranges and the whole object byte for byte as they were put', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    // The object as the server itself gives it back, through aws4fetch rather than the code under test.
    const stored = await suite.store.getObject(BUCKET, KEY);
    expect(Buffer.from(stored!).equals(OBJECT)).toBe(true);
    const s3 = storage();
    for (const [offset, length] of [
      [0, 1],
      [0, 8],
      [OBJECT.length - 8, 8],
      [OBJECT.length - 1, 1],
      [12_345, 1 << 20],
      [0, OBJECT.length],
    ]) {
      const bytes = await s3.readRange(LOCATION, offset, length);
      expect(bytes.length).toBe(length);
      expect(Buffer.from(bytes).equals(OBJECT.subarray(offset, offset + length))).toBe(true);
    }
    expect(Buffer.from(await s3.read(LOCATION)).equals(OBJECT)).toBe(true);
  });

  it('refuses a range past the end as a short object, and a missing key as no such object', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const s3 = storage();
    const short = await s3.readRange(LOCATION, OBJECT.length - 4, 8).catch((err: unknown) => err);
    expect((short as StorageError).reason).toBe('truncated');
    const missing = await s3.read(`s3://${BUCKET}/no/such/key`).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(StorageError);
    expect((missing as StorageError).reason).toBe('not-found');
    expect((missing as StorageError).message).toBe(`cannot read s3://${BUCKET}/no/such/key: no such object`);
  });

  it('refuses a wrong secret in one line naming the access key', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const { options, refused } = serverOptions(suite.store as S3Store, true);
    const err = await storage(options)
      .readRange(LOCATION, 0, 8)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).reason).toBe('denied');
    expect((err as StorageError).message).toBe(`cannot read ${LOCATION}: access denied for ${refused}`);
  });

  it('tries a GET again after the server stalls mid-body past timeout_ms, and gives the whole range', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const s3 = await throughProxy((n) => (n === 0 ? { action: 'stall', atByte: 100_000 } : null));
    const bytes = await s3.readRange(LOCATION, 1000, 2 << 20);
    expect(Buffer.from(bytes).equals(OBJECT.subarray(1000, 1000 + (2 << 20)))).toBe(true);
    expect(proxy!.faults).toBe(1);
    expect(proxy!.connections).toBeGreaterThanOrEqual(2);
  });

  it('tries a GET again after the response is cut mid-body, and gives the whole object', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const s3 = await throughProxy((n) => (n === 0 ? { action: 'cut', atByte: 200_000 } : null));
    expect(Buffer.from(await s3.read(LOCATION)).equals(OBJECT)).toBe(true);
    expect(proxy!.faults).toBe(1);
  });

  it('fails in one line, never with short bytes, when every response is cut', async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const s3 = await throughProxy(() => ({ action: 'cut', atByte: 200_000 }));
    const err = await s3.readRange(LOCATION, 0, 2 << 20).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).reason).toBe('unreachable');
    expect((err as StorageError).message).not.toContain('\n');
    expect((err as StorageError).message.startsWith(`cannot read ${LOCATION}: the storage service cannot be reached`)).toBe(true);
    // Every attempt was a connection of its own, each cut.
    expect(proxy!.faults).toBeGreaterThanOrEqual(4);
  });

  it("sends ranged reads after the client's first straight to the address it used, signed as the server checks", async (ctx) => {
    suite.skipIfUnavailable(ctx);
    const { options } = serverOptions(suite.store as S3Store);
    const recorder = await startGatedProxy(options.endpoint, () => false);
    try {
      const s3 = storage({ ...options, endpoint: recorder.url });
      expect(Buffer.from(await s3.readRange(LOCATION, 0, 8)).equals(OBJECT.subarray(0, 8))).toBe(true);
      expect(Buffer.from(await s3.readRange(LOCATION, 12_345, 1 << 20)).equals(OBJECT.subarray(12_345, 12_345 + (1 << 20)))).toBe(true);
      expect(Buffer.from(await s3.readRange(LOCATION, 0, OBJECT.length)).equals(OBJECT)).toBe(true);
      // A whole object, whose checksum the client checks, is still read by the client.
      expect(Buffer.from(await s3.read(LOCATION)).equals(OBJECT)).toBe(true);
      // moto checks each request's signature (IAM auth is on): a refused direct GET would have been sent again by
      // the SDK, and shown here as one more request.
      expect(recorder.userAgents.map(bySdk)).toEqual([true, false, false, true]);
      expect(new Set(recorder.requests).size).toBe(1);
    } finally {
      await recorder.close();
    }
  });

  it.for<[string, Fault]>([
    ['cut mid-body', { action: 'cut', atByte: 200_000 }],
    ['stalled mid-body past timeout_ms', { action: 'stall', atByte: 100_000 }],
  ])('sends a direct GET %s again through the client, and gives the whole object', async ([, fault], ctx) => {
    suite.skipIfUnavailable(ctx);
    // moto closes every connection after its response: connection 0 is the client's first GET, 1 the direct one.
    const s3 = await throughProxy((n) => (n === 1 ? fault : null));
    expect(Buffer.from(await s3.readRange(LOCATION, 0, 8)).equals(OBJECT.subarray(0, 8))).toBe(true);
    expect(Buffer.from(await s3.readRange(LOCATION, 0, OBJECT.length)).equals(OBJECT)).toBe(true);
    expect(proxy!.faults).toBe(1);
    expect(proxy!.connections).toBe(3);
  });

  it('stops sending direct GETs once the server refuses one', async () => {
    // The SDK's requests are served and any other refused, as a bucket would refuse a direct GET whose address or
    // signature went wrong.
    const sdk: boolean[] = [];
    const refusal = (req: http.IncomingMessage) => {
      sdk.push(bySdk(req.headers['user-agent'] ?? ''));
      return sdk.at(-1) ? null : { status: 403, code: 'AccessDenied' };
    };
    await withLoopbackBucket(refusal, async (options) => {
      const s3 = storage({ ...options, region: 'eu-west-1' });
      for (let k = 0; k < 3; k++) expect(Buffer.from(await s3.readRange(LOCATION, 0, 4)).toString()).toBe('abcd');
      expect(sdk).toEqual([true, false, true, true]);
    });
  });

  it("follows a GET sent to the wrong region to the bucket's own, signed for it", async () => {
    // moto serves every region; AWS answers a request signed for another region than the bucket's with 301 and the
    // bucket's region in x-amz-bucket-region. The loopback bucket answers so, and serves the bytes to a request signed
    // for that region (the region is the credential scope's third part).
    const regions: string[] = [];
    const sdk: boolean[] = [];
    const refusal = (req: http.IncomingMessage) => {
      const region = /Credential=[^/]+\/\d+\/([^/]+)\//.exec(req.headers.authorization ?? '')?.[1] ?? '';
      regions.push(region);
      sdk.push(bySdk(req.headers['user-agent'] ?? ''));
      return region === 'eu-west-1' ? null : { status: 301, code: 'PermanentRedirect', headers: { 'x-amz-bucket-region': 'eu-west-1' } };
    };
    await withLoopbackBucket(refusal, async (options) => {
      const s3 = storage({ ...options, region: 'us-east-1' });
      expect(Buffer.from(await s3.readRange(LOCATION, 0, 4)).toString()).toBe('abcd');
      expect(regions).toEqual(['us-east-1', 'eu-west-1']);
      // The next read goes straight to the bucket, signed for the region the redirect found.
      expect(Buffer.from(await s3.readRange(LOCATION, 0, 4)).toString()).toBe('abcd');
      expect(regions).toEqual(['us-east-1', 'eu-west-1', 'eu-west-1']);
      expect(sdk).toEqual([true, true, false]);
    });
  });
});
