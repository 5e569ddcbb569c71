// `npm run bench -- --only sqlite`: the wide table into a new SQLite file by DuckDB (delta_scan + its sqlite
// extension), delta-rs + ADBC and Deltaport, taking turns round by round (tool-rounds.ts), with each one's process
// CPU and peak RSS. Issue 34's targets: Deltaport at least 1.3x the faster peer's rows/s, at least DuckDB's rows per
// CPU-second, and a peak RSS at most DuckDB's. Each file is in the same folder and removed after its turn.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runCli, runPython, type ChildRun } from './child-run.js';
import { sqliteRows } from './landed-rows.js';
import { toolRounds, type Tool } from './tool-rounds.js';

/** The Markdown table of `rounds` interleaved rounds. */
export function sqlitePeerRows(
  dir: string,
  wide: { root: string; liveRows: number },
  rounds: number,
  log: (line: string) => void,
): Promise<string> {
  const tool = (name: string, run: (file: string) => Promise<ChildRun>): Tool => ({
    name,
    rows: wide.liveRows,
    async load(turn) {
      const file = path.join(dir, `peers-${turn}.sqlite`);
      try {
        const result = await run(file);
        return { run: result, landed: sqliteRows(file, 'wide'), serverSeconds: null };
      } finally {
        await fs.rm(file, { force: true });
      }
    },
  });
  const tools = [
    tool('DuckDB `delta_scan` + sqlite ext', (file) => runPython('duckdb-export.py', [wide.root, 'sqlite', file, 'wide'])),
    tool('delta-rs + ADBC (stream)', (file) => runPython('deltars-adbc-export.py', [wide.root, 'sqlite', file, 'wide'])),
    tool('Deltaport', (file) => runCli(['export', wide.root, '--sink', `sqlite:${file}`, '--target', 'wide'])),
  ];
  return toolRounds(`wide table, ${wide.liveRows.toLocaleString('en')} rows, into a new SQLite file`, tools, rounds, log);
}
