// The navigator on the left of the window: Places (folders the user added, and the sample table), the buckets of the
// saved storage connections, listed a level at a time as they are expanded (a "Load more" row where a folder goes on,
// a filter for the folder at hand), and tables opened from it in tabs. A WAI-ARIA tree: arrow keys move and expand,
// Enter opens, Delete removes a place. Every section lists its folders through its own `browse` call answering a
// BrowsePage: the catalogs' section lists through browseCatalog, its roots the saved catalog connections.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent, ReactNode } from 'react';
import type { BrowseRequest, Result } from '../../../shared/api.js';
import type { BrowseEntry, BrowsePage } from '../../../shared/browse.js';
import { api } from '../api-client.js';
import { tableItself, treeRows, type Listing, type TreeRow, type TreeSection } from '../browse-tree.js';
import { folderName } from '../format.js';
import { storedValue, storeValue } from '../stored.js';

const PLACES_KEY = 'deltaport.places';
const SAMPLE = 'deltaport:sample';
const FILTER_DELAY_MS = 250;

/** A section of the tree: its roots and how its folders are listed. */
interface Section extends TreeSection {
  browse(req: BrowseRequest): Promise<Result<BrowsePage>>;
}

interface Props {
  /** Opens a table in a tab of its own. */
  onOpenTable(location: string): void;
  onOpenSample(): void;
  /** The native folder picker; null in a browser. */
  onChooseFolder: (() => Promise<string | null>) | null;
  /** Changes when the storage connections may have changed, to list them again. */
  connectionsVersion: number;
}

function storedPlaces(): string[] {
  try {
    const places: unknown = JSON.parse(storedValue(PLACES_KEY) ?? '[]');
    return Array.isArray(places) ? places.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

export function Navigator({ onOpenTable, onOpenSample, onChooseFolder, connectionsVersion }: Props) {
  const [places, setPlaces] = useState<string[]>(storedPlaces);
  const [buckets, setBuckets] = useState<BrowseEntry[]>([]);
  const [catalogs, setCatalogs] = useState<BrowseEntry[]>([]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(['places', 'storage', 'catalogs']));
  const [listings, setListings] = useState<ReadonlyMap<string, Listing>>(new Map());
  const [tables, setTables] = useState<ReadonlyMap<string, BrowseEntry>>(new Map());
  const [focused, setFocused] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const [addProblem, setAddProblem] = useState<string | null>(null);
  const treeRef = useRef<HTMLDivElement>(null);
  // The latest request per folder: an answer to an older one (another filter, a folder listed again) is dropped.
  const latest = useRef(new Map<string, number>());
  const filterTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    let stale = false;
    void api.listStorageConnections().then((result) => {
      if (stale || !result.ok) return;
      setBuckets(
        result.value.connections.map((c) =>
          // A connection for a whole store names no bucket to list: its tables open by URL.
          c.prefix.endsWith('://')
            ? { name: `${c.name} (${c.prefix})`, kind: 'other', location: c.prefix, detail: 'every bucket: open one by its URL' }
            : { name: `${c.name} (${c.prefix})`, kind: 'folder', location: c.prefix },
        ),
      );
    });
    return () => {
      stale = true;
    };
  }, [connectionsVersion]);

  useEffect(() => {
    let stale = false;
    void api.listCatalogConnections().then((result) => {
      if (stale || !result.ok) return;
      setCatalogs(
        result.value.connections.map((c) => ({
          name: c.name,
          kind: 'folder',
          location: `${c.kind === 'unity' ? 'uc' : 'glue'}://${c.name}`,
          detail: c.kind === 'unity' ? 'Unity Catalog' : 'AWS Glue',
        })),
      );
    });
    return () => {
      stale = true;
    };
  }, [connectionsVersion]);

  const sections: Section[] = useMemo(
    () => [
      {
        key: 'places',
        title: 'Places',
        roots: [
          { name: 'Sample table', kind: 'table', location: SAMPLE, detail: 'built in' },
          ...places.map((p): BrowseEntry => ({ name: folderName(p), kind: 'folder', location: p, detail: p })),
        ],
        emptyText: '',
        browse: api.browse,
      },
      {
        key: 'storage',
        title: 'Storage connections',
        roots: buckets,
        emptyText: 'No storage connections saved.',
        browse: api.browse,
      },
      {
        key: 'catalogs',
        title: 'Catalogs',
        roots: catalogs,
        emptyText: 'No catalog connections saved.',
        browse: api.browseCatalog,
      },
    ],
    [places, buckets, catalogs],
  );

  const rows = useMemo(() => treeRows(sections, { expanded, listings, tables }), [sections, expanded, listings, tables]);
  const focusIndex = Math.max(
    0,
    rows.findIndex((r) => r.key === focused),
  );
  const focusedRow: TreeRow | undefined = rows[focusIndex];

  const list = useCallback(async (section: Section, key: string, location: string, options: { page?: string; filter: string }) => {
    const ask = (latest.current.get(key) ?? 0) + 1;
    latest.current.set(key, ask);
    setListings((current) => {
      const before = current.get(key);
      const keep = options.page !== undefined && before ? before.entries : [];
      return new Map(current).set(key, { entries: keep, nextPage: null, filter: options.filter, loading: true, error: null });
    });
    const result = await section.browse({
      location,
      ...(options.page !== undefined ? { page: options.page } : {}),
      ...(options.filter !== '' ? { filter: options.filter } : {}),
    });
    if (latest.current.get(key) !== ask) return;
    const table = result.ok && options.page === undefined ? tableItself(location, result.value.entries) : null;
    if (table) {
      setTables((current) => new Map(current).set(key, table));
      setExpanded((current) => withOut(current, key));
    }
    setListings((current) => {
      const before = current.get(key)?.entries ?? [];
      const next: Listing = result.ok
        ? {
            entries: [...before, ...result.value.entries],
            nextPage: result.value.nextPage,
            filter: options.filter,
            loading: false,
            error: null,
          }
        : { entries: before, nextPage: null, filter: options.filter, loading: false, error: result.error.message };
      return new Map(current).set(key, next);
    });
  }, []);

  const sectionOf = (key: string) => sections.find((s) => s.key === key)!;

  const toggle = (row: TreeRow) => {
    if (row.kind === 'section')
      return setExpanded((current) => (current.has(row.key) ? withOut(current, row.key) : withIn(current, row.key)));
    if (row.kind !== 'entry' || row.entry.kind !== 'folder') return;
    if (row.expanded) return setExpanded((current) => withOut(current, row.key));
    setExpanded((current) => withIn(current, row.key));
    if (!listings.has(row.key)) void list(sectionOf(row.section), row.key, row.entry.location, { filter: '' });
  };

  const activate = (row: TreeRow) => {
    if (row.kind === 'more') {
      const folder = rows.find((r): r is Extract<TreeRow, { kind: 'entry' }> => r.kind === 'entry' && r.key === row.folder);
      const listing = listings.get(row.folder);
      if (folder && listing?.nextPage && !listing.loading)
        void list(sectionOf(folder.section), folder.key, folder.entry.location, { page: listing.nextPage, filter: listing.filter });
      return;
    }
    if (row.kind === 'entry' && row.entry.kind === 'table') {
      if (row.entry.location === SAMPLE) onOpenSample();
      else onOpenTable(row.entry.location);
      return;
    }
    toggle(row);
  };

  const removePlace = (row: TreeRow) => {
    if (row.kind !== 'entry' || row.section !== 'places' || row.parent !== null || row.entry.location === SAMPLE) return;
    const next = places.filter((p) => p !== row.entry.location);
    storeValue(PLACES_KEY, JSON.stringify(next));
    setPlaces(next);
  };

  const moveFocus = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    setFocused(row.key);
    treeRef.current?.querySelectorAll<HTMLElement>('[role=treeitem]')[rows.indexOf(row)]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const row = focusedRow;
    if (!row) return;
    const expandable = row.kind === 'section' || (row.kind === 'entry' && row.entry.kind === 'folder');
    const isExpanded = row.kind === 'section' || row.kind === 'entry' ? row.expanded : false;
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(focusIndex + 1);
        break;
      case 'ArrowUp':
        moveFocus(focusIndex - 1);
        break;
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rows.length - 1);
        break;
      case 'ArrowRight':
        if (expandable && !isExpanded) toggle(row);
        else if (isExpanded) moveFocus(focusIndex + 1);
        break;
      case 'ArrowLeft': {
        if (expandable && isExpanded) toggle(row);
        else {
          // To the row's parent: the nearest row above it one level up.
          const parent = rows.slice(0, focusIndex).findLastIndex((r) => r.level < row.level);
          if (parent >= 0) moveFocus(parent);
        }
        break;
      }
      case 'Enter':
      case ' ':
        activate(row);
        break;
      case 'Delete':
        removePlace(row);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  // The filter applies to the folder at hand: the one focused last when it is open, else the folder it is in. It stays
  // that folder while its listing changes under the filter (the row focused may then be gone).
  const [filterKey, setFilterKey] = useState<string | null>(null);
  const focusRow = (row: TreeRow) => {
    setFocused(row.key);
    setFilterKey(row.kind === 'entry' && row.expanded ? row.key : parentKey(row, rows));
  };
  const filterFolder =
    rows.find((r): r is Extract<TreeRow, { kind: 'entry' }> => r.kind === 'entry' && r.key === filterKey && r.expanded) ?? null;
  const [filterText, setFilterText] = useState<{ key: string; text: string } | null>(null);
  const shownFilter = filterFolder
    ? filterText?.key === filterFolder.key
      ? filterText.text
      : (listings.get(filterFolder.key)?.filter ?? '')
    : '';
  const changeFilter = (text: string) => {
    if (!filterFolder) return;
    setFilterText({ key: filterFolder.key, text });
    clearTimeout(filterTimer.current);
    const folder = filterFolder;
    filterTimer.current = setTimeout(
      () => void list(sectionOf(folder.section), folder.key, folder.entry.location, { filter: text.trim() }),
      FILTER_DELAY_MS,
    );
  };

  const addPlace = async (event?: FormEvent) => {
    event?.preventDefault();
    const location = adding?.trim() ?? '';
    if (location === '') return;
    // Listed once before it is kept: a place that cannot be listed is said so now, in the host's words.
    const result = await api.browse({ location });
    if (!result.ok) return setAddProblem(result.error.message);
    const next = places.includes(location) ? places : [...places, location];
    storeValue(PLACES_KEY, JSON.stringify(next));
    setPlaces(next);
    setAdding(null);
    setAddProblem(null);
  };

  const choose = async () => {
    const picked = await onChooseFolder?.();
    if (picked) setAdding(picked);
  };

  return (
    <nav className="navigator" aria-label="Navigator">
      <div className="navigator-tools">
        <input
          type="search"
          className="navigator-filter"
          aria-label={filterFolder ? `Filter ${filterFolder.entry.name}` : 'Filter a folder'}
          placeholder={filterFolder ? `Names in ${filterFolder.entry.name} starting with…` : 'Open a folder to filter it'}
          disabled={!filterFolder}
          value={shownFilter}
          onChange={(e) => changeFilter(e.target.value)}
        />
      </div>
      <div className="navigator-tree" role="tree" aria-label="Places and buckets" ref={treeRef}>
        {rows.map((row, index) => (
          <TreeItem
            key={row.key}
            row={row}
            focusable={index === focusIndex}
            onFocus={() => focusRow(row)}
            onClick={() => activate(row)}
            onKeyDown={onKeyDown}
          />
        ))}
      </div>
      {adding === null ? (
        <div className="navigator-add">
          <button type="button" className="button small" onClick={() => setAdding('')}>
            Add a folder…
          </button>
        </div>
      ) : (
        <form className="navigator-add" onSubmit={(e) => void addPlace(e)}>
          <input
            type="text"
            aria-label="Folder to add"
            placeholder="/path/to/folder or s3://bucket/prefix"
            spellCheck={false}
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
          />
          {onChooseFolder && (
            <button type="button" className="button small" onClick={() => void choose()}>
              Choose…
            </button>
          )}
          <button type="submit" className="button small primary" disabled={adding.trim() === ''}>
            Add
          </button>
          <button
            type="button"
            className="button small ghost"
            onClick={() => {
              setAdding(null);
              setAddProblem(null);
            }}
          >
            Cancel
          </button>
          {addProblem && (
            <p role="alert" className="filter-problem">
              {addProblem}
            </p>
          )}
        </form>
      )}
    </nav>
  );
}

interface TreeItemProps {
  row: TreeRow;
  focusable: boolean;
  onFocus(): void;
  onClick(): void;
  onKeyDown(event: KeyboardEvent): void;
}

function TreeItem({ row, focusable, onFocus, onClick, onKeyDown }: TreeItemProps) {
  const look = rowLook(row);
  return (
    <div
      role="treeitem"
      aria-level={row.level}
      aria-selected={focusable}
      tabIndex={focusable ? 0 : -1}
      className={look.className}
      aria-label={look.label}
      aria-expanded={look.expanded}
      aria-disabled={look.disabled}
      title={look.title}
      style={{ paddingLeft: `${(row.level - 1) * 14 + 6}px` }}
      onFocus={onFocus}
      onClick={row.kind === 'note' ? undefined : onClick}
      onKeyDown={onKeyDown}
    >
      {look.content}
    </div>
  );
}

/** What sets one kind of tree row apart from the others (all are tree items, focused and keyed alike). */
interface RowLook {
  className: string;
  content: ReactNode;
  label?: string;
  expanded?: boolean;
  disabled?: true;
  title?: string;
}

function rowLook(row: TreeRow): RowLook {
  switch (row.kind) {
    case 'section':
      return {
        className: 'tree-row tree-section',
        expanded: row.expanded,
        content: (
          <>
            {twisty(row.expanded ? '▾' : '▸')}
            {row.title}
          </>
        ),
      };
    case 'entry': {
      const { entry } = row;
      return {
        className: `tree-row tree-${entry.kind}`,
        label: entry.kind === 'table' ? `${entry.name} (table${entry.detail ? `, ${entry.detail}` : ''})` : entry.name,
        expanded: entry.kind === 'folder' ? row.expanded : undefined,
        disabled: entry.kind === 'other' ? true : undefined,
        title: entry.detail && entry.kind !== 'table' ? entry.detail : entry.location === SAMPLE ? undefined : entry.location,
        content: (
          <>
            {twisty(entry.kind === 'folder' ? (row.expanded ? '▾' : '▸') : entry.kind === 'table' ? 'Δ' : '')}
            <span className="tree-name">{entry.name}</span>
            {entry.kind === 'table' && entry.detail && <span className="tree-detail">{entry.detail}</span>}
          </>
        ),
      };
    }
    case 'more':
      return { className: 'tree-row tree-more', content: 'Load more' };
    case 'note':
      return { className: row.problem ? 'tree-row tree-note problem' : 'tree-row tree-note', disabled: true, content: row.text };
  }
}

function twisty(mark: string): ReactNode {
  return (
    <span className="tree-twisty" aria-hidden="true">
      {mark}
    </span>
  );
}

/** The key of the entry a row is under, if any. */
function parentKey(row: TreeRow, rows: TreeRow[]): string | null {
  if (row.kind === 'entry') return row.parent;
  if (row.kind === 'more') return row.folder;
  const index = rows.indexOf(row);
  const above = rows.slice(0, index).findLast((r) => r.level < row.level);
  return above?.kind === 'entry' ? above.key : null;
}

function withIn(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  return new Set(set).add(key);
}

function withOut(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(key);
  return next;
}
