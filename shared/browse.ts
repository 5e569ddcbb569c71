// One level of the navigator's tree, whatever it lists: a folder, a bucket's prefix, a catalog's schema.
export interface BrowseEntry {
  name: string;
  kind: 'folder' | 'table' | 'other';
  /** What browsing further (a folder) or opening (a table) is given. */
  location: string;
  detail?: string;
}

export interface BrowsePage {
  entries: BrowseEntry[];
  /** What to ask for the next page; null after the last. */
  nextPage: string | null;
}
