// Preloaded (node --import) into a process the benchmark spawns: at exit it reports the process's peak resident set
// size and CPU time on stderr, where the benchmark picks them up. Exact, unlike sampling /proc from outside.
import { readFileSync, writeSync } from 'node:fs';
import { USAGE_MARKER, type ChildUsage } from './usage-marker.js';

/** The peak RSS of this process's own memory. On Linux, getrusage's maxrss of a spawned process starts at its
 * parent's RSS at fork time (the forked copy counts until exec), so the benchmark's own hundreds of MB showed up in
 * every export's figure; /proc's VmHWM is the high-water mark of the memory the process got at exec. */
function peakRssKb(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // Not Linux: getrusage is the best there is.
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const usage = process.resourceUsage();
  const report: ChildUsage = { maxRssKb: peakRssKb(), cpuMicros: usage.userCPUTime + usage.systemCPUTime };
  writeSync(2, `\n${USAGE_MARKER}${JSON.stringify(report)}\n`);
});
