// A process that only previews or describes a table decodes a few thousand values. V8 would still optimize
// parquet-wasm's hot functions on background threads (~0.2 s of CPU on the quick benchmark), and the process's exit
// waits for those compilations: a cold `deltaport preview` lost ~0.2 s of wall time to code it never ran. Likewise
// V8 validates every function of the 5 MB module when it compiles it (~30 ms); lazily, it validates only those run.
import v8 from 'node:v8';

const SHORT_COMMANDS = new Set(['preview', 'schema', 'history']);

/** Keeps WebAssembly at its baseline tier, validated lazily, for the rest of this process when the command is a short
 * one. Must run before parquet-wasm is loaded: V8 reads the flags when it compiles a module. */
export function keepWasmBaselineFor(command: string | undefined): void {
  if (command === undefined || !SHORT_COMMANDS.has(command)) return;
  v8.setFlagsFromString('--wasm-tiering-budget=2000000000');
  v8.setFlagsFromString('--wasm-lazy-validation');
}
