// A real Unity Catalog server for the catalog tests: the open-source server that ../shared/unitycatalog/ builds
// from source (build.sh, cached in ~/.cache/unitycatalog; .ci/run builds it first), started by start.sh on a free
// loopback port with an empty database in a scratch folder, gone when the test run ends (object-stores-process.ts).
// Authorization is on: the admin's token is the one the server writes at start, and a user's is signed with the
// server's own key, as the server signs the tokens it issues. Catalogs, schemas, tables and users are made through
// the server's own REST API, never through the code under test. Without Java or Maven the server cannot be built: it
// comes back as { skipped: reason }.
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import type { Skipped } from './object-stores.js';
import { startServerProcess, waitUntilServing } from './object-stores-process.js';

/** Beside the repository; this module runs from test/support/ or, in the benchmark's build, dist/test/support/. */
const SCRIPTS = path.resolve(
  import.meta.dirname,
  path.extname(import.meta.filename) === '.ts' ? '../../..' : '../../../..',
  'shared/unitycatalog',
);
const API = '/api/2.1/unity-catalog';
/** The first start builds the server (~5 min on 2 cores); later ones take ~12 s (more on a busy machine). */
export const UNITY_CATALOG_START_MS = 600_000;

export interface UnityCatalogServer {
  /** http://127.0.0.1:port, what a user gives as the endpoint. */
  endpoint: string;
  /** The admin's token (every privilege). */
  adminToken: string;
  /** One call to the REST API as the admin; throws on anything but a 2xx answer. */
  api<T>(method: string, apiPath: string, body?: object): Promise<T>;
  /** An external table at `storageLocation` (a file:// or s3:// URL), in catalog.schema, made if missing. */
  createTable(fullName: string, storageLocation: string, format?: string): Promise<{ table_id: string }>;
  /** A token of a new user who has been granted nothing. */
  userToken(email: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a server; `properties` are lines added to its server.properties (s3.* settings). */
export async function startUnityCatalog(properties: string[] = []): Promise<UnityCatalogServer | Skipped> {
  for (const tool of ['java', 'mvn']) {
    if (!onPath(tool)) return { skipped: `no Unity Catalog server: ${tool} is not installed (.ci/run installs it)` };
  }
  const work = mkdtempSync(path.join(tmpdir(), 'deltaport-uc-'));
  const props = path.join(work, 'server.properties');
  writeFileSync(props, ['server.env=dev', 'server.authorization=enable', ...properties].join('\n') + '\n');
  const { server, endpoint } = await startOnFreePort(work, props);
  const conf = path.join(work, 'server/etc/conf');
  const adminToken = readFileSync(path.join(conf, 'token.txt'), 'utf8').trim();
  const call = async <T>(method: string, url: string, body?: object): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
    if (body) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await response.text();
    if (!response.ok) throw new Error(`Unity Catalog ${method} ${url} failed: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  const api = <T>(method: string, apiPath: string, body?: object) => call<T>(method, `${endpoint}${API}${apiPath}`, body);
  const made = new Set<string>();
  const ensure = async (kind: 'catalogs' | 'schemas', name: string, body: object) => {
    if (made.has(`${kind}:${name}`)) return;
    const found = await fetch(`${endpoint}${API}/${kind}/${encodeURIComponent(name)}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    if (found.status === 404) await api('POST', `/${kind}`, body);
    made.add(`${kind}:${name}`);
  };
  return {
    endpoint,
    adminToken,
    api,
    async createTable(fullName, storageLocation, format = 'DELTA') {
      const [catalog, schema, table] = fullName.split('.');
      await ensure('catalogs', catalog, { name: catalog });
      await ensure('schemas', `${catalog}.${schema}`, { name: schema, catalog_name: catalog });
      return api('POST', '/tables', {
        name: table,
        catalog_name: catalog,
        schema_name: schema,
        table_type: 'EXTERNAL',
        data_source_format: format,
        storage_location: storageLocation,
        columns: [],
      });
    },
    async userToken(email) {
      await call('POST', `${endpoint}/api/1.0/unity-control/scim2/Users`, {
        displayName: email,
        emails: [{ value: email, primary: true }],
      });
      return signedToken(conf, email);
    },
    async stop() {
      await server.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** An access token for `email` as the server issues them: a JWT of its issuer "internal", signed RS512 by its key. */
function signedToken(conf: string, email: string): string {
  const key = createPrivateKey({ key: readFileSync(path.join(conf, 'private_key.der')), format: 'der', type: 'pkcs8' });
  const kid = readFileSync(path.join(conf, 'key_id.txt'), 'utf8').trim();
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'RS512', typ: 'JWT', kid })}.${part({ iss: 'internal', sub: email, iat: now, exp: now + 3600, jti: randomUUID(), type: 'ACCESS' })}`;
  return `${unsigned}.${sign('RSA-SHA512', Buffer.from(unsigned), key).toString('base64url')}`;
}

/** The server takes some seconds to bind its ports, time in which another server started by the tests may take the
 * free port it was given: it then exits with "Address already in use", and starts again on another. */
async function startOnFreePort(work: string, props: string) {
  for (let attempt = 1; ; attempt++) {
    const port = await portPair();
    const server = startServerProcess('unitycatalog', path.join(SCRIPTS, 'start.sh'), [String(port), path.join(work, 'server'), props]);
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      await waitUntilServing(server, 'the Unity Catalog server', `${endpoint}${API}/catalogs`, UNITY_CATALOG_START_MS);
      return { server, endpoint };
    } catch (err) {
      if (attempt >= 5 || !(err as Error).message.includes('Address already in use')) throw err;
      rmSync(path.join(work, 'server'), { recursive: true, force: true });
    }
  }
}

/** The server listens on its port and the next one: a port whose next one is free too. */
async function portPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (await isFree(port + 1)) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
