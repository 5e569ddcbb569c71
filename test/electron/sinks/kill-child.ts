// One export into a database sink in a process of its own, for the SIGKILL runs of kill-runs.ts. It loads the sink of
// DELTAPORT_KILL_SINK and builds the rows first, says "ready", then reads one line: the sink spec (JSON) to drive the
// rows into. It says "writing" once the sink is open and took its first batch, and "done" when the export has ended. Loading before the spec arrives lets the test start the next
// run's process while it checks the last one, and place its kill within the export itself.
import { createInterface } from 'node:readline';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { loadKillExport, type KillSinkKind } from './kill-sinks.js';

const exportRows = await loadKillExport(process.env.DELTAPORT_KILL_SINK as KillSinkKind);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  // "writing" once the sink is open and has its first batch: the test spreads its kill over the writing from there.
  await exportRows(JSON.parse(line) as SinkSpec, (i) => void (i === 0 && process.stdout.write('writing\n')));
  process.stdout.write('done\n');
  break;
}
lines.close();
