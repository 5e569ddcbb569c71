// What a command may touch of the outside world, so that tests run commands in-process.
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** True when stderr is a terminal: progress is drawn only there. */
  isTTY: boolean;
  /** True when stdout is a terminal that shows colours (nulls are dimmed). */
  color?: boolean;
  /** Cancels a running command (an export) when aborted; the bin wires it to Ctrl-C. */
  signal?: AbortSignal;
}
