// The short form of a sink target, as typed on the command line: sqlite:PATH, duckdb:PATH, parquet:PATH, csv:PATH,
// jsonl:PATH, a postgres:// (postgresql://) URL or a mysql:// (mariadb://) URL.

export type SinkTarget =
  { kind: 'sqlite' | 'duckdb' | 'parquet' | 'csv' | 'jsonl'; path: string } | { kind: 'postgres' | 'mysql'; url: string };

const FILE_KINDS = ['sqlite', 'duckdb', 'parquet', 'csv', 'jsonl'] as const;

export const SINK_TARGET_FORMS =
  'sqlite:PATH, duckdb:PATH, postgres://user:password@host:port/db, mysql://user:password@host:port/db, parquet:PATH, csv:PATH, jsonl:PATH';

/** The target, or null when the text is none of the accepted forms. */
export function parseSinkTarget(text: string): SinkTarget | null {
  if (/^postgres(ql)?:\/\/./.test(text)) return { kind: 'postgres', url: text };
  if (/^(mysql|mariadb):\/\/./.test(text)) return { kind: 'mysql', url: text };
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const kind = FILE_KINDS.find((k) => k === text.slice(0, colon));
  const path = text.slice(colon + 1);
  if (!kind || path.trim() === '') return null;
  return { kind, path };
}
