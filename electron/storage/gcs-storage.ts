// Google Cloud Storage through Google's client, whose credentials are Application Default Credentials
// (GOOGLE_APPLICATION_CREDENTIALS, gcloud's login, the instance's service account); STORAGE_EMULATOR_HOST or the
// storage option endpoint point it at another server, in any of the forms other tools take (gcsEndpoint).
// Objects are read by one request each (the JSON API's media download, with the client's credentials), not through
// the client's download: that one pipes each response body through three stream pipelines (its HTTP layer's, its
// validation's and the download's), which leave a dozen error and close listeners on the one body stream and make
// Node print a MaxListenersExceededWarning for every read.
import { Storage as GcsClient, type StorageOptions } from '@google-cloud/storage';
import { backoffMs } from '../../shared/backoff.js';
import { storeUrl, type StoreLocation } from '../../shared/store-location.js';
import { BucketKeys } from './bucket-keys.js';
import { countList } from './fetch-counter.js';
import { rangeBlob } from './ranged-file.js';
import { ATTEMPTS, DEFAULT_TIMEOUT_MS, isNetworkFailure, received, statusReason, storeCall, wholeBody } from './store-failure.js';
import type { StoreOptions } from './store-options.js';
import { FOLDER_PAGE_SIZE, type FolderPage, type ListedObject, type ObjectMeta, type Storage } from './storage.js';

export class GcsStorage implements Storage {
  private readonly client: GcsClient;
  private readonly bucket;
  private readonly keys: BucketKeys;
  private readonly timeoutMs: number;
  /** Whether requests carry Google's credentials: not to an emulator or another endpoint, as the client does. */
  private readonly signed: boolean;

  constructor(store: StoreLocation, options: StoreOptions) {
    this.timeoutMs = Number(options.timeout_ms ?? DEFAULT_TIMEOUT_MS);
    this.keys = new BucketKeys(storeUrl({ ...store, key: '' }));
    const config: StorageOptions = {
      retryOptions: { autoRetry: true, maxRetries: ATTEMPTS - 1 },
      timeout: this.timeoutMs,
    };
    const given = options.endpoint ?? process.env.STORAGE_EMULATOR_HOST;
    const endpoint = given ? gcsEndpoint(given) : null;
    if (endpoint) config.apiEndpoint = endpoint;
    if (options.service_account_key) config.keyFilename = options.service_account_key;
    this.client = new GcsClient(config);
    // The client takes STORAGE_EMULATOR_HOST itself as the JSON API's URL, /storage/v1 included, whatever is passed.
    if (endpoint) this.client.baseUrl = `${endpoint}/storage/v1`;
    this.signed = endpoint === null;
    this.bucket = this.client.bucket(store.bucket);
  }

  async list(folder: string, startAfter?: string): Promise<ListedObject[]> {
    const prefix = this.keys.folderKey(folder);
    countList();
    const [files] = await this.call('list', folder, () =>
      // startOffset is inclusive: the name itself is dropped below.
      this.bucket.getFiles({
        prefix,
        delimiter: '/',
        autoPaginate: true,
        startOffset: startAfter === undefined ? undefined : prefix + startAfter,
      }),
    );
    const out: ListedObject[] = [];
    for (const file of files) {
      const name = file.name.slice(prefix.length);
      if (name === '' || (startAfter !== undefined && name <= startAfter)) continue;
      out.push({
        name,
        size: Number(file.metadata.size ?? 0),
        modifiedMs: file.metadata.updated ? Date.parse(file.metadata.updated) : null,
      });
    }
    return out;
  }

  async listFolder(folder: string, options: { prefix?: string; page?: string } = {}): Promise<FolderPage> {
    const key = this.keys.folderKey(folder);
    countList();
    const [files, nextQuery, response] = await this.call('list', folder, () =>
      this.bucket.getFiles({
        prefix: key + (options.prefix ?? ''),
        delimiter: '/',
        autoPaginate: false,
        maxResults: FOLDER_PAGE_SIZE,
        pageToken: options.page,
      }),
    );
    // The subfolders come only in the raw answer of the call (its `prefixes`).
    const prefixes = (response as { prefixes?: string[] } | undefined)?.prefixes ?? [];
    return {
      folders: prefixes.map((p) => p.slice(key.length, -1)),
      files: files
        .filter((file) => file.name !== key)
        .map((file) => ({
          name: file.name.slice(key.length),
          size: Number(file.metadata.size ?? 0),
          modifiedMs: file.metadata.updated ? Date.parse(file.metadata.updated) : null,
        })),
      next: nextQuery && 'pageToken' in nextQuery && nextQuery.pageToken ? nextQuery.pageToken : null,
    };
  }

  read(location: string): Promise<Uint8Array> {
    return this.download(location);
  }

  readRange(location: string, offset: number, length: number): Promise<Uint8Array> {
    if (length === 0) return Promise.resolve(new Uint8Array(0));
    return this.download(location, offset, offset + length - 1);
  }

  async stat(location: string): Promise<ObjectMeta> {
    const [metadata] = await this.call('read', location, () => this.bucket.file(this.keys.key(location)).getMetadata());
    return { size: Number(metadata.size ?? 0), modifiedMs: metadata.updated ? Date.parse(metadata.updated) : 0 };
  }

  async blob(location: string, size: number): Promise<Blob> {
    return rangeBlob(this, location, size);
  }

  /** A resumable upload: the object appears when it is finalized, not before. */
  async upload(localFile: string, location: string): Promise<void> {
    await this.call('write', location, () => this.bucket.upload(localFile, { destination: this.keys.key(location), resumable: true }));
  }

  async hasFolder(folder: string): Promise<boolean> {
    const [files] = await this.call('list', folder, () =>
      this.bucket.getFiles({ prefix: this.keys.folderKey(folder), maxResults: 1, autoPaginate: false }),
    );
    return files.length > 0;
  }

  /** The object's bytes, or those from `start` to `end` (inclusive), by one GET. */
  private async download(location: string, start?: number, end?: number): Promise<Uint8Array> {
    const url = `${this.client.baseUrl}/b/${encodeURIComponent(this.bucket.name)}/o/${encodeURIComponent(this.keys.key(location))}?alt=media`;
    return this.call('read', location, async () => {
      const headers = new Headers(this.signed ? await this.client.authClient.getRequestHeaders(url) : undefined);
      if (start !== undefined) headers.set('range', `bytes=${start}-${end}`);
      const bytes = await wholeBody(
        () => this.answer(url, headers),
        async (response) => new Uint8Array(await response.arrayBuffer()),
      );
      return received(location, bytes, end === undefined || start === undefined ? undefined : end - start + 1);
    });
  }

  /** A GET's answer, its body still to read; throttling, server errors and dropped connections are tried again with
   * backoff, as the client's own calls are. */
  private async answer(url: string, headers: Headers): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const last = attempt === ATTEMPTS;
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (err) {
        if (last || !isNetworkFailure(err)) throw err;
        await backoff(attempt);
        continue;
      }
      if (!last && (response.status === 429 || response.status >= 500)) {
        await response.body?.cancel();
        await backoff(attempt);
        continue;
      }
      if (!response.ok) {
        const said = (await response.text()).split('\n')[0].slice(0, 200);
        throw Object.assign(new Error(said || `HTTP ${response.status}`), { code: response.status });
      }
      return response;
    }
  }

  private async bucketExists(): Promise<boolean> {
    try {
      return (await this.bucket.exists())[0];
    } catch {
      return true;
    }
  }

  private async call<T>(what: string, location: string, run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    // Google's client passes its timeout to a fetch that ignores it: a stalled server would be waited for for ever.
    // The call as a whole gets the time its attempts could take.
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`no answer within ${this.timeoutMs * ATTEMPTS} ms`), { name: 'TimeoutError' })),
        this.timeoutMs * ATTEMPTS,
      );
    });
    try {
      return await storeCall(
        what,
        location,
        () => Promise.race([run(), stalled]),
        async (err) => {
          const e = err as { code?: number | string; message?: string };
          // A listing finds no object to miss, so its 404 is the bucket's; a read's may be either (GCS names the bucket
          // in its words, emulators do not): the bucket is asked.
          if (e.code !== 404) return { reason: statusReason(typeof e.code === 'number' ? e.code : undefined) };
          const noBucket = what === 'list' || /bucket/i.test(e.message ?? '') || !(await this.bucketExists());
          return { reason: noBucket ? 'no-bucket' : 'not-found' };
        },
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The URL of a GCS endpoint in the forms other tools configure it (gcloud, Google's SDKs and fake-gcs-server's own
 * docs): with or without the JSON API's /storage/v1, and host:port without a scheme meaning http, as the Python and
 * Go SDKs read STORAGE_EMULATOR_HOST. */
export function gcsEndpoint(text: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  return url.replace(/\/+$/, '').replace(/\/storage\/v1$/, '');
}

function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
}
