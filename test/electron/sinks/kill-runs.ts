// Exports killed with SIGKILL at random points, then run again with exactly-once: what the MySQL and DuckDB sink tests
// share. Each run starts a process (kill-child.ts) that drives the rows of kill-sinks.ts into a target of its own and
// kills it at a random point of its writing (from its first batch on, as long as a clean export's); then checks that
// the target holds whole transactions only (its rows are a prefix of the export, as many as the exactly-once ledger
// committed with them) and resumes the export in this process, which must write only the rest and end with every row
// exactly once. A process's start (loading mysql2 or DuckDB, apache-arrow and the sink: 0.6 to 0.9 s of CPU) costs more than its export, so the
// next two runs' processes start while a run goes on.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { RUN_SOURCES } from '../../support/source-workers.js';
import { random } from './fault-runs.js';
import { KILL_BATCH_ROWS, KILL_ROWS, killRows, loadKillExport, type KillSinkKind } from './kill-sinks.js';

/** What a target holds after a run: its rows, their distinct ids, the highest id, and the rows its exactly-once ledger
 * says were committed (0 where the target or the ledger does not exist yet). */
export interface KillCensus {
  n: number;
  distinct: number;
  maxId: number;
  ledgerRows: number;
}

export interface KillTarget {
  kind: KillSinkKind;
  /** The exactly-once spec of one run's export, into a target no other run uses. */
  spec(name: string): SinkSpec;
  /** Waits until nothing of a killed process holds the target any more (a server's sessions ended). */
  settled(spec: SinkSpec): Promise<void>;
  census(spec: SinkSpec): Promise<KillCensus>;
}

const CHILD = path.join(import.meta.dirname, 'kill-child.ts');

/** A started kill-child.ts, once it has said "ready". */
interface ReadyChild {
  process: ChildProcess;
  /** Resolves to true when the child said "done", false when it ended without saying so (killed). */
  ended: Promise<boolean>;
  /** Resolves when the child said "writing" (its sink open, the first batch taken), or when it ended. */
  writing: Promise<void>;
  stderr(): string;
}

function startChild(kind: KillSinkKind): Promise<ReadyChild> {
  const child = spawn(process.execPath, [...RUN_SOURCES, CHILD], {
    env: { ...process.env, DELTAPORT_KILL_SINK: kind },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let done = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let wrote = (): void => undefined;
  const writing = Promise.race([new Promise<void>((resolve) => (wrote = resolve)), exited]);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'ready') resolve({ process: child, ended: exited.then(() => done), writing, stderr: () => stderr });
      if (line === 'writing') wrote();
      if (line === 'done') done = true;
    });
    void exited.then(() => reject(new Error(`the export child ended before it was ready: ${stderr.trim().split('\n')[0]}`)));
  });
}

/** Hands the child its spec; kills it `killAfterMs` after it starts writing, unless it finishes first. True when it
 * was killed. */
async function runChild(child: ReadyChild, spec: SinkSpec, killAfterMs: number): Promise<boolean> {
  child.process.stdin!.end(`${JSON.stringify(spec)}\n`);
  await child.writing;
  const timer = setTimeout(() => child.process.kill('SIGKILL'), killAfterMs);
  const finished = await child.ended;
  clearTimeout(timer);
  if (!finished && child.process.signalCode !== 'SIGKILL') {
    throw new Error(`the export child failed (code ${child.process.exitCode}): ${child.stderr().trim().split('\n')[0]}`);
  }
  return !finished;
}

/** `runs` killed exports and their resumptions; returns one line per run (the kill's delay, the rows it left). */
export async function killRuns(target: KillTarget, runs: number, seed: number): Promise<string[]> {
  const stream = killRows();
  const exportRows = await loadKillExport(target.kind);
  const batches = stream.batches.length;
  const everyRow: KillCensus = { n: KILL_ROWS, distinct: KILL_ROWS, maxId: KILL_ROWS - 1, ledgerRows: KILL_ROWS };

  // Two processes start ahead of the run that takes one.
  const starting = [startChild(target.kind), startChild(target.kind)];
  const take = (): Promise<ReadyChild> => {
    starting.push(startChild(target.kind));
    return starting.shift()!;
  };
  // A clean export in a child: how long its writing takes there, over which the kills are spread.
  const clean = target.spec('clean');
  const cleanChild = await take();
  cleanChild.process.stdin!.end(`${JSON.stringify(clean)}\n`);
  await cleanChild.writing;
  const started = performance.now();
  expect(await cleanChild.ended).toBe(true);
  const span = performance.now() - started;
  expect(await target.census(clean)).toEqual(everyRow);

  const draw = random(seed);
  const lines = [`a clean export took ${Math.round(span)} ms`];
  try {
    for (let run = 0; run < runs; run++) {
      const spec = target.spec(`kill_${run}`);
      const child = await take();
      const delay = Math.round(draw() * span);
      const killed = await runChild(child, spec, delay);
      await target.settled(spec);
      const left = await target.census(spec);
      const line = `run ${run}: ${killed ? `killed after ${delay} ms` : `finished before the kill at ${delay} ms`}, ${left.n} rows left`;
      lines.push(line);
      // Whole transactions only: a prefix of the rows, each once, exactly those the ledger committed with them.
      expect(left, line).toEqual({ n: left.n, distinct: left.n, maxId: left.n - 1, ledgerRows: left.n });
      expect(left.n % KILL_BATCH_ROWS, line).toBe(0);
      // Run again, it writes only the batches after the last commit, and every row is there once.
      const written = await exportRows(spec);
      expect(written, line).toBe(left.n === KILL_ROWS ? 0 : batches - left.n / KILL_BATCH_ROWS);
      expect(await target.census(spec), line).toEqual(everyRow);
    }
  } finally {
    for (const child of await Promise.all(starting.map((c) => c.catch(() => null)))) child?.process.kill('SIGKILL');
  }
  return lines;
}
