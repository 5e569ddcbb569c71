// The navigator's rows: what is under an expanded folder (its pages so far, Load more, why nothing is there), a
// folder that turned out to be a table, and the sections' levels.
import { describe, expect, it } from 'vitest';
import type { BrowseEntry } from '../../shared/browse.js';
import { tableItself, treeRows, type Listing, type TreeSection } from '../../renderer/src/browse-tree.js';

const folder = (name: string): BrowseEntry => ({ name, kind: 'folder', location: `/lake/${name}` });
const key = (section: string, location: string) => `${section}\u0000${location}`;
const listing = (entries: BrowseEntry[], more: Partial<Listing> = {}): Listing => ({
  entries,
  nextPage: null,
  filter: '',
  loading: false,
  error: null,
  ...more,
});
const sections: TreeSection[] = [
  { key: 'places', title: 'Places', roots: [{ name: 'lake', kind: 'folder', location: '/lake' }], emptyText: '' },
  { key: 'storage', title: 'Storage connections', roots: [], emptyText: 'No storage connections saved.' },
];
const shape = (rows: ReturnType<typeof treeRows>) =>
  rows.map((r) => `${r.level}:${r.kind === 'section' ? r.title : r.kind === 'entry' ? r.entry.name : r.kind === 'more' ? 'more' : r.text}`);

describe('navigator rows', () => {
  it('shows an expanded folder’s entries, then Load more while its listing goes on', () => {
    const rows = treeRows(sections, {
      expanded: new Set(['places', 'storage', key('places', '/lake')]),
      listings: new Map([[key('places', '/lake'), listing([folder('a'), folder('b')], { nextPage: 'token' })]]),
      tables: new Map(),
    });
    expect(shape(rows)).toEqual(['1:Places', '2:lake', '3:a', '3:b', '3:more', '1:Storage connections', '2:No storage connections saved.']);
  });

  it('says why a folder shows nothing: listing, empty, filtered out, or the host’s problem', () => {
    const rowsWith = (l?: Listing) =>
      shape(
        treeRows([sections[0]], {
          expanded: new Set(['places', key('places', '/lake')]),
          listings: new Map(l ? [[key('places', '/lake'), l]] : []),
          tables: new Map(),
        }),
      ).slice(2);
    expect(rowsWith()).toEqual(['3:Listing…']);
    expect(rowsWith(listing([]))).toEqual(['3:Empty.']);
    expect(rowsWith(listing([], { filter: 'x' }))).toEqual(['3:Nothing here starts with "x".']);
    expect(rowsWith(listing([], { error: 'permission denied: /lake' }))).toEqual(['3:permission denied: /lake']);
  });

  it('shows a folder that turned out to be a table as the table, not expanded', () => {
    const table: BrowseEntry = { name: 'lake', kind: 'table', location: '/lake', detail: 'v4' };
    const rows = treeRows([sections[0]], {
      expanded: new Set(['places', key('places', '/lake')]),
      listings: new Map([[key('places', '/lake'), listing([table])]]),
      tables: new Map([[key('places', '/lake'), table]]),
    });
    expect(rows[1]).toMatchObject({ kind: 'entry', entry: table, expanded: false });
    expect(rows).toHaveLength(2);
  });

  it('knows a browse answer that is the folder itself as a table', () => {
    const table: BrowseEntry = { name: 't', kind: 'table', location: 's3://b/t', detail: 'v1' };
    expect(tableItself('s3://b/t', [table])).toBe(table);
    expect(tableItself('s3://b', [table])).toBeNull();
    expect(tableItself('s3://b/t', [table, folder('x')])).toBeNull();
  });
});
