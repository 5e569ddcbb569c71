// @vitest-environment happy-dom
// Pure parts of the Data tab: copying a range, commit summaries, forgiving timestamps, when a preview is stale (its
// module loads the window's API client, hence the DOM).
import { describe, expect, it } from 'vitest';
import type { ShownRows } from '../../renderer/src/components/PreviewPanel.js';
import type { CommitSummary } from '../../shared/table-info.js';
import { parseTimestampAsOf } from '../../shared/timestamp.js';
import { commitSummaryText } from '../../renderer/src/commit-figures.js';
import { formatRange } from '../../renderer/src/grid/copy-format.js';
import { normalizeTimestampInput } from '../../renderer/src/timestamp-input.js';

describe('formatRange', () => {
  const headers = ['id', 'note', 'tags'];
  const rows = [
    [1, 'plain', ['a']],
    [2, 'has\ttab, comma and "quote"', null],
  ];
  it('writes TSV, quoting only cells that need it, nulls empty', () => {
    // A quote makes a cell quoted too, so that a spreadsheet pastes it back as it was.
    expect(formatRange(headers, rows, 'tsv', false)).toBe('1\tplain\t"[""a""]"\n2\t"has\ttab, comma and ""quote"""\t');
    expect(formatRange(headers, rows, 'tsv', true).split('\n')[0]).toBe('id\tnote\ttags');
  });
  it('writes RFC 4180 CSV with CRLF line ends', () => {
    expect(formatRange(headers, rows, 'csv', true)).toBe('id,note,tags\r\n1,plain,"[""a""]"\r\n2,"has\ttab, comma and ""quote""",');
  });
  it('writes JSON objects with headers, arrays without, nested values as values', () => {
    expect(JSON.parse(formatRange(headers, rows, 'json', true))).toEqual([
      { id: 1, note: 'plain', tags: ['a'] },
      { id: 2, note: 'has\ttab, comma and "quote"', tags: null },
    ]);
    expect(JSON.parse(formatRange(headers, rows, 'json', false))).toEqual(rows);
  });
});

describe('normalizeTimestampInput', () => {
  it('turns what people type into one of the six exact forms', () => {
    const cases: [string, string][] = [
      ['2026-12-01', '2026-12-01'],
      ['2026-12-01 17:42', '2026-12-01 17:42:00'],
      ['2026-12-01T17:42:05', '2026-12-01 17:42:05'],
      ['2026/12/1 9:05', '2026-12-01 09:05:00'],
      ['2026-12-01 17:42:05.5', '2026-12-01T17:42:05.500'],
      ['2026-12-01T17:42:05.25Z', '2026-12-01T17:42:05.250Z'],
      ['2026-12-01 17:42 UTC', '2026-12-01T17:42:00.000Z'],
      ['  2026-12-01  ', '2026-12-01'],
    ];
    for (const [typed, exact] of cases) {
      expect(normalizeTimestampInput(typed)).toBe(exact);
      expect(parseTimestampAsOf(exact)).not.toBeNull();
    }
  });
  it('converts a time with an offset to UTC, as an ISO 8601 reader does', () => {
    for (const typed of ['2022-02-24T04:55:00+02:00', '2022-02-24T04:55:00.250-05:30', '2022-02-24T23:30:00-0800']) {
      const exact = normalizeTimestampInput(typed);
      expect(exact).toBe(new Date(typed.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString());
      expect(parseTimestampAsOf(exact!)).toBe(Date.parse(typed.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')));
    }
    expect(normalizeTimestampInput('2022-02-24 04:55 +02:00')).toBe('2022-02-24T02:55:00.000Z');
    expect(normalizeTimestampInput('2022-02-24T04:55:00+25:00')).toBeNull();
  });
  it('refuses what is not a real date and time', () => {
    for (const bad of ['2021-02-30', '2026-13-01', '2026-12-01 24:00', '2026-12-01 17:60', 'yesterday', '2026-12-01 17:42:05.1234']) {
      expect(normalizeTimestampInput(bad)).toBeNull();
    }
  });
});

function commit(operation: string, operationMetrics: Record<string, unknown>): CommitSummary {
  return {
    version: 1,
    timestamp: 0,
    commitInfoTimestamp: null,
    operation,
    operationParameters: {},
    operationMetrics,
    engineInfo: null,
    userName: null,
    isBlindAppend: null,
  };
}

describe('commitSummaryText', () => {
  it('reads inserted, updated and removed rows and files from the metrics each operation records', () => {
    expect(commitSummaryText(commit('WRITE', { numFiles: '2', numOutputRows: '1000', numOutputBytes: '9' }))).toBe(
      '+1,000 rows · +2 files',
    );
    expect(commitSummaryText(commit('DELETE', { numDeletedRows: '20', numRemovedFiles: '1', numAddedFiles: '1' }))).toBe(
      '−20 rows · +1 −1 files',
    );
    expect(commitSummaryText(commit('MERGE', { numTargetRowsInserted: '5', numTargetRowsDeleted: '2', numTargetFilesAdded: '3' }))).toBe(
      '+5 −2 rows · +3 files',
    );
    expect(commitSummaryText(commit('UPDATE', { numUpdatedRows: '4', numAddedFiles: '1', numRemovedFiles: '0' }))).toBe(
      '~4 rows · +1 files',
    );
    expect(commitSummaryText(commit('UPDATE', { numUpdatedRows: '0', numOutputRows: '0' }))).toBe('');
    expect(commitSummaryText(commit('SET TBLPROPERTIES', {}))).toBe('');
  });
});

describe('staleness', async () => {
  const { staleness } = await import('../../renderer/src/components/PreviewPanel.js');
  const result: ShownRows = {
    version: 4,
    columns: [
      { name: 'a', type: 'long', nullable: true },
      { name: 'b', type: 'string', nullable: true },
    ],
    rows: [],
    truncated: false,
    asked: { source: { tablePath: '/t', columnNames: ['a', 'b'] }, limit: 1000 },
  };
  it('is null while the rows are those of the choice', () => {
    expect(staleness(result, { tablePath: '/t', columnNames: ['a', 'b'] }, 4)).toBeNull();
    expect(staleness(result, { tablePath: '/t', columnNames: ['a', 'b'] }, 4, null, 1000)).toBeNull();
  });
  it('names what moved: the snapshot, the columns, or a choice not readable yet', () => {
    expect(staleness(result, { tablePath: '/t', columnNames: ['a', 'b'], versionAsOf: 1 }, 1)).toBe(
      'These rows are of v4, 2 columns; the snapshot is now v1.',
    );
    expect(staleness(result, { tablePath: '/t', columnNames: ['a'] }, 4)).toBe('These rows are of v4, 2 columns; 1 column is now chosen.');
    expect(staleness(result, { tablePath: '/t', columnNames: ['b', 'a'] }, 4)).toBe(
      'These rows are of v4, 2 columns; 2 columns are now chosen.',
    );
    expect(staleness(result, null, null)).toBe('These rows are of v4, 2 columns; the choice above has changed.');
  });
  it('names a changed filter, order or row limit', () => {
    const same = { tablePath: '/t', columnNames: ['a', 'b'] };
    expect(staleness(result, { ...same, filter: 'a > 1' }, 4)).toBe('These rows are of v4, 2 columns, unfiltered; the filter has changed.');
    const filtered: ShownRows = { ...result, asked: { ...result.asked, source: { ...same, filter: 'a > 1' } } };
    expect(staleness(filtered, same, 4)).toBe('These rows are of v4, 2 columns, filtered by a > 1; the filter has changed.');
    expect(staleness(result, same, 4, [{ column: 'a', descending: true }], 1000)).toBe(
      'These rows are of v4, 2 columns, in file order; the order has changed.',
    );
    const ordered: ShownRows = { ...result, asked: { ...result.asked, orderBy: [{ column: 'a', descending: true }] } };
    expect(staleness(ordered, same, 4, null, 1000)).toBe('These rows are of v4, 2 columns, ordered by a desc; the order has changed.');
    expect(staleness(result, same, 4, null, 50)).toBe('These rows are of v4, 2 columns, read 1,000 at a time; the row limit is now 50.');
  });
});

describe('newDeletionsNote', async () => {
  const { newDeletionsNote } = await import('../../renderer/src/diff-rows.js');
  it('says nothing when no file had rows deleted in place, and counts them in words otherwise', () => {
    expect(newDeletionsNote(0)).toBeUndefined();
    expect(newDeletionsNote(1)).toBe('and 1 file with rows newly deleted');
    expect(newDeletionsNote(1200)).toBe('and 1,200 files with rows newly deleted');
  });
});
