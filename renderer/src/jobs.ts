// Running and past jobs: the list the host keeps, kept current by its job events; which of them the user cleared
// from view; and a desktop notification when a long job ends while the window is in the background.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { JobInfo } from '../../shared/api.js';
import { api } from './api-client.js';
import { storedValue, storeValue } from './stored.js';

export interface Jobs {
  /** The jobs in view, newest first (cleared finished ones left out). */
  jobs: JobInfo[];
  loadError: string | null;
  /** Records a job the UI just learned about (started or cancelled) without waiting for its event. */
  upsert(job: JobInfo): void;
  /** Hides every job that has finished, for this window and its next runs. */
  clearFinished(): void;
}

/** When this window's session began: the jobs created before it are history, shown on request. */
export const SESSION_START = Date.now();

const STAGE: Record<JobInfo['state'], number> = { queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };
const CLEARED_KEY = 'deltaport.jobsClearedAt';

export function isLive(job: JobInfo): boolean {
  return job.state === 'queued' || job.state === 'running';
}

// A call's answer can arrive after later events about the same job; never let it move the job backwards.
function fresher(known: JobInfo | undefined, incoming: JobInfo): JobInfo {
  if (!known) return incoming;
  const stage = STAGE[incoming.state] - STAGE[known.state];
  if (stage !== 0) return stage > 0 ? incoming : known;
  return incoming.progress.rows >= known.progress.rows ? incoming : known;
}

function newestFirst(jobs: JobInfo[]): JobInfo[] {
  return [...jobs].sort((a, b) => b.createdAt - a.createdAt);
}

export function useJobs(): Jobs {
  const [all, setAll] = useState<JobInfo[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [clearedAt, setClearedAt] = useState(() => Number(storedValue(CLEARED_KEY) ?? 0));

  const upsert = useCallback((job: JobInfo) => {
    setAll((current) => {
      const kept = fresher(
        current.find((j) => j.id === job.id),
        job,
      );
      return newestFirst([kept, ...current.filter((j) => j.id !== job.id)]);
    });
  }, []);

  useEffect(() => {
    const unsubscribe = api.onJobEvent((event) => upsert(event.job));
    void api.listJobs().then((result) => {
      if (result.ok) {
        // Events may already have arrived with fresher figures than the list; keep those.
        setAll((current) => {
          const known = new Map(current.map((j) => [j.id, j]));
          return newestFirst([...current, ...result.value.filter((j) => !known.has(j.id))]);
        });
      } else {
        setLoadError(result.error.message);
      }
    });
    return unsubscribe;
  }, [upsert]);

  const clearFinished = useCallback(() => {
    const now = Date.now();
    storeValue(CLEARED_KEY, String(now));
    setClearedAt(now);
  }, []);

  const jobs = all.filter((j) => isLive(j) || (j.finishedAt ?? j.createdAt) > clearedAt);
  return { jobs, loadError, upsert, clearFinished };
}

/** A job that took at least this long is worth a notification when it ends unseen. */
export const LONG_JOB_MS = 10_000;

/** Asked when the user starts an export (a permission prompt needs a user's gesture); never asked twice. */
export function offerNotifications(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
}

function inBackground(): boolean {
  return document.hidden || !document.hasFocus();
}

function endNotice(job: JobInfo): { title: string; body: string } {
  const title = job.state === 'succeeded' ? 'Export done' : job.state === 'failed' ? 'Export failed' : 'Export cancelled';
  return { title, body: job.error && job.state === 'failed' ? `${job.title}: ${job.error.message}` : job.title };
}

/** Notifies when a job seen running ends after LONG_JOB_MS or more while the window is in the background. */
export function useEndNotifications(jobs: JobInfo[]): void {
  const seenLive = useRef(new Set<string>());
  useEffect(() => {
    for (const job of jobs) {
      if (isLive(job)) {
        seenLive.current.add(job.id);
        continue;
      }
      if (!seenLive.current.delete(job.id)) continue;
      const ran = (job.finishedAt ?? 0) - (job.startedAt ?? job.createdAt);
      if (ran < LONG_JOB_MS || !inBackground()) continue;
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') continue;
      const { title, body } = endNotice(job);
      new Notification(title, { body, tag: job.id });
    }
  }, [jobs]);
}
