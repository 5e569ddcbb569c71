// The one window: table chooser on top, the open table's snapshot bar, columns on the left, the panels in tabs,
// jobs at the bottom.
import { useEffect, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { RecentTable } from '../../shared/api.js';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import type { CommitSummary, TableInfo } from '../../shared/table-info.js';
import { api } from './api-client.js';
import { Alert } from './components/Alert.js';
import { ColumnsPanel } from './components/ColumnsPanel.js';
import { checkedFilter, FilterBar } from './components/FilterBar.js';
import { checkedOrder, OrderField } from './components/OrderField.js';
import { HistoryPanel } from './components/HistoryPanel.js';
import { JobsDock } from './components/JobsDock.js';
import { OverviewPanel } from './components/OverviewPanel.js';
import { PreviewPanel } from './components/PreviewPanel.js';
import { SinkPanel } from './components/SinkPanel.js';
import { SnapshotBar } from './components/SnapshotBar.js';
import { TableBar } from './components/TableBar.js';
import { Tabs } from './components/Tabs.js';
import { Welcome } from './components/Welcome.js';
import { droppedLocation } from './drop.js';
import { folderName } from './format.js';
import { useJobs } from './jobs.js';
import { useTheme } from './theme.js';
import { useTimeTravel } from './time-travel.js';

// Dragging text inside the page (a selection, a field's value) must not look like dropping a folder.
function carriesLocation(event: DragEvent): boolean {
  const types = event.dataTransfer.types;
  return types.includes('Files') || types.includes('text/uri-list');
}

type TabKey = 'overview' | 'history' | 'data' | 'export';

// In a browser the host's pickers always answer null, so the buttons would do nothing there.
const nativeDialogs = window.deltaport !== undefined;

export function App() {
  const [theme, toggleTheme] = useTheme();
  const [location, setLocation] = useState('');
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | null>(null);
  const [path, setPath] = useState<string | null>(null);
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [history, setHistory] = useState<CommitSummary[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [tab, setTab] = useState<TabKey>('overview');
  const [recent, setRecent] = useState<RecentTable[]>([]);
  const [dragging, setDragging] = useState(false);
  const [filterText, setFilterText] = useState('');
  const [orderText, setOrderText] = useState('');
  const travel = useTimeTravel(path);
  const { jobs, loadError, upsert } = useJobs();
  const currentPath = useRef<string | null>(null);
  const dragDepth = useRef(0);

  const refreshRecent = async () => {
    const result = await api.recentTables();
    if (result.ok) setRecent(result.value);
  };
  useEffect(() => {
    void refreshRecent();
    // The main process opens a table (command line, Open Recent, second launch) by loading ?table=<path>.
    const named = new URLSearchParams(window.location.search).get('table');
    if (named) {
      setLocation(named);
      void open(named);
    }
  }, []);

  const open = async (target: string) => {
    setOpening(true);
    setOpenError(null);
    const result = await api.openTable({ path: target });
    setOpening(false);
    if (!result.ok) {
      setOpenError(result.error.message);
      return;
    }
    const opened = result.value;
    currentPath.current = opened.path;
    setLocation(opened.path);
    setPath(opened.path);
    setInfo(opened);
    setChosen(opened.schema.fields.map((f) => f.name));
    travel.reset();
    setHistory(null);
    setHistoryError(null);
    void refreshRecent();
    const commits = await api.history({ path: opened.path });
    if (currentPath.current !== opened.path) return;
    if (commits.ok) setHistory(commits.value);
    else setHistoryError(commits.error.message);
  };

  const openSample = async () => {
    setOpenError(null);
    const result = await api.sampleTable();
    if (result.ok) await open(result.value.path);
    else setOpenError(result.error.message);
  };

  const browse = async () => {
    const result = await api.chooseTableFolder();
    if (!result.ok) setOpenError(result.error.message);
    else if (result.value) await open(result.value);
  };

  // The overview and the column list follow the snapshot the time-travel fields resolve to.
  const wanted =
    travel.status.state === 'resolved'
      ? travel.status.version
      : travel.status.state === 'latest'
        ? (info?.versionRange.latest ?? null)
        : null;
  useEffect(() => {
    if (path === null || wanted === null || info?.version === wanted) return;
    let stale = false;
    void api.openTable({ path, versionAsOf: wanted }).then((result) => {
      if (stale) return;
      if (!result.ok) return setOpenError(result.error.message);
      const names = result.value.schema.fields.map((f) => f.name);
      setChosen((current) => {
        const kept = current.filter((n) => names.includes(n));
        return kept.length > 0 ? names.filter((n) => kept.includes(n)) : names;
      });
      setInfo(result.value);
    });
    return () => {
      stale = true;
    };
  }, [path, wanted]);

  const filter = info ? checkedFilter(filterText, info.schema) : { problem: null };
  const order = info ? checkedOrder(orderText, info.schema) : { problem: null };
  const blocked = !info
    ? 'Open a table first.'
    : chosen.length === 0
      ? 'Choose at least one column.'
      : travel.status.state === 'checking'
        ? 'Resolving the snapshot…'
        : travel.asOf === null
          ? 'Fix the Version or Timestamp field first.'
          : filter.problem !== null
            ? 'Fix the filter first.'
            : order.problem !== null
              ? 'Fix the order first.'
              : null;
  const source: DeltaSourceSpec | null =
    blocked === null && path !== null
      ? { tablePath: path, columnNames: chosen, ...travel.asOf, ...(filter.filter ? { filter: filter.filter } : {}) }
      : null;

  const preview = async (spec: DeltaSourceSpec, limit: number) => {
    const result = await api.preview({ source: spec, limit, ...(order.keys ? { orderBy: order.keys } : {}) });
    return result.ok ? { result: result.value } : { error: result.error.message };
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    const outcome = droppedLocation(event.dataTransfer, window.deltaport?.pathForFile);
    if (!outcome) return;
    if ('problem' in outcome) setOpenError(outcome.problem);
    else {
      setLocation(outcome.path);
      void open(outcome.path);
    }
  };

  return (
    <div
      className={dragging ? 'app dragging' : 'app'}
      onDragEnter={(e) => {
        if (!carriesLocation(e)) return;
        dragDepth.current += 1;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (carriesLocation(e)) e.preventDefault();
      }}
      onDragLeave={() => {
        // Enter and leave fire for every child crossed; the window is left when they balance.
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <header className="app-header">
        <div className="brand" aria-label="Deltaport">
          <span className="brand-mark" aria-hidden="true">
            Δ
          </span>
          <span className="brand-name">Deltaport</span>
        </div>
        <TableBar
          location={location}
          onLocationChange={setLocation}
          onOpen={(p) => void open(p)}
          onBrowse={nativeDialogs ? () => void browse() : null}
          onSample={() => void openSample()}
          recent={recent}
          busy={opening}
        />
        <button
          type="button"
          className="button ghost theme-toggle"
          aria-label="Dark theme"
          aria-pressed={theme === 'dark'}
          onClick={toggleTheme}
          title="Switch between light and dark"
        >
          {theme === 'dark' ? '☾' : '☀'} Dark theme
        </button>
      </header>
      {openError && (
        <div className="banner">
          <Alert message={openError} />
        </div>
      )}

      {info && path ? (
        <main className="workspace">
          <SnapshotBar info={info} travel={travel} />
          <div className="workspace-body">
            <aside className="sidebar">
              <ColumnsPanel
                fields={info.schema.fields}
                partitionColumns={info.partitionColumns}
                chosen={chosen}
                onChange={setChosen}
              />
            </aside>
            <Tabs<TabKey>
              label="Table panels"
              active={tab}
              onChange={setTab}
              tabs={[
                { key: 'overview', label: 'Overview', content: <OverviewPanel info={info} /> },
                {
                  key: 'history',
                  label: 'History',
                  badge: history ? String(history.length) : undefined,
                  content: (
                    <HistoryPanel
                      commits={history}
                      error={historyError}
                      currentVersion={info.version}
                      onPick={travel.travelTo}
                    />
                  ),
                },
                {
                  key: 'data',
                  label: 'Data',
                  content: (
                    <div className="data-panel">
                      <FilterBar text={filterText} schema={info.schema} onChange={setFilterText} />
                      <OrderField text={orderText} schema={info.schema} onChange={setOrderText} />
                      <PreviewPanel key={path} source={source} blocked={blocked} preview={preview} />
                    </div>
                  ),
                },
                {
                  key: 'export',
                  label: 'Export',
                  content: (
                    <SinkPanel
                      source={source}
                      blocked={blocked}
                      defaultTable={folderName(path)}
                      columns={chosen}
                      nativeDialogs={nativeDialogs}
                      onStarted={upsert}
                    />
                  ),
                },
              ]}
            />
          </div>
        </main>
      ) : (
        <main className="workspace empty">
          <Welcome recent={recent} onOpen={(p) => void open(p)} onSample={() => void openSample()} />
        </main>
      )}

      <JobsDock jobs={jobs} loadError={loadError} onChanged={upsert} />
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a Delta table folder to open it
        </div>
      )}
    </div>
  );
}
