// S3 and S3-compatible stores (MinIO, Ceph, R2) through the AWS SDK, whose default credential chain is the AWS
// CLI's: environment variables, ~/.aws/config and ~/.aws/credentials with profiles (AWS_PROFILE), SSO, web
// identity, the instance's role. The region is found from the bucket when none is configured.
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createReadStream } from 'node:fs';
import { storeUrl, type StoreLocation } from '../../shared/store-location.js';
import { BucketKeys } from './bucket-keys.js';
import { countList } from './fetch-counter.js';
import { rangeBlob } from './ranged-file.js';
import { DirectGets } from './s3-direct-gets.js';
import { ATTEMPTS, DEFAULT_TIMEOUT_MS, received, statusReason, storeCall, wholeBody } from './store-failure.js';
import type { StoreOptions } from './store-options.js';
import { FOLDER_PAGE_SIZE, type FolderPage, type ListedObject, type ObjectMeta, type Storage, type StorageFailure } from './storage.js';

const CODES: Record<string, StorageFailure> = {
  NoSuchKey: 'not-found',
  NotFound: 'not-found',
  NoSuchBucket: 'no-bucket',
  AccessDenied: 'denied',
  Forbidden: 'denied',
  InvalidAccessKeyId: 'denied',
  SignatureDoesNotMatch: 'denied',
  CredentialsProviderError: 'denied',
  ExpiredToken: 'expired',
  TokenRefreshRequired: 'expired',
  SlowDown: 'throttled',
  Throttling: 'throttled',
  ThrottlingException: 'throttled',
  RequestLimitExceeded: 'throttled',
};

// The SDK's advice to move to a newer Node comes as a many-line warning on stderr, in the middle of the CLI's output;
// Deltaport supports the Node it runs on (package.json engines).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly keys: BucketKeys;
  private readonly direct: DirectGets;

  constructor(
    store: StoreLocation,
    private readonly options: StoreOptions,
  ) {
    this.bucket = store.bucket;
    this.keys = new BucketKeys(storeUrl({ ...store, key: '' }));
    const timeout = Number(options.timeout_ms ?? DEFAULT_TIMEOUT_MS);
    const config: S3ClientConfig = {
      region: options.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      followRegionRedirects: true,
      forcePathStyle: options.path_style === 'true',
      maxAttempts: ATTEMPTS,
      // A stall is a socket idle for the timeout (this handler's requestTimeout bounds a whole download instead, and
      // only warns when it passes).
      requestHandler: new NodeHttpHandler({ connectionTimeout: timeout, socketTimeout: timeout }),
    };
    if (options.endpoint) config.endpoint = options.endpoint;
    if (options.profile) config.profile = options.profile;
    if (options.access_key_id && options.secret_access_key) {
      config.credentials = {
        accessKeyId: options.access_key_id,
        secretAccessKey: options.secret_access_key,
        sessionToken: options.session_token,
      };
    }
    // Public buckets: requests go unsigned.
    if (options.anonymous === 'true') config.signer = { sign: async (request) => request };
    this.client = new S3Client(config);
    this.direct = new DirectGets(this.client, timeout);
  }

  async list(folder: string, startAfter?: string): Promise<ListedObject[]> {
    const prefix = this.keys.folderKey(folder);
    const out: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.call('list', folder, () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            Delimiter: '/',
            StartAfter: startAfter === undefined ? undefined : prefix + startAfter,
            ContinuationToken: token,
          }),
        ),
      );
      countList();
      for (const item of page.Contents ?? []) {
        if (!item.Key || item.Key === prefix) continue;
        out.push({ name: item.Key.slice(prefix.length), size: item.Size ?? 0, modifiedMs: item.LastModified?.getTime() ?? null });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  async listFolder(folder: string, options: { prefix?: string; page?: string } = {}): Promise<FolderPage> {
    const key = this.keys.folderKey(folder);
    const page = await this.call('list', folder, () =>
      this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: key + (options.prefix ?? ''),
          Delimiter: '/',
          MaxKeys: FOLDER_PAGE_SIZE,
          ContinuationToken: options.page,
        }),
      ),
    );
    countList();
    return {
      folders: (page.CommonPrefixes ?? []).flatMap((p) => (p.Prefix ? [p.Prefix.slice(key.length, -1)] : [])),
      files: (page.Contents ?? []).flatMap((item) =>
        item.Key && item.Key !== key
          ? [{ name: item.Key.slice(key.length), size: item.Size ?? 0, modifiedMs: item.LastModified?.getTime() ?? null }]
          : [],
      ),
      next: page.IsTruncated ? (page.NextContinuationToken ?? null) : null,
    };
  }

  read(location: string): Promise<Uint8Array> {
    return this.get(location);
  }

  readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    if (length === 0) return Promise.resolve(new Uint8Array(0));
    return this.get(location, `bytes=${offset}-${offset + length - 1}`, length);
  }

  async stat(location: string): Promise<ObjectMeta> {
    const head = await this.call('read', location, () =>
      this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keys.key(location) })),
    );
    return { size: head.ContentLength ?? 0, modifiedMs: head.LastModified?.getTime() ?? 0 };
  }

  async blob(location: string, size: number): Promise<Blob> {
    return rangeBlob(this, location, size);
  }

  /** A multipart upload: S3 shows the object only when the upload completes; on a failure the SDK aborts it. */
  async upload(localFile: string, location: string): Promise<void> {
    await this.call('write', location, () =>
      new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: this.keys.key(location), Body: createReadStream(localFile) },
        leavePartsOnError: false,
      }).done(),
    );
  }

  async hasFolder(folder: string): Promise<boolean> {
    const page = await this.call('list', folder, () =>
      this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.keys.folderKey(folder), MaxKeys: 1 })),
    );
    return (page.KeyCount ?? 0) > 0;
  }

  private async get(location: string, range?: string, length?: number): Promise<Uint8Array> {
    const key = this.keys.key(location);
    return this.call('read', location, async () => {
      const bytes =
        (range === undefined ? null : await this.direct.get(key, range)) ??
        (await wholeBody(
          () => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range })),
          (response) => response.Body!.transformToByteArray(),
        ));
      return received(location, bytes, length);
    });
  }

  private call<T>(what: string, location: string, run: () => Promise<T>): Promise<T> {
    return storeCall(what, location, run, async (err) => {
      const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      let reason = CODES[e.Code ?? ''] ?? CODES[e.name ?? ''] ?? (status === 404 ? null : statusReason(status));
      // A HEAD has no body to tell a missing bucket from a missing key; only a listing can.
      if (reason === 'not-found' && what === 'read' && status === 404 && e.name === 'NotFound') reason = await this.missingWhat();
      return { reason, identity: reason === 'denied' ? await this.identity() : undefined };
    });
  }

  private async missingWhat(): Promise<StorageFailure> {
    try {
      await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, MaxKeys: 1 }));
      return 'not-found';
    } catch (err) {
      return (err as { name?: string }).name === 'NoSuchBucket' ? 'no-bucket' : 'not-found';
    }
  }

  /** The access key the refused request was signed with, to tell the user which identity lacks the permission. */
  private async identity(): Promise<string | undefined> {
    if (this.options.anonymous === 'true') return 'anonymous requests';
    try {
      const credentials = await this.client.config.credentials();
      return `access key ${credentials.accessKeyId}`;
    } catch {
      return undefined;
    }
  }
}
