import { describe, expect, it } from 'vitest';
import { ProgressMeter } from '../../../electron/jobs/progress.js';

describe('ProgressMeter', () => {
  it('derives percent from bytes, never going back, below 100 until finished', () => {
    const meter = new ProgressMeter(0);
    const a = meter.update({ rows: 10, files: 1, filesTotal: 4, bytes: 250, bytesTotal: 1000 }, 1000);
    expect(a.percent).toBe(25);
    expect(a.rowsPerSec).toBe(10);
    expect(a.etaSeconds).toBe(3);
    // A resumed or re-read counter may report less; the bar stays where it was.
    expect(meter.update({ rows: 12, files: 1, filesTotal: 4, bytes: 100, bytesTotal: 1000 }, 2000).percent).toBe(25);
    expect(meter.update({ rows: 40, files: 4, filesTotal: 4, bytes: 1000, bytesTotal: 1000 }, 3000).percent).toBeLessThan(100);
    const done = meter.finish(40, 13);
    expect(done).toMatchObject({ percent: 100, rows: 40, etaSeconds: 0, files: 4, bytes: 1000 });
  });

  it('falls back to files when sizes are unknown, and to 0 with no ETA when nothing is known', () => {
    const meter = new ProgressMeter(0);
    expect(meter.update({ rows: 0, files: 0, filesTotal: 0, bytes: 0, bytesTotal: 0 }, 500)).toMatchObject({
      percent: 0,
      etaSeconds: null,
    });
    expect(meter.update({ rows: 5, files: 1, filesTotal: 2, bytes: 0, bytesTotal: 0 }, 1000).percent).toBe(50);
  });
});
