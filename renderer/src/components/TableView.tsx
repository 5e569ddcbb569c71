// One open table, as a tab shows it: its snapshot bar, columns and panels, with all of its own state (the open table,
// time travel, filter, order, the panels' forms). Mounted for as long as its tab is open, hidden while another tab
// is shown, so that nothing typed in it is lost by looking at another table.
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { JobInfo } from '../../../shared/api.js';
import { validateSourceSpec, type DeltaSourceSpec } from '../../../shared/source-spec.js';
import { api } from '../api-client.js';
import { feedUnavailable } from '../feed-rows.js';
import { folderName, targetTableName } from '../format.js';
import type { TableTab } from '../table-tabs.js';
import { useTable } from '../use-table.js';
import { useTableText } from '../use-table-text.js';
import { Alert } from './Alert.js';
import { ColumnsPanel } from './ColumnsPanel.js';
import { checkedFilter, FilterBar } from './FilterBar.js';
import { HistoryPanel } from './HistoryPanel.js';
import { OrderField, checkedOrder } from './OrderField.js';
import { OverviewPanel } from './OverviewPanel.js';
import { PartitionsPanel } from './PartitionsPanel.js';
import { PreviewPanel } from './PreviewPanel.js';
import { ProfilePanel } from './ProfilePanel.js';
import { RowsSourceBar, type RowsToExport } from './RowsExport.js';
import { SinkPanel } from './SinkPanel.js';
import { SnapshotBar } from './SnapshotBar.js';
import { SqlPanel } from './SqlPanel.js';
import { Tabs } from './Tabs.js';

type PanelKey = 'data' | 'sql' | 'overview' | 'profile' | 'partitions' | 'history' | 'export';

interface Props {
  tab: TableTab;
  shown: boolean;
  jobs: JobInfo[];
  nativeDialogs: boolean;
  onStarted(job: JobInfo): void;
  /** Told where the table opened and whether it is opening, for the tab strip and the table bar. */
  onStatus(id: number, path: string | null, opening: boolean): void;
  /** What a tab whose table did not open shows under the problem (the welcome screen). */
  placeholder: ReactNode;
}

export function TableView({ tab, shown, jobs, nativeDialogs, onStarted, onStatus, placeholder }: Props) {
  const table = useTable();
  const { open } = table;
  const [panel, setPanel] = useState<PanelKey>('data');
  // A diff's, a change feed's or a query's rows sent to the Export tab, which then exports them instead of the snapshot.
  const [rowsToExport, setRowsToExport] = useState<RowsToExport | null>(null);
  // The asks already started: React runs an effect twice in development, and the same ask must open once.
  const started = useRef(0);

  useEffect(() => {
    if (started.current === tab.asked) return;
    started.current = tab.asked;
    void open(tab.target);
  }, [open, tab.asked, tab.target]);

  const { info, travel } = table;
  const path = info?.path ?? null;
  useEffect(() => onStatus(tab.id, path, table.opening), [onStatus, tab.id, path, table.opening]);

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
    setPanel('export');
  };

  return (
    <div className="table-view" role="tabpanel" id={`table-panel-${tab.id}`} aria-labelledby={`table-tab-${tab.id}`} hidden={!shown}>
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
            <Tabs<PanelKey>
              label="Table panels"
              active={panel}
              onChange={setPanel}
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
                  content: <ProfilePanel path={path} version={info.version} visible={shown && panel === 'profile'} />,
                },
                {
                  key: 'partitions',
                  label: 'Partitions',
                  content: (
                    <PartitionsPanel
                      path={path}
                      version={info.version}
                      partitionColumns={info.partitionColumns}
                      visible={shown && panel === 'partitions'}
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
                        defaultTable={exportingRows ? `${targetTableName(path)}_${exportingRows.source.rows}` : targetTableName(path)}
                        columns={exportingRows?.columns ?? table.chosen}
                        nativeDialogs={nativeDialogs}
                        jobs={jobs}
                        onStarted={onStarted}
                      />
                    </>
                  ),
                },
              ]}
            />
          </div>
        </main>
      ) : (
        <main className="workspace empty">{placeholder}</main>
      )}
    </div>
  );
}
