// One level of a folder or a bucket's prefix for the navigator, from one delimiter listing (storage.ts listFolder):
// subfolders, then files. A folder that holds _delta_log is a table, and browsing it answers the table itself, with
// its latest version from a listing of its log: nothing is read beyond names until the table is opened.
import type { BrowseRequest } from '../../shared/api.js';
import type { BrowseEntry, BrowsePage } from '../../shared/browse.js';
import { listLog } from '../delta/log/log-listing.js';
import { canonicalLocation, joinLocation, locationName, type FolderPage, type Storage } from '../storage/storage.js';

const LOG_FOLDER = '_delta_log';

export async function browseFolder(storage: (location: string) => Storage, request: BrowseRequest): Promise<BrowsePage> {
  const folder = canonicalLocation(request.location);
  const store = storage(folder);
  const filter = request.filter === '' ? undefined : request.filter;
  const listed = await store.listFolder(folder, { prefix: filter, page: request.page });
  // A filter is typed into a folder already shown as one, never into a table.
  if (request.page === undefined && filter === undefined && (await holdsLog(store, folder, listed))) {
    const { latest } = await listLog(store, folder);
    return { entries: [{ name: locationName(folder), kind: 'table', location: folder, detail: `v${latest}` }], nextPage: null };
  }
  const entries: BrowseEntry[] = [
    ...listed.folders.map((name): BrowseEntry => ({ name, kind: 'folder', location: joinLocation(folder, name) })),
    ...listed.files.map((file): BrowseEntry => ({ name: file.name, kind: 'other', location: joinLocation(folder, file.name) })),
  ];
  return { entries, nextPage: listed.next };
}

/** Whether the folder holds a log: the first page shows it, unless more than a page of names sort before
 * '_delta_log' (digits, capitals), and then one listing of that name alone tells. */
async function holdsLog(store: Storage, folder: string, first: FolderPage): Promise<boolean> {
  if (first.folders.includes(LOG_FOLDER)) return true;
  const last = [...first.folders, ...first.files.map((file) => file.name)].reduce((a, b) => (a > b ? a : b), '');
  if (first.next === null || last > LOG_FOLDER) return false;
  return (await store.listFolder(folder, { prefix: LOG_FOLDER })).folders.includes(LOG_FOLDER);
}
