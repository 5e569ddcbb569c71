// Running and past jobs: the list the host keeps, kept current by its job events.
import { useCallback, useEffect, useState } from 'react';
import type { JobInfo } from '../../shared/api.js';
import { api } from './api-client.js';

export interface Jobs {
  jobs: JobInfo[];
  loadError: string | null;
  /** Records a job the UI just learned about (started or cancelled) without waiting for its event. */
  upsert(job: JobInfo): void;
}

const STAGE: Record<JobInfo['state'], number> = { queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 2 };

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
  const [jobs, setJobs] = useState<JobInfo[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);

  const upsert = useCallback((job: JobInfo) => {
    setJobs((current) => {
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
        setJobs((current) => {
          const known = new Map(current.map((j) => [j.id, j]));
          return newestFirst([...current, ...result.value.filter((j) => !known.has(j.id))]);
        });
      } else {
        setLoadError(result.error.message);
      }
    });
    return unsubscribe;
  }, [upsert]);

  return { jobs, loadError, upsert };
}
