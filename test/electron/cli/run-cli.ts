// Runs the CLI in-process with captured output.
import { main } from '../../../electron/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(...argv: string[]): Promise<CliRun> {
  return cliOn({ isTTY: false }, ...argv);
}

/** As on a terminal (progress on stderr) or not. */
export async function cliOn(terminal: { isTTY: boolean }, ...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    isTTY: terminal.isTTY,
  });
  return { code, stdout, stderr };
}
