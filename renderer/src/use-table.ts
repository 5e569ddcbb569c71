// The open table and everything read about it: where it is, its info at the snapshot the time-travel fields resolve
// to, its history, the chosen columns, and whether it has gained commits since it was opened. App renders this; the
// panels get the parts they show.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DeltaSourceSpec } from '../../shared/source-spec.js';
import type { CommitSummary, TableInfo } from '../../shared/table-info.js';
import { api } from './api-client.js';
import { useLatestRequest } from './latest-request.js';
import { useTimeTravel } from './time-travel.js';
import type { TimeTravel } from './time-travel.js';

/** How often an open table's log is listed for new commits (a directory listing, no file is read). */
export const NEW_COMMITS_POLL_MS = 3000;

export interface OpenTable {
  opening: boolean;
  openError: string | null;
  info: TableInfo | null;
  history: CommitSummary[] | null;
  historyError: string | null;
  chosen: string[];
  setChosen(names: string[]): void;
  travel: TimeTravel;
  /** The version the current time-travel fields resolve to; null while unknown. */
  wantedVersion: number | null;
  /** Why there is nothing to read yet; null when `source` is set. */
  blocked: string | null;
  source: DeltaSourceSpec | null;
  /** The newest version the log lists, when it is newer than what the window read. */
  newerVersion: number | null;
  open(target: string): Promise<void>;
  /** Re-reads the table (info and history) and moves to its latest snapshot. */
  moveToLatest(): Promise<void>;
}

export function useTable(): OpenTable {
  const [opening, setOpening] = useState(false);
  const [openError, setOpenError] = useState<string | null>(null);
  const [info, setInfo] = useState<TableInfo | null>(null);
  const [history, setHistory] = useState<CommitSummary[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [listedLatest, setListedLatest] = useState<number | null>(null);
  const path = info?.path ?? null;
  const travel = useTimeTravel(path);
  const { reset: resetTravel } = travel;
  // The table the latest open asked for: answers about an older one are dropped.
  const currentPath = useRef<string | null>(null);

  // A table opened while the last one's history is read cancels that read.
  const { send: sendHistory } = useLatestRequest();

  const loadHistory = useCallback(
    async (tablePath: string) => {
      const commits = await sendHistory((readId) => api.history({ path: tablePath, readId }));
      if (commits === null || currentPath.current !== tablePath) return;
      if (commits.ok) {
        setHistory(commits.value);
        setHistoryError(null);
      } else setHistoryError(commits.error.message);
    },
    [sendHistory],
  );

  const open = useCallback(
    async (target: string) => {
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
      setInfo(opened);
      setChosen(opened.schema.fields.map((f) => f.name));
      setListedLatest(opened.versionRange.latest);
      resetTravel();
      setHistory(null);
      setHistoryError(null);
      await loadHistory(opened.path);
    },
    [loadHistory, resetTravel],
  );

  const wantedVersion =
    travel.status.state === 'resolved'
      ? travel.status.version
      : travel.status.state === 'latest'
        ? (info?.versionRange.latest ?? null)
        : null;

  // The overview and the column list follow the snapshot the time-travel fields resolve to.
  const shownVersion = info?.version ?? null;
  useEffect(() => {
    if (path === null || wantedVersion === null || shownVersion === wantedVersion) return;
    let stale = false;
    void api.openTable({ path, versionAsOf: wantedVersion }).then((result) => {
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
  }, [path, wantedVersion, shownVersion]);

  // New commits: the log is listed now and then while the window is visible.
  useEffect(() => {
    if (path === null) return;
    let stopped = false;
    const timer = setInterval(() => {
      if (document.hidden) return;
      void api.latestVersion({ path }).then((result) => {
        if (!stopped && result.ok && currentPath.current === path) setListedLatest(result.value.latest);
      });
    }, NEW_COMMITS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [path]);

  const moveToLatest = useCallback(async () => {
    if (path !== null) await open(path);
  }, [open, path]);

  const blocked = !info
    ? 'Open a table first.'
    : chosen.length === 0
      ? 'Choose at least one column.'
      : travel.status.state === 'checking'
        ? 'Resolving the snapshot…'
        : travel.asOf === null
          ? 'Fix the Version or Timestamp field first.'
          : null;
  const source: DeltaSourceSpec | null =
    blocked === null && path !== null ? { tablePath: path, columnNames: chosen, ...travel.asOf } : null;
  const known = info?.versionRange.latest ?? null;

  return {
    opening,
    openError,
    info,
    history,
    historyError,
    chosen,
    setChosen,
    travel,
    wantedVersion,
    blocked,
    source,
    newerVersion: known !== null && listedLatest !== null && listedLatest > known ? listedLatest : null,
    open,
    moveToLatest,
  };
}
