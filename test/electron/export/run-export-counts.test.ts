// What an export reports is what landed: a cancel names the rows committed (not the rows read ahead of the last
// commit), and a resumed exactly-once run says that it resumed, after which row, and counts only its own rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DeltaportError } from '../../../shared/errors.js';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { exportRequest } from '../../support/export-request.js';
import { tablePath } from '../../support/tables.js';
import { cli } from '../cli/run-cli.js';
import { duck, sqlText } from '../../support/duckdb.js';

const COVID = tablePath('COVID-19_NYT');
const out = mkdtempSync(path.join(tmpdir(), 'deltaport-counts-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function count(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Cancels an export once it has read `rows` rows; the error it ends with. */
async function cancelAfter(sink: SinkSpec, rows: number): Promise<DeltaportError> {
  const stop = new AbortController();
  const err = await exportRequest({
    source: { tablePath: COVID },
    sink,
    signal: stop.signal,
    onProgress: (p) => p.rows >= rows && stop.abort(),
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeltaportError);
  return err as DeltaportError;
}

describe('export counts', () => {
  it(
    'cancel names the committed rows; the rerun says where it resumed and the runs add up to the table',
    { timeout: 120_000 },
    async () => {
      const [{ n: total }] = await duck(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlText(`${COVID}/*.parquet`)})`);
      const file = path.join(out, 'covid.db');
      // The CLI's spec for the same export, so that the CLI's run below is the same job.
      const sink: SinkSpec = {
        kind: 'sqlite',
        path: file,
        table: 'COVID-19_NYT',
        mode: 'append',
        execution: { batchSize: 7000, batchIntervalMs: 0, maxRetries: 3 },
        exactlyOnce: true,
      };
      const err = await cancelAfter(sink, 300_000);
      const landed = count(file, 'COVID-19_NYT');
      expect(err.code).toBe('CANCELLED');
      expect(err.message).toBe(`export cancelled after ${landed} rows were committed; run it again to resume`);
      expect(landed % 7000).toBe(0);

      const rerun = await cli('export', COVID, '--sink', `sqlite:${file}`, '--exactly-once', '--batch-size', '7000');
      expect(rerun.stderr).toBe('');
      expect(rerun.stdout).toMatch(
        new RegExp(
          `^exported ${(total as number) - landed} rows in [\\d.]+ s \\(\\d+ rows/s\\); resumed after row ${landed}, which an earlier run had committed\\n$`,
        ),
      );
      expect(count(file, 'COVID-19_NYT')).toBe(total);
    },
  );

  it('a plain SQLite export cancelled mid-way names exactly the rows it left', { timeout: 120_000 }, async () => {
    const file = path.join(out, 'plain.db');
    const err = await cancelAfter(
      {
        kind: 'sqlite',
        path: file,
        table: 't',
        mode: 'append',
        execution: { batchSize: 5000, batchIntervalMs: 0, maxRetries: 3 },
        exactlyOnce: false,
      },
      200_000,
    );
    expect(err.message).toBe(`export cancelled after ${count(file, 't')} rows were committed`);
  });
});
