// Which of an export's rows are committed, when its transactions commit out of order over several connections: the
// prefix of the stream that is wholly committed, and the transactions committed beyond it. An exactly-once lane's
// ledger row records what it may claim at the moment it writes a transaction (exactly-once.ts), and a resumed export
// leaves out the rows an earlier run committed ahead of its prefix.
import type { RecordBatch } from 'apache-arrow';
import type { StreamProgress } from './batching.js';
import type { LaneRow, RowRange } from './exactly-once.js';

export class CommittedRows {
  /** Every row before this one is committed. */
  private prefix: number;
  /** The longest committed prefix whose scan position is known (a ledger row can only record one of those). */
  private known: { rows: number; progress: StreamProgress };
  /** Committed ranges beyond the prefix (they may overlap those of an earlier run). */
  private ahead: RowRange[];
  /** Where this run's committed transactions end, beyond the known prefix. */
  private readonly ends = new Map<number, StreamProgress>();
  private waiters: { rows: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  /** Why no more transactions will commit (a failure, a cancel): the waits end with it. */
  private stopped: unknown = null;

  constructor(resumed: StreamProgress & { rowsWritten: number }, ahead: RowRange[]) {
    this.prefix = resumed.rowsWritten;
    this.known = { rows: resumed.rowsWritten, progress: { position: resumed.position, rowsAfter: resumed.rowsAfter } };
    this.ahead = [...ahead];
    this.advance();
  }

  /** How far the stream is committed, with the position of that point. */
  get through(): { rows: number; progress: StreamProgress } {
    return this.known;
  }

  /** A transaction of `range` is about to go out: what its lane's ledger row may say once it commits. */
  rowFor(range: RowRange, progress: StreamProgress): LaneRow {
    // Every row before it committed: with it, the prefix reaches its end.
    if (this.prefix >= range.from) return { ...progress, rowsWritten: range.to, ahead: null, done: false };
    return { ...this.known.progress, rowsWritten: this.known.rows, ahead: range, done: false };
  }

  committed(range: RowRange, progress: StreamProgress): void {
    this.ahead.push(range);
    this.ends.set(range.to, progress);
    this.advance();
  }

  /** Once every row before `rows` is committed, with its position known. */
  reached(rows: number): Promise<void> {
    if (this.known.rows >= rows) return Promise.resolve();
    if (this.stopped !== null) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => this.waiters.push({ rows, resolve, reject }));
  }

  /** No more transactions will commit: every wait ends with `reason`. */
  stop(reason: unknown): void {
    this.stopped ??= reason;
    for (const w of this.waiters) w.reject(this.stopped);
    this.waiters = [];
  }

  private advance(): void {
    this.ahead.sort((a, b) => a.from - b.from);
    while (this.ahead.length > 0 && this.ahead[0].from <= this.prefix) this.prefix = Math.max(this.prefix, this.ahead.shift()!.to);
    for (const [end, progress] of this.ends) {
      if (end > this.prefix) continue;
      this.ends.delete(end);
      if (end > this.known.rows) this.known = { rows: end, progress };
    }
    const ready = this.waiters.filter((w) => w.rows <= this.known.rows);
    this.waiters = this.waiters.filter((w) => w.rows > this.known.rows);
    for (const w of ready) w.resolve();
  }
}

/** How many rows from number `from` on lie in `ranges` (sorted by their start; they may overlap). */
export function rowsIn(ranges: RowRange[], from: number): number {
  let rows = 0;
  let end = from;
  for (const r of ranges) {
    if (r.to <= end) continue;
    rows += r.to - Math.max(r.from, end);
    end = r.to;
  }
  return rows;
}

/** The rows of `chunks` (the stream's rows from number `at` on) outside `ranges` (sorted), as slices. */
export function withoutRanges(chunks: RecordBatch[], at: number, ranges: RowRange[]): RecordBatch[] {
  const kept: RecordBatch[] = [];
  let start = at;
  for (const chunk of chunks) {
    const end = start + chunk.numRows;
    let from = start;
    for (const r of ranges) {
      if (r.to <= from || r.from >= end) continue;
      if (r.from > from) kept.push(chunk.slice(from - start, r.from - start));
      from = Math.max(from, r.to);
    }
    if (from === start) kept.push(chunk);
    else if (from < end) kept.push(chunk.slice(from - start, end - start));
    start = end;
  }
  return kept;
}
