// Preloaded (node --import) into a process the benchmark spawns: at exit it reports the process's peak resident set
// size and CPU time on stderr, where the benchmark picks them up. Exact, unlike sampling /proc from outside.
import { writeSync } from 'node:fs';
import { USAGE_MARKER, type ChildUsage } from './usage-marker.js';

process.on('exit', () => {
  const usage = process.resourceUsage();
  const report: ChildUsage = { maxRssKb: usage.maxRSS, cpuMicros: usage.userCPUTime + usage.systemCPUTime };
  writeSync(2, `\n${USAGE_MARKER}${JSON.stringify(report)}\n`);
});
