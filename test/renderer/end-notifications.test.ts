// @vitest-environment happy-dom
// A desktop notification when a long job ends while the window is in the background, and only then. The browser's
// Notification is replaced by a recorder (happy-dom has none; the real one needs a desktop).
import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobInfo } from '../../shared/api.js';
import { LONG_JOB_MS, useEndNotifications } from '../../renderer/src/jobs.js';

const shown: { title: string; body?: string }[] = [];
class RecordedNotification {
  static permission = 'granted';
  constructor(title: string, options?: { body?: string }) {
    shown.push({ title, body: options?.body });
  }
}

function job(state: JobInfo['state'], ranMs: number, id = 'j1'): JobInfo {
  return {
    id,
    kind: 'export',
    title: 'people -> csv:/tmp/people.csv',
    request: { source: { tablePath: '/t' }, sink: { kind: 'csv', path: '/tmp/people.csv' } },
    state,
    progress: { rows: 10, files: 1, filesTotal: 1, bytes: 1, bytesTotal: 1, rowsPerSec: 1, etaSeconds: null, percent: 100 },
    createdAt: 1000,
    startedAt: 1000,
    finishedAt: state === 'running' ? null : 1000 + ranMs,
    error: state === 'failed' ? { code: 'SINK_WRITE', message: 'the disk is full' } : null,
    result: null,
  };
}

beforeEach(() => {
  shown.length = 0;
  vi.stubGlobal('Notification', RecordedNotification);
});
afterEach(() => vi.unstubAllGlobals());

function runThrough(states: JobInfo[][], focused: boolean): void {
  vi.spyOn(document, 'hasFocus').mockReturnValue(focused);
  const { rerender } = renderHook(({ jobs }) => useEndNotifications(jobs), { initialProps: { jobs: states[0] } });
  for (const jobs of states.slice(1)) rerender({ jobs });
}

describe('useEndNotifications', () => {
  it('notifies when a long job seen running ends while the window is in the background', () => {
    runThrough([[job('running', 0)], [job('succeeded', LONG_JOB_MS + 1)]], false);
    expect(shown).toEqual([{ title: 'Export done', body: 'people -> csv:/tmp/people.csv' }]);
  });

  it('says why a job failed', () => {
    runThrough([[job('running', 0)], [job('failed', LONG_JOB_MS)]], false);
    expect(shown).toEqual([{ title: 'Export failed', body: 'people -> csv:/tmp/people.csv: the disk is full' }]);
  });

  it('stays quiet for a short job, a window in front, or a job that had ended before the window saw it run', () => {
    runThrough([[job('running', 0)], [job('succeeded', LONG_JOB_MS - 1)]], false);
    runThrough([[job('running', 0)], [job('succeeded', LONG_JOB_MS * 2)]], true);
    runThrough([[job('succeeded', LONG_JOB_MS * 2)], [job('succeeded', LONG_JOB_MS * 2)]], false);
    expect(shown).toEqual([]);
  });
});
