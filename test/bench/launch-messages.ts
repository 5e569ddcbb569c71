// What the benchmark and its launcher process (launcher.ts) say to each other.
export interface LaunchRequest {
  id: number;
  /** The program (the CLI's executable, or `python3`) and its arguments. */
  program: string;
  argv: string[];
  /** Set in its environment, beside the launcher's own. */
  env: Record<string, string>;
}

export interface LaunchReply {
  id: number;
  /** Wall time from spawn to exit. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}
