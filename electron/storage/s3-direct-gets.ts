// Ranges of a bucket's objects read as plain GETs through node:http(s), signed by the S3 client's own signer, at the
// address the client's own last successful GetObject in that bucket went to. The client spends 1.3-2.2 ms of CPU a
// request in its middleware (docs/benchmark.md, "S3 reads sent past the client"), which a table of a few hundred small
// files pays on every one. Every rule stays the client's: where the bucket is (endpoint rules, path or virtual-hosted
// style, the region a redirect found) is learned from the client's request, and a direct GET that does not come back
// whole with the status asked for is sent again through the client, whose retries and error codes then apply. Only
// ranges: the client checks a whole object's checksum where the object carries one, and S3 gives none for a range.
import http from 'node:http';
import https from 'node:https';
import type { S3Client } from '@aws-sdk/client-s3';

/** Where the client sent a GetObject, all but its key. */
interface Address {
  protocol: string;
  hostname: string;
  port: number | undefined;
  /** The path before the key: '/' (virtual-hosted) or '/bucket/' (path style). */
  prefix: string;
  query: Record<string, string>;
  host: string;
  payloadHash: string | undefined;
  /** The region the request was signed for; null where the client signs nothing (anonymous). */
  region: string | null;
}

interface HttpRequestLike {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string | string[] | null>;
  headers: Record<string, string>;
}

// Per scheme, the module that sends and its agent. Sockets stay open between GETs where the server allows it; an idle
// socket keeps no process alive (Node unrefs it).
const TRANSPORTS = {
  'http:': { request: http.request, agent: new http.Agent({ keepAlive: true }) },
  'https:': { request: https.request, agent: new https.Agent({ keepAlive: true }) },
};
// Statuses that say the learned address or its signature is not the bucket's (a redirect, a wrong region, a refusal):
// direct GETs stop for the storage, the client handles every read after.
const WRONG_ADDRESS = new Set([301, 302, 307, 308, 400, 401, 403]);

export class DirectGets {
  private address: Address | null = null;
  private off = false;

  constructor(
    private readonly client: S3Client,
    private readonly timeoutMs: number,
  ) {
    // In the deserialize step, outside the deserializer: the request is the one signed and sent, and a response that
    // is not a success throws before anything is learned from it.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const key = (args.input as { Key?: unknown }).Key;
        if (context.commandName === 'GetObjectCommand' && typeof key === 'string') this.learn(args.request as HttpRequestLike, key);
        return result;
      },
      { step: 'deserialize', priority: 'high', name: 'deltaportDirectGetAddress' },
    );
  }

  /** The bytes of the object's `range` (a Range header's value), or null where the client is to send the read. */
  async get(key: string, range: string): Promise<Uint8Array | null> {
    const address = this.off ? null : this.address;
    if (!address) return null;
    const request: HttpRequestLike = {
      method: 'GET',
      protocol: address.protocol,
      hostname: address.hostname,
      port: address.port,
      path: address.prefix + keyPath(key),
      query: address.query,
      headers: { host: address.host, range },
    };
    if (address.payloadHash) request.headers['x-amz-content-sha256'] = address.payloadHash;
    try {
      const signed = address.region === null ? request : await this.sign(request, address.region);
      return await this.send(signed);
    } catch {
      // A connection refused, reset or stalled, a body cut short: the client's own retries take the read.
      return null;
    }
  }

  private learn(request: HttpRequestLike, key: string): void {
    const path = keyPath(key);
    if (!request.path.endsWith(path)) return;
    const authorization = request.headers.authorization ?? request.headers.Authorization;
    const region = authorization === undefined ? null : /Credential=[^/]+\/\d+\/([^/]+)\//.exec(authorization)?.[1];
    if (region === undefined) return;
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.query)) if (typeof value === 'string') query[name] = value;
    this.address = {
      protocol: request.protocol,
      hostname: request.hostname,
      port: request.port,
      prefix: request.path.slice(0, request.path.length - path.length),
      query,
      host: request.headers.host ?? request.hostname,
      payloadHash: request.headers['x-amz-content-sha256'],
      region,
    };
  }

  private async sign(request: HttpRequestLike, region: string): Promise<HttpRequestLike> {
    const signer = await this.client.config.signer();
    // The client's correction for a clock that differs from the service's, as its own requests apply it.
    const signingDate = new Date(Date.now() + (this.client.config.systemClockOffset ?? 0));
    return (await signer.sign(request as never, {
      signingRegion: region,
      signingService: 's3',
      signingDate,
    })) as unknown as HttpRequestLike;
  }

  /** The response's body, whole, where it is the range asked for (206); throws on anything else. */
  private send(request: HttpRequestLike): Promise<Uint8Array> {
    const search = Object.entries(request.query)
      .map(([name, value]) => `${uriEscape(name)}=${uriEscape(String(value))}`)
      .join('&');
    const transport = TRANSPORTS[request.protocol === 'https:' ? 'https:' : 'http:'];
    return new Promise((resolve, reject) => {
      const req = transport.request(
        {
          agent: transport.agent,
          method: request.method,
          hostname: request.hostname,
          port: request.port,
          path: search ? `${request.path}?${search}` : request.path,
          headers: request.headers,
        },
        (res) => {
          if (res.statusCode !== 206) {
            if (WRONG_ADDRESS.has(res.statusCode ?? 0)) this.off = true;
            res.resume();
            return reject(new Error(`status ${res.statusCode}`));
          }
          const length = Number(res.headers['content-length']);
          if (!Number.isSafeInteger(length)) {
            res.resume();
            return reject(new Error('no content length'));
          }
          // Each socket read copied once, into the one buffer the body fills (its own ArrayBuffer, never a pooled slice).
          const body = Buffer.allocUnsafeSlow(length);
          let at = 0;
          res.on('data', (chunk: Buffer) => {
            if (at + chunk.length > length) return void req.destroy(new Error('a body longer than its content length'));
            at += chunk.copy(body, at);
          });
          res.on('end', () => (at === length ? resolve(body) : reject(new Error('a body cut short'))));
          // A connection cut mid-body closes the response without its end (a settled promise ignores this).
          res.on('close', () => reject(new Error('a body cut short')));
          res.on('error', reject);
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error('stalled')));
      req.on('error', reject);
      req.end();
    });
  }
}

/** A key as the client writes it in a request's path: each segment escaped. */
function keyPath(key: string): string {
  return key.split('/').map(uriEscape).join('/');
}

/** Percent-encoding as SigV4 signs it: every character but letters, digits and -._~. */
function uriEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
