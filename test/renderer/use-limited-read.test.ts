// @vitest-environment happy-dom
// The limited read behind the preview, the diff and the change feed, against the real engine: the first read waits
// until there is something to read and uses the default limit; a typed limit is checked before it is asked for; a
// failed read names its cause and keeps the rows already shown.
import path from 'node:path';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installInProcessApi, type InProcessApi } from './in-process-api.js';
import { tablePath } from '../support/tables.js';
import { duck, sqlText } from '../support/duckdb.js';
import type { PreviewResult, Result } from '../../shared/api.js';

let host: InProcessApi;
let hook: typeof import('../../renderer/src/use-limited-read.js');
let api: typeof import('../../renderer/src/api-client.js').api;

beforeAll(async () => {
  host = installInProcessApi();
  hook = await import('../../renderer/src/use-limited-read.js');
  ({ api } = await import('../../renderer/src/api-client.js'));
});
afterAll(() => host.close());

describe('limitProblemOf', () => {
  it('takes a whole number from 1 to 100,000 and names the rule otherwise', () => {
    for (const text of ['1', '1000', '100000', ' 25 ']) expect(hook.limitProblemOf(text)).toBeNull();
    for (const text of ['', ' ', '0', '-3', '100001', '2.5', 'ten']) {
      expect(hook.limitProblemOf(text)).toBe('Row limit must be a whole number from 1 to 100,000.');
    }
  });
});

describe('useLimitedRead', () => {
  it('reads once there is something to read, then again with the typed limit, and keeps the rows when a read fails', async () => {
    const root = tablePath('delta-0.8.0-partitioned');
    const rowCount = Number((await duck(`SELECT count(*) AS n FROM read_parquet(${sqlText(path.join(root, '**/*.parquet'))})`))[0].n);
    expect(rowCount).toBeGreaterThan(2);
    const previewOf = (tablePath: string | null) =>
      tablePath === null ? null : (limit: number) => api.preview({ source: { tablePath }, limit });

    const { result, rerender } = renderHook(({ location }) => hook.useLimitedRead(previewOf(location)), {
      initialProps: { location: null as string | null },
    });
    expect(result.current).toMatchObject({ value: null, reads: 0, busy: false, limitText: String(hook.DEFAULT_ROW_LIMIT) });

    rerender({ location: root });
    await waitFor(() => expect(result.current.reads).toBe(1), { timeout: 20_000 });
    expect(result.current.value?.rows).toHaveLength(Math.min(rowCount, hook.DEFAULT_ROW_LIMIT));

    act(() => result.current.setLimitText('0'));
    expect(result.current.limitProblem).toBe('Row limit must be a whole number from 1 to 100,000.');
    act(() => result.current.run());
    expect(result.current.busy).toBe(false);

    act(() => result.current.setLimitText('2'));
    expect(result.current.limitProblem).toBeNull();
    act(() => result.current.run());
    expect(result.current.busy).toBe(true);
    await waitFor(() => expect(result.current.reads).toBe(2), { timeout: 20_000 });
    expect(result.current.value?.rows).toHaveLength(2);
    expect(result.current.value?.truncated).toBe(true);

    const missing = path.join(host.dataDir, 'no-such-table');
    rerender({ location: missing });
    act(() => result.current.run());
    await waitFor(() => expect(result.current.error).not.toBeNull(), { timeout: 20_000 });
    expect(result.current.error).not.toContain('\n');
    expect(result.current).toMatchObject({ reads: 2, busy: false });
    expect(result.current.value?.rows).toHaveLength(2);
  });

  it("keeps the newest request's answer when an older, slower one comes back after it", async () => {
    // The older read orders all of COVID-19_NYT (every row streams past); the newer reads three rows of a small table.
    const slow = (limit: number) =>
      api.preview({ source: { tablePath: tablePath('COVID-19_NYT') }, limit, orderBy: [{ column: 'cases', descending: true }] });
    const fast = (limit: number) => api.preview({ source: { tablePath: tablePath('simple_table') }, limit });
    const { result } = renderHook(() => hook.useLimitedRead(slow));
    await waitFor(() => expect(result.current.reads).toBe(1), { timeout: 60_000 });
    act(() => result.current.run(undefined, slow));
    act(() => result.current.run(undefined, fast));
    await waitFor(() => expect(result.current.busy).toBe(false), { timeout: 60_000 });
    expect(result.current.value?.columns.map((c) => c.name)).toEqual(['id']);
    // The slow answer, when it comes, changes nothing.
    const slowAnswer = await slow(1000);
    expect(slowAnswer.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(result.current.value?.columns.map((c) => c.name)).toEqual(['id']);
    expect(result.current.reads).toBe(2);
  }, 120_000);

  it("sends every read under the view's one id: a newer read stops the older in the host, and leaving stops the last", async () => {
    // Ordering all of COVID-19_NYT streams every row past: each read is still running when the next step comes.
    const answers: Promise<Result<PreviewResult>>[] = [];
    const ids: string[] = [];
    const slow = (limit: number, readId: string) => {
      ids.push(readId);
      const answer = api.preview({
        source: { tablePath: tablePath('COVID-19_NYT') },
        limit,
        orderBy: [{ column: 'cases', descending: true }],
        readId,
      });
      answers.push(answer);
      return answer;
    };
    const { result, unmount } = renderHook(() => hook.useLimitedRead(slow));
    await waitFor(() => expect(answers).toHaveLength(1), { timeout: 20_000 });
    act(() => result.current.run(undefined, slow));
    expect(answers).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(await answers[0]).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    unmount();
    expect(await answers[1]).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
  }, 120_000);
});
