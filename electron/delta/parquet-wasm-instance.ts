// Instances of parquet-wasm, for parquet-file.ts only. A Rust panic inside WebAssembly (a corrupt page makes the
// decoder index out of bounds) traps the instance: its memory is left mid-update, so the instance must never run
// again. Worse, most traps happen in a task that wasm-bindgen-futures runs from queueMicrotask, where the error is
// uncaught and ends the process with a stack trace, and the promise the caller awaits never settles.
//
// So the package's glue code is run here as a function of our own, once per instance, with a queueMicrotask that
// catches what a task throws: the instance is marked broken and its `trapped` promise rejects, which fails every
// operation still waiting on it. The next caller gets a fresh instance.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import type * as ParquetWasm from 'parquet-wasm/node';

export interface WasmInstance {
  readonly api: typeof ParquetWasm;
  /** Set once the instance trapped; it is then never called again. */
  broken: boolean;
  /** Rejects with the error of the first trap seen in a task the instance ran on its own. */
  readonly trapped: Promise<never>;
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

// The global WebAssembly object, which the project's TypeScript libraries do not declare.
const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: new () => Error } }).WebAssembly;

function instantiate(): WasmInstance {
  const file = require.resolve('parquet-wasm/node');
  // Compiled once; each call runs the module body again, which compiles nothing new (V8 caches the WebAssembly
  // module's code) but makes a new instance with its own memory.
  glue ??= vm.compileFunction(readFileSync(file, 'utf8'), GLUE_PARAMS, { filename: file }) as Glue;
  let fail!: (err: unknown) => void;
  const trapped = new Promise<never>((_, reject) => (fail = reject));
  trapped.catch(() => undefined);
  const api = {} as typeof ParquetWasm;
  const instance: WasmInstance = { api, broken: false, trapped };
  const guardedMicrotask = (task: () => void): void =>
    queueMicrotask(() => {
      if (instance.broken) return;
      try {
        task();
      } catch (err) {
        instance.broken = true;
        fail(err);
      }
    });
  glue(require, { exports: api }, api, file, path.dirname(file), guardedMicrotask);
  return instance;
}
