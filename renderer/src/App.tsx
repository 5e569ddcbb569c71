// The one window: table chooser on top, the open table's snapshot bar, columns on the left, the panels in tabs,
// jobs in a strip at the bottom. The open table's state lives in useTable; this file lays it out.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { JobInfo, RecentTable } from '../../shared/api.js';
import { validateSourceSpec, type DeltaSourceSpec } from '../../shared/source-spec.js';
import { api } from './api-client.js';
import { Alert } from './components/Alert.js';
import { ColumnsPanel } from './components/ColumnsPanel.js';
import { checkedFilter, FilterBar } from './components/FilterBar.js';
import { checkedOrder, OrderField } from './components/OrderField.js';
import { HistoryPanel } from './components/HistoryPanel.js';
import { JobsDock } from './components/JobsDock.js';
import { OverviewPanel } from './components/OverviewPanel.js';
import { PartitionsPanel } from './components/PartitionsPanel.js';
import { PreviewPanel } from './components/PreviewPanel.js';
import { RowsSourceBar, type RowsToExport } from './components/RowsExport.js';
import { ProfilePanel } from './components/ProfilePanel.js';
import { SinkPanel } from './components/SinkPanel.js';
import { SnapshotBar } from './components/SnapshotBar.js';
import { SqlPanel } from './components/SqlPanel.js';
import { CatalogConnectionsDialog } from './components/CatalogConnectionsDialog.js';
import { StorageConnectionsDialog } from './components/StorageConnectionsDialog.js';
import { TableBar } from './components/TableBar.js';
import { Tabs } from './components/Tabs.js';
import { Welcome } from './components/Welcome.js';
import { droppedLocation } from './drop.js';
import { feedUnavailable } from './feed-rows.js';
import { folderName } from './format.js';
import { useEndNotifications, useJobs } from './jobs.js';
import { storedValue, storeValue } from './stored.js';
import { useTheme } from './theme.js';
import { useTable } from './use-table.js';
import { useTableText } from './use-table-text.js';

// Dragging text inside the page (a selection, a field's value) must not look like dropping a folder.
function carriesLocation(event: DragEvent): boolean {
  const types = event.dataTransfer.types;
  return types.includes('Files') || types.includes('text/uri-list');
}

type TabKey = 'data' | 'sql' | 'overview' | 'profile' | 'partitions' | 'history' | 'export';

// In a browser the host's pickers always answer null, so the buttons would do nothing there.
const nativeDialogs = window.deltaport !== undefined;
const DOCK_KEY = 'deltaport.jobsDock';

export function App() {
  const [theme, toggleTheme] = useTheme();
  const table = useTable();
  const { open, reportError, setLocation } = table;
  const [tab, setTab] = useState<TabKey>('data');
  const [recent, setRecent] = useState<RecentTable[]>([]);
  const [dragging, setDragging] = useState(false);
  /** Which connections dialog is open: storage, or catalog (reached from the storage one). */
  const [connectionsOpen, setConnectionsOpen] = useState<'storage' | 'catalog' | null>(null);
  const [dockOpen, setDockOpenState] = useState(() => storedValue(DOCK_KEY) === 'open');
  const { jobs, loadError, upsert, clearFinished } = useJobs();
  useEndNotifications(jobs);
  // A diff's, a change feed's or a query's rows sent to the Export tab, which then exports them instead of the snapshot.
  const [rowsToExport, setRowsToExport] = useState<RowsToExport | null>(null);
  const dragDepth = useRef(0);

  const setDockOpen = useCallback((next: boolean) => {
    storeValue(DOCK_KEY, next ? 'open' : 'closed');
    setDockOpenState(next);
  }, []);

  const refreshRecent = useCallback(async () => {
    const result = await api.recentTables();
    if (result.ok) setRecent(result.value);
  }, []);

  const openAndRemember = useCallback(
    async (target: string) => {
      await open(target);
      await refreshRecent();
    },
    [open, refreshRecent],
  );

  useEffect(() => {
    // The main process opens a table (command line, Open Recent, second launch) by loading ?table=<path>.
    const named = new URLSearchParams(window.location.search).get('table');
    // Starting that read is what this effect is for; its first state change (busy) belongs to the same render pass.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void (named ? openAndRemember(named) : refreshRecent());
  }, [refreshRecent, openAndRemember]);

  const openSample = async () => {
    reportError(null);
    const result = await api.sampleTable();
    if (result.ok) await openAndRemember(result.value.path);
    else reportError(result.error.message);
  };

  const browse = async () => {
    const result = await api.chooseTableFolder();
    if (!result.ok) reportError(result.error.message);
    else if (result.value) await openAndRemember(result.value);
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
    if ('problem' in outcome) reportError(outcome.problem);
    else {
      setLocation(outcome.path);
      void openAndRemember(outcome.path);
    }
  };

  const { info, travel } = table;
  const path = info?.path ?? null;
  const [filterText, setFilterText] = useTableText(path);
  const [orderText, setOrderText] = useTableText(path);
  // The filter and the order narrow what the table's snapshot and columns give, for the preview and the export alike.
  const filter = info ? checkedFilter(filterText, info.schema) : { problem: null };
  const order = info ? checkedOrder(orderText, info.schema) : { problem: null };
  const narrowed =
    table.blocked ?? (filter.problem !== null ? 'Fix the filter first.' : order.problem !== null ? 'Fix the order first.' : null);
  const draft: DeltaSourceSpec | null =
    narrowed === null && table.source ? { ...table.source, ...(filter.filter ? { filter: filter.filter } : {}) } : null;
  // The spec's own rules, in the words the host would refuse it with, checked as the user types.
  const specProblem = draft ? (validateSourceSpec(draft)[0] ?? null) : null;
  const blocked = narrowed ?? specProblem;
  const source = specProblem === null ? draft : null;
  // Rows sent from another table's History are not this table's to export.
  const exportingRows = rowsToExport && rowsToExport.source.tablePath === path ? rowsToExport : null;
  const exportRows = (rows: RowsToExport) => {
    setRowsToExport(rows);
    setTab('export');
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
          location={table.location}
          onLocationChange={setLocation}
          onOpen={(p) => void openAndRemember(p)}
          onBrowse={nativeDialogs ? () => void browse() : null}
          onSample={() => void openSample()}
          onConnections={() => setConnectionsOpen('storage')}
          recent={recent}
          busy={table.opening}
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
      {table.openError && (
        <div className="banner">
          <Alert message={table.openError} />
        </div>
      )}
      {table.newerVersion !== null && info && (
        <div className="banner news" role="status">
          <span>
            The table has new commits: v{table.newerVersion} is the latest (this window read up to v{info.versionRange.latest}).
          </span>
          <button type="button" className="button small primary" onClick={() => void table.moveToLatest()}>
            Go to v{table.newerVersion}
          </button>
        </div>
      )}

      {info && path ? (
        <main className="workspace">
          <SnapshotBar info={info} travel={travel} commits={table.history} />
          <div className="workspace-body">
            <aside className="sidebar">
              <ColumnsPanel
                fields={info.schema.fields}
                partitionColumns={info.partitionColumns}
                chosen={table.chosen}
                onChange={table.setChosen}
              />
            </aside>
            <Tabs<TabKey>
              label="Table panels"
              active={tab}
              onChange={setTab}
              tabs={[
                {
                  key: 'data',
                  label: 'Data',
                  content: (
                    <div className="data-panel">
                      <PreviewPanel
                        key={path}
                        source={source}
                        order={order.keys ?? null}
                        blocked={blocked}
                        wantedVersion={table.wantedVersion}
                        snapshotRows={{ version: info.version, rows: info.numRecords }}
                        fields={
                          <>
                            <FilterBar text={filterText} schema={info.schema} onChange={setFilterText} />
                            <OrderField text={orderText} schema={info.schema} onChange={setOrderText} />
                          </>
                        }
                        onOrderChange={setOrderText}
                        onAddFilter={(condition) =>
                          setFilterText((text) => (text.trim() === '' ? condition : `(${text}) AND ${condition}`))
                        }
                        preview={api.preview}
                      />
                    </div>
                  ),
                },
                {
                  key: 'sql',
                  label: 'SQL',
                  content: <SqlPanel key={path} path={path} version={info.version} fields={info.schema.fields} onExportRows={exportRows} />,
                },
                { key: 'overview', label: 'Overview', content: <OverviewPanel info={info} /> },
                {
                  key: 'profile',
                  label: 'Profile',
                  content: <ProfilePanel path={path} version={info.version} visible={tab === 'profile'} />,
                },
                {
                  key: 'partitions',
                  label: 'Partitions',
                  content: (
                    <PartitionsPanel
                      path={path}
                      version={info.version}
                      partitionColumns={info.partitionColumns}
                      visible={tab === 'partitions'}
                    />
                  ),
                },
                {
                  key: 'history',
                  label: 'History',
                  badge: table.history ? String(table.history.length) : undefined,
                  content: (
                    <HistoryPanel
                      key={path}
                      path={path}
                      columns={info.schema.fields.map((f) => f.name)}
                      commits={table.history}
                      error={table.historyError}
                      currentVersion={info.version}
                      feedUnavailable={feedUnavailable(info.configuration, info.version)}
                      onPick={travel.travelTo}
                      onExportRows={exportRows}
                    />
                  ),
                },
                {
                  key: 'export',
                  label: 'Export',
                  content: (
                    <>
                      {exportingRows && (
                        <RowsSourceBar tableName={folderName(path)} source={exportingRows.source} onBack={() => setRowsToExport(null)} />
                      )}
                      {/* The form belongs to its table: another table starts afresh (keys, answers, banners). */}
                      <SinkPanel
                        key={path}
                        source={exportingRows?.source ?? source}
                        blocked={exportingRows ? null : blocked}
                        defaultTable={exportingRows ? `${folderName(path)}_${exportingRows.source.rows}` : folderName(path)}
                        columns={exportingRows?.columns ?? table.chosen}
                        nativeDialogs={nativeDialogs}
                        jobs={jobs}
                        onStarted={started}
                      />
                    </>
                  ),
                },
              ]}
            />
          </div>
        </main>
      ) : (
        <main className="workspace empty">
          <Welcome
            recent={recent}
            onOpen={(p) => void openAndRemember(p)}
            onSample={() => void openSample()}
            onConnections={() => setConnectionsOpen('storage')}
          />
        </main>
      )}

      <JobsDock
        jobs={jobs}
        loadError={loadError}
        open={dockOpen}
        onOpenChange={setDockOpen}
        onChanged={upsert}
        onClearFinished={clearFinished}
      />
      {connectionsOpen === 'storage' && (
        <StorageConnectionsDialog onClose={() => setConnectionsOpen(null)} onCatalogs={() => setConnectionsOpen('catalog')} />
      )}
      {connectionsOpen === 'catalog' && (
        <CatalogConnectionsDialog onClose={() => setConnectionsOpen(null)} onStorage={() => setConnectionsOpen('storage')} />
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a Delta table folder to open it
        </div>
      )}
    </div>
  );
}
