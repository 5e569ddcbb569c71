// The navigator's tree as rows: sections, their roots, and below each expanded folder the pages of it listed so far,
// a "Load more" row where the listing goes on, or a row saying why there is nothing. Pure: Navigator.tsx keeps the
// listings and the expanded nodes, this lays them out in the order the keyboard walks them.
import type { BrowseEntry } from '../../shared/browse.js';

export interface Listing {
  entries: BrowseEntry[];
  nextPage: string | null;
  /** The filter the entries were listed with. */
  filter: string;
  loading: boolean;
  error: string | null;
}

export interface TreeSection {
  key: string;
  title: string;
  roots: BrowseEntry[];
  /** Shown under the section when it has no roots. */
  emptyText: string;
}

export type TreeRow =
  | { kind: 'section'; key: string; level: 1; title: string; expanded: boolean }
  | { kind: 'entry'; key: string; level: number; section: string; entry: BrowseEntry; expanded: boolean; parent: string | null }
  | { kind: 'more'; key: string; level: number; folder: string }
  | { kind: 'note'; key: string; level: number; text: string; problem: boolean };

/** A node's key: its section and location (the same folder may be under two sections). */
function nodeKey(section: string, location: string): string {
  return `${section}\u0000${location}`;
}

export interface TreeState {
  expanded: ReadonlySet<string>;
  listings: ReadonlyMap<string, Listing>;
  /** Folders that turned out to be tables when listed: what they are. */
  tables: ReadonlyMap<string, BrowseEntry>;
}

export function treeRows(sections: TreeSection[], state: TreeState): TreeRow[] {
  const rows: TreeRow[] = [];
  const addEntry = (section: string, entry: BrowseEntry, level: number, parent: string | null) => {
    const key = nodeKey(section, entry.location);
    const shown = state.tables.get(key) ?? entry;
    const expanded = shown.kind === 'folder' && state.expanded.has(key);
    rows.push({ kind: 'entry', key, level, section, entry: shown, expanded, parent });
    if (!expanded) return;
    const listing = state.listings.get(key);
    if (!listing || (listing.loading && listing.entries.length === 0)) {
      rows.push({ kind: 'note', key: `${key}\u0000note`, level: level + 1, text: 'Listing…', problem: false });
      return;
    }
    for (const child of listing.entries) addEntry(section, child, level + 1, key);
    if (listing.error) rows.push({ kind: 'note', key: `${key}\u0000note`, level: level + 1, text: listing.error, problem: true });
    else if (listing.entries.length === 0)
      rows.push({
        kind: 'note',
        key: `${key}\u0000note`,
        level: level + 1,
        text: listing.filter ? `Nothing here starts with "${listing.filter}".` : 'Empty.',
        problem: false,
      });
    if (listing.nextPage !== null) rows.push({ kind: 'more', key: `${key}\u0000more`, level: level + 1, folder: key });
  };
  for (const section of sections) {
    const expanded = state.expanded.has(section.key);
    rows.push({ kind: 'section', key: section.key, level: 1, title: section.title, expanded });
    if (!expanded) continue;
    for (const root of section.roots) addEntry(section.key, root, 2, null);
    if (section.roots.length === 0)
      rows.push({ kind: 'note', key: `${section.key}\u0000note`, level: 2, text: section.emptyText, problem: false });
  }
  return rows;
}

/** Where the folder a browse answered turned out to be a table: the table itself is its only entry. */
export function tableItself(location: string, entries: BrowseEntry[]): BrowseEntry | null {
  const only = entries.length === 1 ? entries[0] : null;
  return only && only.kind === 'table' && only.location === location ? only : null;
}
