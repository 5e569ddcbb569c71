// The help texts: `deltaport --help`, `deltaport help <command>`, `deltaport <command> --help`.

export const COMMANDS = ['schema', 'history', 'preview', 'export', 'serve'] as const;
export type Command = (typeof COMMANDS)[number];

const TIME_TRAVEL = `  --version N        read version N
  --timestamp TS     read the latest version committed at or before TS (UTC), one of
                     2022-02-24 | 2022-02-24 04:55:00[.001] | 2022-02-24T04:55:00[.001] | 2022-02-24T04:55:00.001Z`;

const HELP: Record<Command, string> = {
  schema: `usage: deltaport schema <table> [--version N | --timestamp TS] [--json]

Shows the table's schema as a tree (types, nullability, partition columns), its protocol and size.
${TIME_TRAVEL}
  --json             print the table information as JSON`,
  history: `usage: deltaport history <table> [--limit N] [--json]

Lists the table's commits, newest first: version, time, operation, parameters, metrics, engine.
  --limit N          only the N newest commits
  --json             print the commits as JSON`,
  preview: `usage: deltaport preview <table> [--version N | --timestamp TS] [--columns a,b] [--limit N]
                         [--format table|jsonl|csv]

Prints the first rows of the table (20 by default).
${TIME_TRAVEL}
  --columns a,b      only these columns, in this order
  --limit N          at most N rows
  --format F         table (aligned columns, NULL for nulls), jsonl or csv`,
  export: `usage: deltaport export <table> [--version N | --timestamp TS] [--columns a,b] [--option key=value ...]
                        --sink <sqlite:PATH | postgres://... | parquet:PATH | csv:PATH | jsonl:PATH>
                        [--target TABLE] [--mode append|overwrite|upsert|sql] [--key a,b] [--sql "..."]
                        [--batch-size N] [--batch-interval-ms N] [--max-retries N] [--exactly-once]
                        [--statement-timeout-ms N]

Exports a snapshot of the table. Files are written beside PATH and renamed into place when complete.
${TIME_TRAVEL}
  --columns a,b      only these columns, in this order
  --option k=v       a source option: parquetBatchSize (rows per batch, default 2048)
  --sink TARGET      where to write: sqlite:PATH, postgres://user:password@host:port/db, parquet:PATH,
                     csv:PATH or jsonl:PATH
SQL sinks (sqlite, postgres):
  --target TABLE     target table (default: the table folder's name)
  --mode M           append (default), overwrite, upsert (needs --key) or sql (needs --sql)
  --key a,b          key columns for upsert
  --sql "..."        your own statement with :column parameters, e.g. UPDATE t SET v = :v WHERE id = :id
  --batch-size N     rows per batch and transaction (default 5000)
  --batch-interval-ms N  flush a partial batch after N ms (default 0: off)
  --max-retries N    retries of a batch after a transient error (default 3)
  --exactly-once     record progress in the target so that a rerun resumes and never duplicates rows
  --statement-timeout-ms N  (postgres) give a statement or COPY up as lost after N ms unanswered, and retry
                     it on a new connection (default 60000)`,
  serve: `usage: deltaport serve [--port N]

Serves the Deltaport app on 127.0.0.1 and prints the address to open in a browser.`,
};

export const OVERVIEW = `Deltaport: look inside Delta Lake tables, travel their history, export snapshots.

usage: deltaport <command> [options]
       deltaport <table>              show the table's schema

commands:
  schema <table>     schema, protocol and size of a version
  history <table>    the table's commits
  preview <table>    the first rows of a version
  export <table>     export a version to SQLite, PostgreSQL, Parquet, CSV or JSON Lines
  serve              the app in a browser
  help <command>     help for a command

examples:
  deltaport schema ./people --version 3
  deltaport preview ./people --columns id,name --limit 5
  deltaport export ./people --timestamp 2024-01-31 --sink parquet:people.parquet
  deltaport export ./people --sink sqlite:people.db --mode upsert --key id`;

export function commandHelp(command: Command): string {
  return HELP[command];
}
