// One page of what the navigator shows under a place: folders, tables and other entries, and where the next page
// starts. Shared by the browse API (folders, buckets) and catalogs.

export interface BrowseEntry {
  name: string;
  kind: 'folder' | 'table' | 'other';
  location: string;
  detail?: string;
}

export interface BrowsePage {
  entries: BrowseEntry[];
  nextPage: string | null;
}
