// @vitest-environment happy-dom
// The Export tab against the real engine: the form's problems follow the form as it is edited, an existing target
// is never appended to or replaced without the user's choice, and the started job's real state is what is shown.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/api.js';
import { installInProcessApi, type InProcessApi } from './in-process-api.js';
import { tablePath } from '../support/tables.js';
import { duck, sqlText } from '../support/duckdb.js';

let host: InProcessApi;
let SinkPanel: typeof import('../../renderer/src/components/SinkPanel.js').SinkPanel;
const source = { tablePath: tablePath('delta-0.8.0-partitioned'), columnNames: ['value', 'month'] };
// The table's only commit wrote 7 rows (commitInfo.operationMetrics.numOutputRows).
const ROWS = 7;

beforeAll(async () => {
  host = installInProcessApi();
  ({ SinkPanel } = await import('../../renderer/src/components/SinkPanel.js'));
});
afterEach(cleanup);
afterAll(() => host.close());

function renderPanel(jobs: JobInfo[] = [], started: JobInfo[] = []) {
  const props = {
    source,
    blocked: null,
    defaultTable: 'partitioned',
    columns: source.columnNames,
    nativeDialogs: false,
    jobs,
    onStarted: (job: JobInfo) => started.push(job),
  };
  const view = render(createElement(SinkPanel, props));
  return { ...view, rerenderWith: (next: JobInfo[]) => view.rerender(createElement(SinkPanel, { ...props, jobs: next })) };
}

const exportBar = () => document.querySelector<HTMLElement>('.export-bar')!;

describe('SinkPanel', () => {
  it("shows the form's problems only while they hold", () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    within(exportBar()).getByRole('alert');
    expect(within(exportBar()).getByRole('alert').textContent).toContain('Choose the SQLite file to write into.');
    fireEvent.change(screen.getByLabelText('SQLite file'), { target: { value: 'relative.db' } });
    expect(within(exportBar()).getByRole('alert').textContent).toContain('Give the full path of the SQLite file');
    fireEvent.change(screen.getByLabelText('SQLite file'), { target: { value: path.join(host.dataDir, 'x.db') } });
    expect(within(exportBar()).queryByRole('alert')).toBeNull();
  });

  it('lists several problems one per line, as the form is typed', () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.change(screen.getByLabelText('Batch size'), { target: { value: '0' } });
    const items = within(within(exportBar()).getByRole('alert'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['Choose the SQLite file to write into.', 'Batch size must be a whole number from 1 to 10,000,000.']);
  });

  it('asks before appending to an existing table: Stop writes nothing, Replace overwrites it', async () => {
    const file = path.join(host.dataDir, 'existing.db');
    const db = new Database(file);
    db.exec("CREATE TABLE partitioned (value TEXT, month INTEGER); INSERT INTO partitioned VALUES ('kept', 1)");
    db.close();
    const started: JobInfo[] = [];
    const view = renderPanel([], started);
    fireEvent.change(screen.getByLabelText('SQLite file'), { target: { value: file } });

    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    const choice = await screen.findByRole('alertdialog', undefined, { timeout: 20_000 });
    expect(choice.textContent).toContain('partitioned already exists');
    fireEvent.click(within(choice).getByRole('button', { name: 'Stop' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(started).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', undefined, { timeout: 20_000 })).getByRole('button', { name: 'Replace' }),
    );
    await waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000 });
    expect(started[0].request.sink).toMatchObject({ kind: 'sqlite', mode: 'overwrite' });
    const done = await host.jobs.wait(started[0].id);
    expect(done.state).toBe('succeeded');
    const check = new Database(file, { readonly: true });
    expect((check.prepare('SELECT count(*) AS n FROM partitioned').get() as { n: number }).n).toBe(ROWS);
    check.close();

    // What the bar says follows the job: done, with the rows it committed.
    act(() => view.rerenderWith([done]));
    expect(within(exportBar()).getByRole('status').textContent).toMatch(new RegExp(`^Done: ${ROWS} rows exported`));
  });

  it('says an export failed when its job fails at once, not that it started', async () => {
    const started: JobInfo[] = [];
    const view = renderPanel([], started);
    fireEvent.change(screen.getByLabelText('Write mode'), { target: { value: 'overwrite' } });
    fireEvent.change(screen.getByLabelText('SQLite file'), { target: { value: path.join(host.dataDir, 'missing', 'x.db') } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000 });
    const failed = await host.jobs.wait(started[0].id);
    expect(failed.state).toBe('failed');
    act(() => view.rerenderWith([failed]));
    expect(within(exportBar()).getByRole('alert').textContent).toContain(`Export failed: ${failed.error!.message}`);
    expect(within(exportBar()).queryByRole('status')).toBeNull();
    expect(fs.existsSync(path.join(host.dataDir, 'missing'))).toBe(false);
  });

  it('keeps Exactly once on for a snapshot and off for a diff export, with the reason, and exports a diff without it', async () => {
    const started: JobInfo[] = [];
    const props = {
      blocked: null,
      defaultTable: 'diff',
      columns: ['id'],
      nativeDialogs: false,
      jobs: [],
      onStarted: (job: JobInfo) => started.push(job),
    };
    const view = render(createElement(SinkPanel, { ...props, source }));
    const box = screen.getByRole('checkbox', { name: 'Exactly once' });
    const reason = () => document.getElementById(box.getAttribute('aria-describedby')!)?.textContent;
    // A snapshot into a SQL table keeps the record always (Retry resumes from it): on, fixed, and said so.
    expect((box as HTMLInputElement).checked).toBe(true);
    expect((box as HTMLInputElement).disabled).toBe(true);
    expect(reason()).toBe(
      'Always on for a snapshot: the target records which batches landed, so Retry resumes after them and writes each row once.',
    );
    // Through the user's own SQL it is the user's choice.
    fireEvent.change(screen.getByLabelText('Write mode'), { target: { value: 'sql' } });
    expect((box as HTMLInputElement).disabled).toBe(false);
    expect(reason()).toBe('Records which batches landed, so a rerun after a failure writes each row once.');
    fireEvent.change(screen.getByLabelText('Write mode'), { target: { value: 'append' } });

    const diff = { rows: 'diff' as const, tablePath: tablePath('cdf-table'), from: 0, to: 1 };
    view.rerender(createElement(SinkPanel, { ...props, source: diff }));
    expect((box as HTMLInputElement).checked).toBe(false);
    expect((box as HTMLInputElement).disabled).toBe(true);
    expect(reason()).toBe('Not for changed rows: a diff or a change feed has no position a rerun could resume from.');

    fireEvent.change(screen.getByLabelText('SQLite file'), { target: { value: path.join(host.dataDir, 'diff.db') } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000 });
    expect(started[0].request.sink).toMatchObject({ kind: 'sqlite' });
    expect((started[0].request.sink as { exactlyOnce?: boolean }).exactlyOnce ?? false).toBe(false);
    expect((await host.jobs.wait(started[0].id)).state).toBe('succeeded');
  });

  it('Show plan checks what Export checks: a file in a missing folder, a folder given as the file', async () => {
    const started: JobInfo[] = [];
    renderPanel([], started);
    const plan = screen.getByRole('button', { name: 'Show plan' });
    const planCard = () => plan.closest('section')!;
    fireEvent.change(screen.getByLabelText('Sink'), { target: { value: 'csv' } });
    const missing = path.join(host.dataDir, 'no-such-folder', 'out.csv');
    fireEvent.change(screen.getByLabelText('Output file'), { target: { value: missing } });
    fireEvent.click(plan);
    const refused = await within(planCard()).findByRole('alert', undefined, { timeout: 20_000 });
    expect(refused.textContent).toContain(`The output folder does not exist: ${path.dirname(missing)}`);
    expect(planCard().querySelector('.plan')).toBeNull();

    // Export refuses it in the same words, before any job is queued.
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(
      () =>
        expect(within(exportBar()).getByRole('alert').textContent).toContain(`The output folder does not exist: ${path.dirname(missing)}`),
      { timeout: 20_000 },
    );
    expect(started).toEqual([]);

    fireEvent.change(screen.getByLabelText('Output file'), { target: { value: host.dataDir } });
    fireEvent.click(plan);
    await waitFor(() => expect(within(planCard()).getByRole('alert').textContent).toContain(`${host.dataDir} is a folder, not a file`), {
      timeout: 20_000,
    });
    expect(planCard().querySelector('.plan')).toBeNull();
  });

  it('masks a Connection URL with a password as the Password field is, until Show is pressed', () => {
    renderPanel();
    fireEvent.change(screen.getByLabelText('Sink'), { target: { value: 'postgres' } });
    const url = screen.getByLabelText('Connection URL') as HTMLInputElement;
    fireEvent.change(url, { target: { value: 'postgres://me@localhost/db' } });
    expect(url.type).toBe('text');
    fireEvent.change(url, { target: { value: 'postgres://me:secret@localhost:5432/db' } });
    expect(url.type).toBe('password');
    expect(url.value).toBe('postgres://me:secret@localhost:5432/db');
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(url.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(url.type).toBe('password');
  });

  it('checks upsert key columns against the exported columns as they are typed, tied to the field', () => {
    renderPanel();
    fireEvent.change(screen.getByLabelText('Write mode'), { target: { value: 'upsert' } });
    const keys = screen.getByLabelText('Key columns');
    fireEvent.change(keys, { target: { value: 'value, nope' } });
    expect(keys.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(keys.getAttribute('aria-describedby')!)?.textContent).toBe(
      'key column "nope" is not among the exported columns',
    );
    fireEvent.change(keys, { target: { value: 'value, month' } });
    expect(keys.getAttribute('aria-invalid')).toBe('false');
    expect(keys.getAttribute('aria-describedby')).toBeNull();
  });

  it('shows the CSV style only for CSV, ties each problem to its field, and writes in the style chosen', async () => {
    const started: JobInfo[] = [];
    renderPanel([], started);
    expect(screen.queryByLabelText('Delimiter')).toBeNull();
    fireEvent.change(screen.getByLabelText('Sink'), { target: { value: 'csv' } });
    const delimiter = screen.getByLabelText('Delimiter');
    const quote = screen.getByLabelText('Quote');
    const nullText = screen.getByLabelText('Null text');
    const problemOf = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? null;
    fireEvent.change(delimiter, { target: { value: ';;' } });
    fireEvent.change(nullText, { target: { value: 'x"y' } });
    expect(delimiter.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(delimiter)).toBe('the CSV delimiter must be exactly one character');
    expect(problemOf(quote)).toBeNull();
    expect(problemOf(nullText)).toBe('the CSV null text cannot contain the quote');
    fireEvent.change(delimiter, { target: { value: '"' } });
    expect(problemOf(delimiter)).toBeNull();
    expect(problemOf(quote)).toBe('the CSV quote must differ from the delimiter');

    // A tab, typed as \t, with NULL for nulls, no header and CRLF: DuckDB reads the file back with the same options.
    fireEvent.change(delimiter, { target: { value: '\\t' } });
    fireEvent.change(nullText, { target: { value: 'NULL' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Header row' }));
    fireEvent.change(screen.getByLabelText('Line ending'), { target: { value: 'crlf' } });
    for (const input of [delimiter, quote, nullText]) expect(input.getAttribute('aria-describedby')).toBeNull();
    const file = path.join(host.dataDir, 'styled.csv');
    fireEvent.change(screen.getByLabelText('Output file'), { target: { value: file } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000 });
    expect(started[0].request.sink).toEqual({
      kind: 'csv',
      path: file,
      delimiter: '\t',
      header: false,
      nullText: 'NULL',
      lineEnding: 'crlf',
    });
    expect((await host.jobs.wait(started[0].id)).state).toBe('succeeded');
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\r\n')).toHaveLength(ROWS + 1);
    const exported = await duck(
      `SELECT value, month FROM read_csv(${sqlText(file)}, header=false, delim='\t', nullstr='NULL', allow_quoted_nulls=false,
        columns={'value': 'VARCHAR', 'month': 'VARCHAR'}) ORDER BY ALL`,
    );
    const files = `${source.tablePath}/**/*.parquet`;
    expect(exported).toEqual(
      await duck(`SELECT value, CAST(month AS VARCHAR) AS month FROM read_parquet(${sqlText(files)}, hive_partitioning=true) ORDER BY ALL`),
    );
  });

  it('offers Open folder once a file export is done, and says where the file is', async () => {
    const started: JobInfo[] = [];
    const view = renderPanel([], started);
    fireEvent.change(screen.getByLabelText('Sink'), { target: { value: 'csv' } });
    const file = path.join(host.dataDir, 'done.csv');
    fireEvent.change(screen.getByLabelText('Output file'), { target: { value: file } });
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(started).toHaveLength(1), { timeout: 20_000 });
    const done = await host.jobs.wait(started[0].id);
    expect(done.state).toBe('succeeded');
    expect(fs.existsSync(file)).toBe(true);
    act(() => view.rerenderWith([done]));
    fireEvent.click(within(exportBar()).getByRole('button', { name: 'Open folder' }));
    // No file manager in this host: the path is said instead.
    await within(exportBar()).findByText(new RegExp(`^Path( copied)?: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });
});
