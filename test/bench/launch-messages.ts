// What the benchmark and its launcher process (launcher.ts) say to each other.
export interface LaunchRequest {
  id: number;
  /** Arguments of `node`. */
  argv: string[];
}

export interface LaunchReply {
  id: number;
  /** Wall time from spawn to exit. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}
