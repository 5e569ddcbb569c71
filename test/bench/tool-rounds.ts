// Tools loading the same rows in turn, round by round (each round starting with the next tool), each run a whole
// process measured as child-run.ts measures it; then one Markdown table of their medians, with the last tool held
// against each of the others by same-round ratios (a ratio of two runs side by side holds up when the machine's
// speed drifts between rounds, where a ratio of medians need not). `--only postgres` (postgres-connections.ts) and
// `--only sqlite` (sqlite-peers.ts) use it.
import type { ChildRun } from './child-run.js';

export interface Tool {
  name: string;
  /** The rows it loads. */
  rows: number;
  /** Loads the rows into a new target of its own for this turn (`turn` is unique to it); the run, how many rows
   * landed, and the server's CPU seconds for it where a server is measured. */
  load(turn: string): Promise<{ run: ChildRun; landed: number; serverSeconds: number | null }>;
}

interface Sample {
  rowsPerSec: number;
  cpuSeconds: number | null;
  rssMb: number | null;
  serverSeconds: number | null;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs `rounds` rounds and returns the table; a tool that lands another count of rows ends the run with an error. */
export async function toolRounds(subject: string, tools: Tool[], rounds: number, log: (line: string) => void): Promise<string> {
  const samples: Sample[][] = tools.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < tools.length; turn++) {
      const t = (turn + round) % tools.length;
      const { run, landed, serverSeconds } = await tools[t].load(`${t}_${round}`);
      if (landed !== tools[t].rows) throw new Error(`${tools[t].name} loaded ${landed} of ${tools[t].rows} rows`);
      const sample = { rowsPerSec: tools[t].rows / (run.ms / 1000), cpuSeconds: run.cpuSeconds, rssMb: run.maxRssMb, serverSeconds };
      samples[t].push(sample);
      log(
        `round ${round + 1}, ${tools[t].name}: ${Math.round(sample.rowsPerSec)} rows/s, CPU ${sample.cpuSeconds?.toFixed(2) ?? '-'} s` +
          (serverSeconds === null ? '' : `, server CPU ${serverSeconds.toFixed(2)} s`),
      );
    }
  }
  return roundsTable(subject, tools, samples);
}

function roundsTable(subject: string, tools: Tool[], samples: Sample[][]): string {
  const last = tools.length - 1;
  const rowsPerCpuSecond = (t: number, s: Sample) => (s.cpuSeconds === null ? null : tools[t].rows / s.cpuSeconds);
  /** The median of the runs' figures, or '-' where a run has none; whole numbers grouped by thousands. */
  const figure = (values: (number | null)[], digits: number) => {
    if (values.some((v) => v === null)) return '-';
    const value = median(values as number[]);
    return digits === 0 ? Math.round(value).toLocaleString('en') : value.toFixed(digits);
  };
  /** Same-round ratios of the last tool to tool t: their median and range. */
  const ratio = (t: number, value: (t: number, s: Sample) => number | null) => {
    const pairs = samples[last].map((s, i) => [value(last, s), value(t, samples[t][i])]);
    if (pairs.some(([a, b]) => a === null || b === null)) return '-';
    const r = pairs.map(([a, b]) => a! / b!);
    return `${median(r).toFixed(2)} (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)})`;
  };
  const serverMeasured = samples.some((runs) => runs.some((s) => s.serverSeconds !== null));
  const name = tools[last].name;
  const lines = [
    `| tool (${subject}, ${samples[0].length} rounds) | rows/s, median | process CPU s | rows per CPU-second | peak RSS MB |` +
      `${serverMeasured ? ' server CPU s |' : ''} ${name} / tool, same-round median | the same per CPU-second |`,
    `|---|---:|---:|---:|---:|${serverMeasured ? '---:|' : ''}---:|---:|`,
    ...tools.map((tool, t) => {
      const of = (pick: (s: Sample) => number | null, digits: number) => figure(samples[t].map(pick), digits);
      const cells = [
        tool.name,
        of((s) => s.rowsPerSec, 0),
        of((s) => s.cpuSeconds, 2),
        of((s) => rowsPerCpuSecond(t, s), 0),
        of((s) => s.rssMb, 0),
        ...(serverMeasured ? [of((s) => s.serverSeconds, 2)] : []),
        t === last ? '' : ratio(t, (_, s) => s.rowsPerSec),
        t === last ? '' : ratio(t, rowsPerCpuSecond),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
  ];
  return lines.join('\n');
}
