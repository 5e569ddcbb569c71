// Preloaded (node --import) into a process the benchmark spawns: at exit it reports the process's peak resident set
// size on stderr, where the benchmark picks it up. Exact, unlike sampling /proc from outside.
import { writeSync } from 'node:fs';
import { MAX_RSS_MARKER } from './max-rss-marker.js';

process.on('exit', () => {
  writeSync(2, `\n${MAX_RSS_MARKER}${process.resourceUsage().maxRSS}\n`);
});
