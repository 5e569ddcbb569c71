// SQL for a host (the app's API, `deltaport serve`): one engine, opened on the first query and kept, so that a
// snapshot read for one query serves the next; queries run one at a time, in the order they came, each cancelled by
// its signal (the host's, app/running-reads.ts: a new run under a caller's id cancels the one before, which then ends
// first).
import type { SqlRequest, SqlRows } from '../../shared/api.js';
import { jsonRows } from '../values/json-value.js';
import { SqlEngine, sqlTables, type OpenTable, type SqlLimits } from './sql-engine.js';

export class SqlSession {
  private engine: Promise<SqlEngine> | null = null;
  /** The last run asked for: the next waits for it to end. */
  private last: Promise<unknown> = Promise.resolve();

  /** `openTable`: how the host opens tables, through its storage connections. */
  constructor(
    private readonly limits: SqlLimits,
    private readonly openTable: OpenTable,
  ) {}

  async run(req: SqlRequest, signal?: AbortSignal): Promise<SqlRows> {
    const previous = this.last;
    const run = this.runAfter(previous, req, signal);
    this.last = run.catch(() => undefined);
    return run;
  }

  private async runAfter(previous: Promise<unknown>, req: SqlRequest, signal: AbortSignal | undefined): Promise<SqlRows> {
    await previous;
    const started = performance.now();
    this.engine ??= SqlEngine.open(this.limits, this.openTable);
    const engine = await this.engine;
    const result = await engine.query({ sql: req.sql, tables: sqlTables(req.tables), signal });
    const rows = await jsonRows(result.fields, result.schema, result.batches, req.limit);
    return {
      ...rows,
      snapshots: result.snapshots.map((s) => ({ name: s.name, path: s.location, version: s.version, rows: s.rows })),
      seconds: (performance.now() - started) / 1000,
    };
  }
}
