// The real API service in this process, offered to renderer code as the desktop bridge (window.deltaport): component
// tests then drive the UI against the engine and the shared tables, every call through the hosts' validation and a
// JSON round trip, as over IPC. Renderer modules read the bridge when first imported, so import them after this.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { DeltaportApi, JobEvent } from '../../shared/api.js';
import { API_METHODS } from '../../shared/api.js';
import { dispatchCall } from '../../electron/app/dispatch.js';
import { JobRunner } from '../../electron/jobs/job-runner.js';
import { AppState } from '../../electron/state/app-state.js';
import { appService } from '../support/app-service.js';

export interface InProcessApi {
  dataDir: string;
  jobs: JobRunner;
  close(): Promise<void>;
}

const roundTrip = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function installInProcessApi(): InProcessApi {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deltaport-component-'));
  const state = AppState.open(path.join(dataDir, 'state.db'), { encryptor: null });
  const { api: service, jobs } = appService(state, {
    sampleTable: async () => path.join(dataDir, 'sample'),
    sqlTempDirectory: path.join(dataDir, 'sql-temp'),
  });
  const calls = Object.fromEntries(
    API_METHODS.map((method) => [method, async (arg?: unknown) => roundTrip(await dispatchCall(service, method, roundTrip(arg ?? null)))]),
  ) as unknown as DeltaportApi;
  const onJobEvent = (listener: (event: JobEvent) => void) => jobs.onJobEvent((event) => listener(roundTrip(event)));
  window.deltaport = { ...calls, onJobEvent, pathForFile: () => '' };
  return {
    dataDir,
    jobs,
    close: async () => {
      await jobs.cancelAll();
      state.close();
      delete window.deltaport;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test file's window: the in-process API installed before the App module is first imported, each test's render
 * cleaned up after it, the host closed at the end. */
export function windowUnderTest(): { host(): InProcessApi; renderApp(): void } {
  let host: InProcessApi | undefined;
  let App: typeof import('../../renderer/src/App.js').App | undefined;
  beforeAll(async () => {
    host = installInProcessApi();
    ({ App } = await import('../../renderer/src/App.js'));
  });
  afterEach(cleanup);
  afterAll(() => host?.close());
  return { host: () => host!, renderApp: () => void render(createElement(App!)) };
}
