// An export into SQLite scans in batches of its sink's batch size where that is larger than the scan's default,
// unless the source sets its own (docs/exporting.md, batchSize); other sinks, change feeds and query results keep
// their sources as they are.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ExportSource } from '../../../shared/change-source.js';
import { sinkSpecSchema, type SinkSpec } from '../../../shared/sink-spec.js';
import { scanForSink } from '../../../electron/export/scan-batch-size.js';

const TABLE = '/data/events';

/** A sink spec as the host takes it, every option not given at its default. */
function sink(spec: object): SinkSpec {
  return v.parse(sinkSpecSchema('any'), spec);
}

function sqlite(batchSize: number): SinkSpec {
  return sink({ kind: 'sqlite', path: '/out/events.db', table: 'events', mode: 'append', execution: { batchSize } });
}

describe('scanForSink', () => {
  it("scans an export into SQLite in the sink's batches, at most the rows a piece of the read decodes", () => {
    expect(scanForSink({ tablePath: TABLE }, sqlite(5000))).toEqual({ tablePath: TABLE, options: { parquetBatchSize: 5000 } });
    expect(scanForSink({ tablePath: TABLE, options: { versionAsOf: 3 } }, sqlite(3000))).toEqual({
      tablePath: TABLE,
      options: { versionAsOf: 3, parquetBatchSize: 3000 },
    });
    expect(scanForSink({ tablePath: TABLE }, sqlite(1_000_000))).toEqual({ tablePath: TABLE, options: { parquetBatchSize: 32_768 } });
  });

  it("keeps a batch size the source sets, the scan's default for smaller batches and other sinks, and a change feed's or a query's source", () => {
    const own = { tablePath: TABLE, options: { parquetBatchSize: 64 } };
    expect(scanForSink(own, sqlite(5000))).toBe(own);
    const plain = { tablePath: TABLE };
    // Slices of the scan's 2048-row batches.
    expect(scanForSink(plain, sqlite(100))).toBe(plain);
    expect(scanForSink(plain, sqlite(2048))).toBe(plain);
    expect(scanForSink(plain, sink({ kind: 'parquet', path: '/out/events.parquet' }))).toBe(plain);
    const postgres = sink({ kind: 'postgres', connection: { url: 'postgres://localhost/db' }, table: 'events', mode: 'append' });
    expect(scanForSink(plain, postgres)).toBe(plain);
    const feed: ExportSource = { rows: 'changes', tablePath: TABLE, from: 1, to: 2 };
    expect(scanForSink(feed, sqlite(5000))).toBe(feed);
    const query: ExportSource = { rows: 'sql', tablePath: TABLE, sql: 'SELECT 1', tables: {} };
    expect(scanForSink(query, sqlite(5000))).toBe(query);
  });
});
