// Instances of parquet-wasm, for parquet-file.ts and the Parquet sink's writer (parquet-sink.ts). A Rust panic inside
// WebAssembly (a corrupt page makes the decoder index out of bounds) traps the instance: its memory is left
// mid-update, so the instance must never run again. Worse, most traps happen in a task that wasm-bindgen-futures runs
// from queueMicrotask, where the error is uncaught and ends the process with a stack trace, and the promise the
// caller awaits never settles.
//
// So the package's glue code is run here as a function of our own, once per instance, with a queueMicrotask that
// catches what a task throws: the instance is marked broken and every operation still waiting on it fails. The next
// caller gets a fresh instance.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type * as ParquetWasm from 'parquet-wasm/node';

export interface WasmInstance {
  readonly api: typeof ParquetWasm;
  /** Set once the instance trapped; it is then never called again. */
  broken: boolean;
  /** The error of the first trap seen in a task the instance ran on its own, once there was one. */
  trap?: unknown;
  /** The calls waiting on the instance (untilTrap), each told of that trap. */
  readonly waiting: Set<(err: unknown) => void>;
}

const require = createRequire(import.meta.url);
const GLUE_PARAMS = ['require', 'module', 'exports', '__filename', '__dirname', 'queueMicrotask'];

type Glue = (...args: unknown[]) => void;
let glue: Glue | null = null;
let current: WasmInstance | null = null;

/** The instance to use now: the last one, unless it trapped. */
export function wasmInstance(): WasmInstance {
  if (!current || current.broken) current = instantiate();
  return current;
}

/** An instance of its own for one file, after a trap on the shared one: a trap there is that file's own, and it
 * fails no read of another file. */
export function privateInstance(): WasmInstance {
  return instantiate();
}

/** Marks an instance broken after a trap seen by its caller (a synchronous call that threw a RuntimeError). */
export function markBroken(instance: WasmInstance): void {
  instance.broken = true;
}

/** Whether an error is a WebAssembly trap (a panic, an out-of-bounds access), as opposed to an error the decoder
 * returned. */
export function isTrap(err: unknown): boolean {
  return err instanceof RuntimeError;
}

/** A call into the instance that returns at once; a trap marks the instance broken. */
export function guarded<T>(instance: WasmInstance, call: () => T): T {
  try {
    return call();
  } catch (err) {
    if (isTrap(err)) markBroken(instance);
    throw err;
  }
}

/** A call into the instance that returns a promise, until it settles or the instance traps (a trapped task never
 * settles its promise); a trap, in the call itself or later, marks the instance broken. */
export async function untilTrap<T>(instance: WasmInstance, call: () => Promise<T>): Promise<T> {
  // Each call waits on a trap of its own and stops waiting when it settles. A race with one promise per instance,
  // which settles only on a trap, left every call's result reachable from it for the rest of the process: for the
  // Parquet writer's output chunks, the whole file (the benchmark's Parquet export peaked at 310-325 MB with them
  // kept, 252 MB without).
  let stop!: (err: unknown) => void;
  const trapped = new Promise<never>((_, reject) => (stop = reject));
  instance.waiting.add(stop);
  if (instance.trap !== undefined) stop(instance.trap);
  try {
    return await Promise.race([call(), trapped]);
  } catch (err) {
    if (isTrap(err)) markBroken(instance);
    throw err;
  } finally {
    instance.waiting.delete(stop);
  }
}

// The global WebAssembly object, which the project's TypeScript libraries do not declare.
const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: new () => Error } }).WebAssembly;

function instantiate(): WasmInstance {
  const file = require.resolve('parquet-wasm/node');
  // Compiled once; each call runs the module body again, which compiles nothing new (V8 caches the WebAssembly
  // module's code) but makes a new instance with its own memory.
  glue ??= vm.compileFunction(readFileSync(file, 'utf8'), GLUE_PARAMS, { filename: file }) as Glue;
  const api = {} as typeof ParquetWasm;
  const instance: WasmInstance = { api, broken: false, waiting: new Set() };
  const guardedMicrotask = (task: () => void): void =>
    queueMicrotask(() => {
      if (instance.broken) return;
      try {
        task();
      } catch (err) {
        instance.broken = true;
        instance.trap = err;
        for (const stop of instance.waiting) stop(err);
      }
    });
  glue(require, { exports: api }, api, file, path.dirname(file), guardedMicrotask);
  return instance;
}
