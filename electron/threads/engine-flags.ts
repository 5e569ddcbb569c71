// V8 flags for every process that reads tables: the CLI (bin.ts) and the app's main process (main.ts), whose threads
// share its flags. Set before parquet-wasm is compiled, as V8 reads them when it compiles a module. Measured in
// docs/benchmark.md, "parquet-wasm at its baseline tier".
import v8 from 'node:v8';

/** Sets the flags below; once, first thing. */
export function setEngineFlags(): void {
  // parquet-wasm stays at V8's baseline tier (Liftoff). V8 optimizes a WebAssembly function on a background thread
  // once it has run a while, and two of parquet-wasm's hot functions are huge (77 and 39 KB of bytecode): optimizing
  // them took 36 and 17 MB of compiler memory and 0.2-0.4 s of CPU as an export got going. glibc kept that memory
  // resident to the end (freed in the middle of its heap), and on two cores the compiling competed with the export:
  // the optimized code won its cost back only on the longest exports (50M rows took 1.05-1.19x the CPU without it, at
  // 22% less memory). V8's largest tiering budget only puts the optimization off (a 50M-row export used it up after
  // 45M rows), so optimizing is turned off. A process that only previews a table no longer waits at its exit for
  // compilations of code it never ran, either.
  v8.setFlagsFromString('--liftoff-only');
  // Functions are validated as they are first called, not all 5 MB of the module up front (~30 ms).
  v8.setFlagsFromString('--wasm-lazy-validation');
}
