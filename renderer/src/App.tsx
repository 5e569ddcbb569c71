// The one window: table chooser on top, the navigator on the left, the open tables in tabs (each its own snapshot
// bar, columns and panels: TableView), jobs in a strip at the bottom. This file lays them out and says which tab a
// table opens in.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { JobInfo, RecentTable } from '../../shared/api.js';
import { api } from './api-client.js';
import { Alert } from './components/Alert.js';
import { JobsDock } from './components/JobsDock.js';
import { CatalogConnectionsDialog } from './components/CatalogConnectionsDialog.js';
import { Navigator } from './components/Navigator.js';
import { StorageConnectionsDialog } from './components/StorageConnectionsDialog.js';
import { TableBar } from './components/TableBar.js';
import { TableTabsStrip } from './components/TableTabsStrip.js';
import { TableView } from './components/TableView.js';
import { Welcome } from './components/Welcome.js';
import { droppedLocation } from './drop.js';
import { useEndNotifications, useJobs } from './jobs.js';
import { storedValue, storeValue } from './stored.js';
import { activeTab, NO_TABS, tableTabsReducer, type TableTabs } from './table-tabs.js';
import { useTheme } from './theme.js';

// Dragging text inside the page (a selection, a field's value) must not look like dropping a folder.
function carriesLocation(event: DragEvent): boolean {
  const types = event.dataTransfer.types;
  return types.includes('Files') || types.includes('text/uri-list');
}

// In a browser the host's pickers always answer null, so the buttons would do nothing there.
const nativeDialogs = window.deltaport !== undefined;
const DOCK_KEY = 'deltaport.jobsDock';
const NAVIGATOR_KEY = 'deltaport.navigator';
const NAVIGATOR_MIN_WIDTH = 1600;

/** Shown unless the user hid it; at first only where the window is wide: narrower, the grid's columns and the Export
 * form need its room (the window's minimum, 1024 pixels, shows the whole form). */
function navigatorAtStart(): boolean {
  const chosen = storedValue(NAVIGATOR_KEY);
  return chosen === null ? window.innerWidth >= NAVIGATOR_MIN_WIDTH : chosen === 'open';
}

/** The main process opens a table (command line, Open Recent, second launch) by loading ?table=<path>. */
function firstTabs(): TableTabs {
  const named = new URLSearchParams(window.location.search).get('table');
  return named ? tableTabsReducer(NO_TABS, { type: 'openHere', target: named }) : NO_TABS;
}

export function App() {
  const [theme, toggleTheme] = useTheme();
  const [tabs, dispatch] = useReducer(tableTabsReducer, null, firstTabs);
  const shown = activeTab(tabs);
  // What the Table location field shows: the shown tab's table (what was asked for, then where it opened), unless the
  // user typed over it since.
  const fieldKey = shown ? `${shown.id}:${shown.asked}:${shown.opening}:${shown.path ?? ''}` : '';
  const [typed, setTyped] = useState<{ key: string; text: string } | null>(null);
  const location = typed?.key === fieldKey ? typed.text : (shown?.path ?? shown?.target ?? '');
  const setLocation = (text: string) => setTyped({ key: fieldKey, text });
  const [problem, setProblem] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentTable[]>([]);
  const [dragging, setDragging] = useState(false);
  /** Which connections dialog is open: storage, or catalog (reached from the storage one). */
  const [connectionsOpen, setConnectionsOpen] = useState<'storage' | 'catalog' | null>(null);
  // Told to the navigator, which lists the connections' buckets again after the dialog closes.
  const [connectionsVersion, setConnectionsVersion] = useState(0);
  const [dockOpen, setDockOpenState] = useState(() => storedValue(DOCK_KEY) === 'open');
  const [navigatorOpen, setNavigatorOpenState] = useState(navigatorAtStart);
  const { jobs, loadError, upsert, clearFinished } = useJobs();
  useEndNotifications(jobs);
  const dragDepth = useRef(0);

  const setDockOpen = useCallback((next: boolean) => {
    storeValue(DOCK_KEY, next ? 'open' : 'closed');
    setDockOpenState(next);
  }, []);

  const toggleNavigator = () => {
    storeValue(NAVIGATOR_KEY, navigatorOpen ? 'closed' : 'open');
    setNavigatorOpenState(!navigatorOpen);
  };

  const refreshRecent = useCallback(async () => {
    const result = await api.recentTables();
    if (result.ok) setRecent(result.value);
  }, []);

  useEffect(() => {
    // Asking is what this effect is for; its state change comes with the answer.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refreshRecent();
  }, [refreshRecent]);

  // A table that opened was added to the recent tables by the host.
  const onStatus = useCallback(
    (id: number, path: string | null, opening: boolean) => {
      dispatch({ type: 'status', id, path, opening });
      if (path !== null && !opening) void refreshRecent();
    },
    [refreshRecent],
  );

  const openHere = (target: string) => {
    setProblem(null);
    dispatch({ type: 'openHere', target });
  };

  const openInNewTab = (target: string) => {
    setProblem(null);
    dispatch({ type: 'openInNewTab', target });
  };

  const sample = async (): Promise<string | null> => {
    setProblem(null);
    const result = await api.sampleTable();
    if (result.ok) return result.value.path;
    setProblem(result.error.message);
    return null;
  };

  const browse = async () => {
    const result = await api.chooseTableFolder();
    if (!result.ok) setProblem(result.error.message);
    else if (result.value) openHere(result.value);
  };

  const chooseFolder = async (): Promise<string | null> => {
    const result = await api.chooseTableFolder();
    if (result.ok) return result.value;
    setProblem(result.error.message);
    return null;
  };

  const started = (job: JobInfo) => {
    upsert(job);
    setDockOpen(true);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    const outcome = droppedLocation(event.dataTransfer, window.deltaport?.pathForFile);
    if (!outcome) return;
    if ('problem' in outcome) setProblem(outcome.problem);
    else openHere(outcome.path);
  };

  const welcome = (
    <Welcome
      recent={recent}
      onOpen={openHere}
      onSample={() => void sample().then((path) => path && openHere(path))}
      onConnections={() => setConnectionsOpen('storage')}
    />
  );

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
        <button
          type="button"
          className="button ghost"
          aria-expanded={navigatorOpen}
          aria-controls="navigator"
          onClick={toggleNavigator}
          title="Show or hide the navigator"
        >
          Navigator
        </button>
        <TableBar
          location={location}
          onLocationChange={setLocation}
          onOpen={openHere}
          onBrowse={nativeDialogs ? () => void browse() : null}
          onSample={() => void sample().then((path) => path && openHere(path))}
          onConnections={() => setConnectionsOpen('storage')}
          recent={recent}
          busy={shown?.opening ?? false}
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
      {problem && (
        <div className="banner">
          <Alert message={problem} />
        </div>
      )}
      <div className="app-body">
        {navigatorOpen && (
          <div id="navigator" className="navigator-pane">
            <Navigator
              onOpenTable={openInNewTab}
              onOpenSample={() => void sample().then((path) => path && openInNewTab(path))}
              onChooseFolder={nativeDialogs ? chooseFolder : null}
              connectionsVersion={connectionsVersion}
            />
          </div>
        )}
        <div className="app-main">
          {/* One table needs no tabs: the strip, and its height, come with the second. */}
          {tabs.tabs.length > 1 && (
            <TableTabsStrip
              tabs={tabs.tabs}
              active={tabs.active}
              onActivate={(id) => dispatch({ type: 'activate', id })}
              onClose={(id) => dispatch({ type: 'close', id })}
            />
          )}
          {tabs.tabs.map((tab) => (
            <TableView
              key={tab.id}
              tab={tab}
              shown={tab.id === tabs.active}
              jobs={jobs}
              nativeDialogs={nativeDialogs}
              onStarted={started}
              onStatus={onStatus}
              placeholder={welcome}
            />
          ))}
          {tabs.tabs.length === 0 && <main className="workspace empty">{welcome}</main>}
        </div>
      </div>

      <JobsDock
        jobs={jobs}
        loadError={loadError}
        open={dockOpen}
        onOpenChange={setDockOpen}
        onChanged={upsert}
        onClearFinished={clearFinished}
      />
      {connectionsOpen === 'storage' && (
        <StorageConnectionsDialog
          onClose={() => {
            setConnectionsOpen(null);
            setConnectionsVersion((n) => n + 1);
          }}
          onCatalogs={() => setConnectionsOpen('catalog')}
        />
      )}
      {connectionsOpen === 'catalog' && (
        <CatalogConnectionsDialog
          onClose={() => {
            setConnectionsOpen(null);
            setConnectionsVersion((n) => n + 1);
          }}
          onStorage={() => setConnectionsOpen('storage')}
        />
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a Delta table folder to open it
        </div>
      )}
    </div>
  );
}
