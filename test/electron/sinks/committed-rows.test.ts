// What an export over several connections knows of its committed rows: the prefix a ledger row may claim, the wait
// before a lane's row gives up rows it records ahead, and the rows a resumed run leaves out.
import { describe, expect, it } from 'vitest';
import { CommittedRows, rowsIn, withoutRanges } from '../../../electron/sinks/committed-rows.js';
import { numberedTable } from './sink-harness.js';

const at = (fileIndex: number) => ({ position: { fileIndex, rowsInFile: 0 }, rowsAfter: 0 });

describe('CommittedRows', () => {
  it('claims a transaction into the prefix only once every row before it committed, with a known position', async () => {
    const rows = new CommittedRows({ ...at(0), rowsWritten: 0 }, []);
    // The second transaction commits first: its row records it ahead of the prefix, which stays at 0.
    expect(rows.rowFor({ from: 100, to: 200 }, at(2))).toEqual({ ...at(0), rowsWritten: 0, ahead: { from: 100, to: 200 }, done: false });
    rows.committed({ from: 100, to: 200 }, at(2));
    let reached = false;
    const waiting = rows.reached(200).then(() => (reached = true));
    await Promise.resolve();
    expect(reached).toBe(false);
    // The first one: every row before it is committed, so its row claims the prefix up to its own end.
    expect(rows.rowFor({ from: 0, to: 100 }, at(1))).toEqual({ ...at(1), rowsWritten: 100, ahead: null, done: false });
    rows.committed({ from: 0, to: 100 }, at(1));
    await waiting;
    expect(rows.through).toEqual({ rows: 200, progress: at(2) });
  });

  it("counts an earlier run's rows ahead as committed, but only claims prefixes whose position it knows", () => {
    const rows = new CommittedRows({ ...at(3), rowsWritten: 300 }, [{ from: 400, to: 500 }]);
    rows.committed({ from: 300, to: 450 }, at(4));
    // Rows 300-500 are all committed, but where row 500 lies in the scan only the earlier run knew.
    expect(rows.through).toEqual({ rows: 450, progress: at(4) });
    expect(rows.rowFor({ from: 500, to: 600 }, at(5))).toEqual({ ...at(5), rowsWritten: 600, ahead: null, done: false });
  });

  it('ends the waits with the reason once no more transactions will commit', async () => {
    const rows = new CommittedRows({ ...at(0), rowsWritten: 0 }, []);
    const waiting = rows.reached(100);
    rows.stop(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    await expect(rows.reached(100)).rejects.toThrow('cancelled');
  });
});

describe('rows left out on resuming', () => {
  it('slices out the ranges an earlier run committed, across batches', () => {
    const batches = numberedTable(30).batches[0];
    const chunks = [batches.slice(0, 10), batches.slice(10, 20), batches.slice(20, 30)];
    // The stream's rows 100-129 (ids 0-29), without rows 105-111 and 125-140.
    const kept = withoutRanges(chunks, 100, [
      { from: 105, to: 112 },
      { from: 125, to: 140 },
    ]);
    const ids = kept.flatMap((b) => Array.from(b.getChild('id')!.toArray() as BigInt64Array, Number));
    expect(ids).toEqual([0, 1, 2, 3, 4, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(
      rowsIn(
        [
          { from: 105, to: 112 },
          { from: 110, to: 140 },
        ],
        100,
      ),
    ).toBe(35);
  });
});
