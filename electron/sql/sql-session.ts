// SQL for a host (the app's API, `deltaport serve`): one engine, opened on the first query and kept, so that a
// snapshot read for one query serves the next; queries run one at a time, in the order they came, under the
// caller's ids, each cancellable (a new run under an id cancels the one before, which then ends first).
import type { SqlRequest, SqlRows } from '../../shared/api.js';
import { jsonRows } from '../values/json-value.js';
import { SqlEngine, sqlTables, type OpenTable, type SqlLimits } from './sql-engine.js';

export class SqlSession {
  private engine: Promise<SqlEngine> | null = null;
  private readonly running = new Map<string, AbortController>();
  /** The last run asked for: the next waits for it to end. */
  private last: Promise<unknown> = Promise.resolve();

  /** `openTable`: how the host opens tables, through its storage connections. */
  constructor(
    private readonly limits: SqlLimits,
    private readonly openTable: OpenTable,
  ) {}

  async run(req: SqlRequest): Promise<SqlRows> {
    const cancel = new AbortController();
    if (req.queryId !== undefined) {
      this.running.get(req.queryId)?.abort();
      this.running.set(req.queryId, cancel);
    }
    const previous = this.last;
    const run = this.runAfter(previous, req, cancel);
    this.last = run.catch(() => undefined);
    return run;
  }

  private async runAfter(previous: Promise<unknown>, req: SqlRequest, cancel: AbortController): Promise<SqlRows> {
    await previous;
    const started = performance.now();
    try {
      this.engine ??= SqlEngine.open(this.limits, this.openTable);
      const engine = await this.engine;
      const result = await engine.query({ sql: req.sql, tables: sqlTables(req.tables), signal: cancel.signal });
      const rows = await jsonRows(result.fields, result.schema, result.batches, req.limit);
      return {
        ...rows,
        snapshots: result.snapshots.map((s) => ({ name: s.name, path: s.location, version: s.version, rows: s.rows })),
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      if (req.queryId !== undefined && this.running.get(req.queryId) === cancel) this.running.delete(req.queryId);
    }
  }

  cancel(queryId: string): boolean {
    const run = this.running.get(queryId);
    run?.abort();
    return run !== undefined;
  }
}
