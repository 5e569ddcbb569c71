// The renderer's only door to the main process, exposed as window.deltaport. A sandboxed preload cannot load other
// files, so this file stands alone: one typed function per API method (checked against DeltaportApi), each invoking
// its own channel, plus the job event subscription. ipcRenderer itself is never exposed.
import type { IpcRendererEvent } from 'electron';
// A CommonJS file under verbatimModuleSyntax can only load a module this way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');
import type { DeltaportApi, DeltaportEvents, JobEvent } from '../shared/api.js';

const { contextBridge, ipcRenderer, webUtils } = electron;

function call<M extends keyof DeltaportApi>(method: M): DeltaportApi[M] {
  return ((arg?: unknown) => ipcRenderer.invoke(`deltaport:${method}`, arg ?? null)) as DeltaportApi[M];
}

const api = {
  openTable: call('openTable'),
  history: call('history'),
  resolveVersion: call('resolveVersion'),
  latestVersion: call('latestVersion'),
  preview: call('preview'),
  profile: call('profile'),
  partitions: call('partitions'),
  diff: call('diff'),
  changes: call('changes'),
  sql: call('sql'),
  cancelSql: call('cancelSql'),
  planExport: call('planExport'),
  testConnection: call('testConnection'),
  exportSparkJob: call('exportSparkJob'),
  startExport: call('startExport'),
  cancelJob: call('cancelJob'),
  retryJob: call('retryJob'),
  listJobs: call('listJobs'),
  revealTarget: call('revealTarget'),
  recentTables: call('recentTables'),
  sampleTable: call('sampleTable'),
  listProfiles: call('listProfiles'),
  saveProfile: call('saveProfile'),
  deleteProfile: call('deleteProfile'),
  listStorageConnections: call('listStorageConnections'),
  saveStorageConnection: call('saveStorageConnection'),
  deleteStorageConnection: call('deleteStorageConnection'),
  chooseTableFolder: call('chooseTableFolder'),
  chooseSqliteFile: call('chooseSqliteFile'),
  cancelRead: call('cancelRead'),
  readProgress: call('readProgress'),
  chooseDuckdbFile: call('chooseDuckdbFile'),
  browse: call('browse'),
  listCatalogConnections: call('listCatalogConnections'),
  saveCatalogConnection: call('saveCatalogConnection'),
  deleteCatalogConnection: call('deleteCatalogConnection'),
  browseCatalog: call('browseCatalog'),
} satisfies DeltaportApi;

const events = {
  onJobEvent(listener: (event: JobEvent) => void): () => void {
    const forward = (_event: IpcRendererEvent, jobEvent: JobEvent) => listener(jobEvent);
    ipcRenderer.on('deltaport:job-event', forward);
    return () => {
      ipcRenderer.removeListener('deltaport:job-event', forward);
    };
  },
} satisfies DeltaportEvents;

// Since Electron 32 a dropped File no longer carries its path; only the preload can ask for it.
const pathForFile = (file: Parameters<typeof webUtils.getPathForFile>[0]): string => webUtils.getPathForFile(file);

contextBridge.exposeInMainWorld('deltaport', { ...api, ...events, pathForFile });
