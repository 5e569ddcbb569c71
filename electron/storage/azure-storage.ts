// Azure Blob Storage, ADLS Gen2 accounts included (their data is readable through the Blob endpoint), through the
// Azure SDK. Credentials, in order: storage options, then the variables the Azure CLI's storage commands read
// (AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN).
import {
  AnonymousCredential,
  BlobServiceClient,
  newPipeline,
  StorageSharedKeyCredential,
  type ContainerClient,
  type RequestPolicyFactory,
  type StoragePipelineOptions,
} from '@azure/storage-blob';
import { buffer } from 'node:stream/consumers';
import { storeUrl, type StoreLocation } from '../../shared/store-location.js';
import { BucketKeys } from './bucket-keys.js';
import { countList } from './fetch-counter.js';
import { rangeBlob } from './ranged-file.js';
import { ATTEMPTS, DEFAULT_TIMEOUT_MS, received, statusReason, storeCall, wholeBody } from './store-failure.js';
import type { StoreOptions } from './store-options.js';
import { FOLDER_PAGE_SIZE, StorageError } from './storage.js';
import type { FolderPage, ListedObject, ObjectMeta, Storage, StorageFailure } from './storage.js';

const CODES: Record<string, StorageFailure> = {
  BlobNotFound: 'not-found',
  ContainerNotFound: 'no-bucket',
  ResourceNotFound: 'not-found',
  AuthenticationFailed: 'denied',
  AuthorizationFailure: 'denied',
  AuthorizationPermissionMismatch: 'denied',
  InsufficientAccountPermissions: 'denied',
  ServerBusy: 'throttled',
};

/** The SDK's per-try timeout only asks the service to give up (a `timeout` URL parameter): a server that stalls
 * would be waited on for ever. This limits each try's wait for the response on the client too, so that the retries
 * and then a one-line failure follow. */
function responseTimeout(ms: number): RequestPolicyFactory {
  return {
    create: (next) => ({
      sendRequest(request) {
        request.timeout = ms;
        return next.sendRequest(request);
      },
    }),
  };
}

export class AzureStorage implements Storage {
  private readonly container: ContainerClient;
  private readonly keys: BucketKeys;
  private readonly account: string;

  constructor(store: StoreLocation, options: StoreOptions) {
    const env = process.env;
    this.keys = new BucketKeys(storeUrl({ ...store, key: '' }));
    const account = store.account ?? options.account_name ?? env.AZURE_STORAGE_ACCOUNT_NAME ?? env.AZURE_STORAGE_ACCOUNT;
    const timeout = Number(options.timeout_ms ?? DEFAULT_TIMEOUT_MS);
    const pipeline: StoragePipelineOptions = { retryOptions: { maxTries: ATTEMPTS, tryTimeoutInMs: timeout } };
    const connectionString = env.AZURE_STORAGE_CONNECTION_STRING;
    let service: BlobServiceClient;
    if (!account && connectionString) {
      service = BlobServiceClient.fromConnectionString(connectionString, pipeline);
    } else {
      if (!account) {
        throw new StorageError(
          'denied',
          `cannot open ${this.keys.root}: no storage account is named (use abfss://container@account.dfs.core.windows.net/..., the storage option account_name, or AZURE_STORAGE_ACCOUNT)`,
        );
      }
      const endpoint = (options.endpoint ?? `https://${account}.blob.core.windows.net`).replace(/\/+$/, '');
      const key = options.account_key ?? env.AZURE_STORAGE_KEY;
      const sas = (options.sas_token ?? env.AZURE_STORAGE_SAS_TOKEN)?.replace(/^\?/, '');
      if (options.anonymous !== 'true' && !key && !sas) {
        throw new StorageError(
          'denied',
          `cannot open ${this.keys.root}: no credentials for storage account ${account} (give the storage option account_key or sas_token, or set AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN or AZURE_STORAGE_CONNECTION_STRING)`,
        );
      }
      const credential = key && options.anonymous !== 'true' ? new StorageSharedKeyCredential(account, key) : new AnonymousCredential();
      const stages = newPipeline(credential, pipeline);
      stages.factories.push(responseTimeout(timeout));
      service = new BlobServiceClient(sas ? `${endpoint}?${sas}` : endpoint, stages);
    }
    this.account = account ?? service.accountName;
    this.container = service.getContainerClient(store.bucket);
  }

  async list(folder: string, startAfter?: string): Promise<ListedObject[]> {
    const prefix = this.keys.folderKey(folder);
    countList();
    const out: ListedObject[] = [];
    await this.call('list', folder, async () => {
      // startFrom is inclusive, and older services ignore it: the names are filtered here too.
      const startFrom = startAfter === undefined ? undefined : prefix + startAfter;
      for await (const item of this.container.listBlobsByHierarchy('/', { prefix, startFrom })) {
        if (item.kind === 'prefix') continue;
        const name = item.name.slice(prefix.length);
        if (name === '' || (startAfter !== undefined && name <= startAfter)) continue;
        out.push({ name, size: item.properties.contentLength ?? 0, modifiedMs: item.properties.lastModified.getTime() });
      }
    });
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async listFolder(folder: string, options: { prefix?: string; page?: string } = {}): Promise<FolderPage> {
    const key = this.keys.folderKey(folder);
    countList();
    return this.call('list', folder, async () => {
      const listed = await this.container
        .listBlobsByHierarchy('/', { prefix: key + (options.prefix ?? '') })
        .byPage({ continuationToken: options.page, maxPageSize: FOLDER_PAGE_SIZE })
        .next();
      if (listed.done) return { folders: [], files: [], next: null };
      const { segment, continuationToken } = listed.value;
      return {
        folders: (segment.blobPrefixes ?? []).map((p) => p.name.slice(key.length, -1)),
        files: segment.blobItems
          .filter((item) => item.name !== key)
          .map((item) => ({
            name: item.name.slice(key.length),
            size: item.properties.contentLength ?? 0,
            modifiedMs: item.properties.lastModified.getTime(),
          })),
        next: continuationToken ? continuationToken : null,
      };
    });
  }

  read(location: string): Promise<Uint8Array> {
    return this.download(location, 0);
  }

  readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    if (length === 0) return Promise.resolve(new Uint8Array(0));
    return this.download(location, offset, length);
  }

  async stat(location: string): Promise<ObjectMeta> {
    const props = await this.call('read', location, () => this.container.getBlobClient(this.keys.key(location)).getProperties());
    return { size: props.contentLength ?? 0, modifiedMs: props.lastModified?.getTime() ?? 0 };
  }

  async blob(location: string, size: number): Promise<Blob> {
    return rangeBlob(this, location, size);
  }

  /** Blocks staged, then committed in one call: the blob exists only from the commit on. Blocks of a failed upload
   * are never committed, and the service drops uncommitted blocks. */
  async upload(localFile: string, location: string): Promise<void> {
    await this.call('write', location, () => this.container.getBlockBlobClient(this.keys.key(location)).uploadFile(localFile));
  }

  async hasFolder(folder: string): Promise<boolean> {
    return this.call('list', folder, async () => {
      const page = await this.container
        .listBlobsFlat({ prefix: this.keys.folderKey(folder) })
        .byPage({ maxPageSize: 1 })
        .next();
      return !page.done && page.value.segment.blobItems.length > 0;
    });
  }

  private download(location: string, offset: number, length?: number): Promise<Uint8Array> {
    return this.call('read', location, async () => {
      const blob = this.container.getBlobClient(this.keys.key(location));
      const bytes = await wholeBody(
        () => blob.download(offset, length, { maxRetryRequests: ATTEMPTS }),
        async (response) => buffer(response.readableStreamBody!),
      );
      return received(location, bytes, length);
    });
  }

  private call<T>(what: string, location: string, run: () => Promise<T>): Promise<T> {
    return storeCall(what, location, run, async (err) => {
      const e = err as { code?: string; statusCode?: number; details?: { errorCode?: string } };
      const reason = CODES[e.details?.errorCode ?? e.code ?? ''] ?? statusReason(e.statusCode);
      return { reason, identity: reason === 'denied' ? `storage account ${this.account}` : undefined };
    });
  }
}
