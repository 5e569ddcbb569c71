// The help texts: `deltaport --help`, `deltaport help <command>`, `deltaport <command> --help`.
import { DEFAULT_MEMORY_LIMIT } from '../sql/limits.js';

export const COMMANDS = [
  'schema',
  'history',
  'preview',
  'export',
  'diff',
  'changes',
  'profile',
  'partitions',
  'sql',
  'catalogs',
  'schemas',
  'tables',
  'serve',
] as const;
export type Command = (typeof COMMANDS)[number];

const TIME_TRAVEL = `  --version N        read version N
  --timestamp TS     read the latest version committed at or before TS (UTC), one of
                     2022-02-24 | 2022-02-24 04:55:00[.001] | 2022-02-24T04:55:00[.001] | 2022-02-24T04:55:00.001Z`;

const WHERE = `  --where "COND"     only rows where the SQL condition holds, e.g. "state = 'Ohio' AND cases > 100"
                     (= <> < <= > >=, AND OR NOT, IN, BETWEEN, IS [NOT] NULL, LIKE; DATE '...', TIMESTAMP '...';
                     nested fields a.b; names with spaces in double quotes); files it rules out are not read`;

const CATALOG_OPTION = `  --catalog-option k=v  how to reach the catalog (repeatable): endpoint (the Unity Catalog server or workspace
                     URL, default $DATABRICKS_HOST; for Glue another service URL), token (default
                     $DATABRICKS_TOKEN, then $UC_TOKEN), region and profile (Glue)
  --json             print the list as JSON`;

const HELP: Record<Command, string> = {
  schema: `usage: deltaport schema <table> [--version N | --timestamp TS] [--json]

Shows the table's schema as a tree (types, nullability, partition columns), its protocol and size.
${TIME_TRAVEL}
  --json             print the table information as JSON`,
  history: `usage: deltaport history <table> [--limit N] [--json]

Lists the table's commits, newest first: version, time, operation, parameters, metrics, engine.
  --limit N          only the N newest commits
  --json             print the commits as JSON`,
  preview: `usage: deltaport preview <table> [--version N | --timestamp TS] [--columns a,b] [--where COND]
                         [--order-by "a desc,b"] [--limit N] [--format table|jsonl|csv]

Prints the first rows of the table (20 by default).
${TIME_TRAVEL}
  --columns a,b      only these columns, in this order
${WHERE}
  --order-by "a desc,b"  the first rows in this order over the whole snapshot (after --where), nulls last
                     unless a key says nulls first ("a desc nulls first"); every row is read, only the
                     first N are kept
  --limit N          at most N rows
  --format F         table (aligned columns, NULL for nulls), jsonl or csv`,
  export: `usage: deltaport export <table> [--version N | --timestamp TS] [--columns a,b] [--where COND]
                        [--option key=value ...] --sink <sqlite:PATH | duckdb:PATH | postgres://... | mysql://... | parquet:PATH | csv:PATH | jsonl:PATH>
                        [--target TABLE] [--mode append|overwrite|upsert|sql] [--key a,b] [--sql "..."]
                        [--batch-size N] [--batch-interval-ms N] [--max-retries N] [--exactly-once]
                        [--statement-timeout-ms N] [--connections N] [--force] [--emit spark [--out job.py]]
                        [--csv-delimiter C] [--csv-quote C] [--csv-header true|false] [--csv-null TEXT]
                        [--csv-line-ending lf|crlf]

Exports a snapshot of the table. Files are written beside PATH and renamed into place when complete; an
existing file is never replaced unless --force (or --mode overwrite) is given.
${TIME_TRAVEL}
  --columns a,b      only these columns, in this order
${WHERE}
  --option k=v       a source option: parquetBatchSize (rows per scanned batch; default 2048, or a larger
                     --batch-size of an export into SQLite)
  --sink TARGET      where to write: sqlite:PATH, duckdb:PATH, postgres://user:password@host:port/db,
                     mysql://user:password@host:port/db (or mariadb://), parquet:PATH, csv:PATH or jsonl:PATH
  --force            replace an existing output file (same as --mode overwrite for a file sink)
CSV sinks:
  --csv-delimiter C  the character between fields (default ,)
  --csv-quote C      the character around a field that holds the delimiter, the quote or a line break (default ")
  --csv-header B     true (default) writes the column names first; false leaves them out
  --csv-null TEXT    the text of a null (default: an empty field; the empty string is then written quoted)
  --csv-line-ending E  lf (default) or crlf
SQL sinks (sqlite, duckdb, postgres, mysql):
  --target TABLE     target table (default: the table folder's name)
  --mode M           append (default), overwrite, upsert (needs --key) or sql (needs --sql; not for duckdb)
  --key a,b          key columns for upsert
  --sql "..."        your own statement with :column parameters, e.g. UPDATE t SET v = :v WHERE id = :id
  --batch-size N     rows per batch (default 5000); a batch is a transaction, except that PostgreSQL's COPY
                     and MySQL's LOAD DATA modes join consecutive batches into transactions of about 8 MiB
  --batch-interval-ms N  flush a partial batch after N ms (default 0: off)
  --max-retries N    retries of a transaction after a transient error (default 3)
  --exactly-once     record progress in the target so that a rerun resumes and never duplicates rows
  --statement-timeout-ms N  (postgres, mysql) give a statement, COPY or LOAD DATA up as lost after N ms unanswered, and retry
                     it on a new connection (default 60000)
  --connections N    (postgres) spread the transactions of append, overwrite and upsert over N connections,
                     1 to 16 (default 2); mode sql uses one
Hand-off:
  --emit spark       export nothing; print the same export as a PySpark script (Spark with Delta Lake)
  --out FILE         write the script to FILE instead of printing it`,
  diff: `usage: deltaport diff <table> --from V1 [--to V2] [--pair-by a,b] [--limit N] [--format table|jsonl|csv]
                      [--sink TARGET [SQL sink options of export]]

Shows what changed from version V1 to V2 (default: the latest): schema, properties, protocol, data files, and the
rows added and removed, read only from the files that differ and their deletion vectors. Each row carries a
_change column, 'added' or 'removed'; an updated row shows as one of each.
  --pair-by a,b      key columns: a removed and an added row with the same key become updated_from and
                     updated_to, side by side (every changed row is held in memory)
  --limit N          at most N rows (default 20 as a table; every row as jsonl or csv)
  --format F         table (the changes, then the rows), jsonl or csv (the rows only)
  --sink TARGET      export the rows instead, as export does (all its sinks and SQL options but --exactly-once)`,
  changes: `usage: deltaport changes <table> --from V1 [--to V2] [--limit N] [--format table|jsonl|csv]
                         [--sink TARGET [SQL sink options of export]]

Prints the table's change data feed (delta.enableChangeDataFeed) from version V1 to V2 (default: the latest), as
Spark's table_changes does: each row with _change_type (insert, delete, update_preimage, update_postimage),
_commit_version and _commit_timestamp. Read from the _change_data files where a commit has them, else from its
added and removed files.
  --limit N          at most N rows (default 20 as a table; every row as jsonl or csv)
  --format F         table, jsonl or csv
  --sink TARGET      export the rows instead, as export does (all its sinks and SQL options but --exactly-once)`,
  profile: `usage: deltaport profile <table> [--version N | --timestamp TS] [--exact] [--json]

Profiles each column: null count, min and max from the log's statistics without decoding any data (min and max
are bounds: strings may be truncated, timestamps are in milliseconds), and the exact row count (numRecords less
deletion vectors). With --exact, every row is read: nulls, min, max and distinct values counted, and each number,
date and timestamp column gets a histogram of ten equal-width bins from its min to its max (nulls left out).
${TIME_TRAVEL}
  --exact            count over every row instead of the statistics
  --json             print the profile as JSON`,
  partitions: `usage: deltaport partitions <table> [--version N | --timestamp TS] [--json]

Lists every partition of the version with its files, rows (from the statistics, less deleted rows) and bytes.
${TIME_TRAVEL}
  --json             print the partitions as JSON`,
  sql: `usage: deltaport sql "<query>" --table NAME=LOCATION[@VERSION] ... [--limit N] [--format table|jsonl|csv]
                     [--memory-limit SIZE] [--sink TARGET [SQL sink options of export]]
       deltaport sql <table> "<query>"   (the table is named t)

Runs a SQL query (DuckDB's dialect) over snapshots of Delta tables, read as preview and export read them (deletion
vectors, column mapping, type widening). A name followed by @ and a version or a quoted timestamp is that table at
that snapshot: SELECT * FROM t@12 EXCEPT SELECT * FROM t@11, or FROM t@'2024-03-01 10:00'. Only the opened tables
can be read: no files, network, ATTACH, COPY, INSTALL or SET. Nested columns (structs, arrays, maps) and variants
are JSON text (use ->> and json_extract on them).
  --table N=LOC      the table at LOC (a folder, cloud URL or catalog name) named N in the query (repeatable); LOC may end in
                     @12 or @v12 (that version) or @'2024-03-01 10:00' (the version committed by then)
  --limit N          at most N rows (default 20 as a table; every row as jsonl or csv)
  --format F         table (then the rows scanned and the time taken), jsonl or csv
  --catalog-option k=v  how to reach the catalog of tables named in one (see deltaport help catalogs)
  --memory-limit S   DuckDB's memory for the query, e.g. 512MB or 2GB (default ${DEFAULT_MEMORY_LIMIT}); beyond it, DuckDB
                     spills to a temporary folder
  --sink TARGET      export the rows instead, as export does (all its sinks and SQL options but --exactly-once;
                     the default --target is the first table's folder name)`,
  catalogs: `usage: deltaport catalogs uc:// [--catalog-option key=value ...] [--json]

Lists the catalogs of a Unity Catalog server or Databricks workspace.
${CATALOG_OPTION}`,
  schemas: `usage: deltaport schemas <uc://catalog | glue://> [--catalog-option key=value ...] [--json]

Lists the schemas of a Unity Catalog catalog, or the databases of the AWS Glue catalog.
${CATALOG_OPTION}`,
  tables: `usage: deltaport tables <uc://catalog.schema | glue://database> [--catalog-option key=value ...] [--json]

Lists the tables of a schema (a Glue database) with their format and location; Delta tables open by name:
deltaport preview uc://catalog.schema.table, deltaport preview glue://database/table.
${CATALOG_OPTION}`,
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
  diff <table>       what changed between two versions, down to the rows
  changes <table>    the change data feed over a range of versions
  profile <table>    null counts, min and max of each column (statistics, or --exact)
  partitions <table> each partition's files, rows and bytes
  sql "<query>"      SQL over snapshots: --table name=location[@version], or sql <table> "<query>"
  catalogs uc://     the catalogs of a Unity Catalog
  schemas <catalog>  the schemas of a Unity Catalog catalog (uc://main), or Glue's databases (glue://)
  tables <schema>    the tables of a schema (uc://main.sales) or a Glue database (glue://sales), with formats
  serve              the app in a browser
  help <command>     help for a command

<table> is a folder or a cloud URL: s3://bucket/path, s3a://, gs://bucket/path, az://container/path,
abfss://container@account.dfs.core.windows.net/path. Credentials come from each cloud's usual environment
variables and config files, or from --storage-option key=value (repeatable: endpoint, region, profile,
access_key_id, secret_access_key, session_token, path_style, account_name, account_key, sas_token,
service_account_key, timeout_ms, anonymous).
<table> may also be a table named in a catalog: uc://catalog.schema.table (Unity Catalog: give its URL with
--catalog-option endpoint=..., the token in DATABRICKS_TOKEN or UC_TOKEN; the table's files are read with the
credentials the catalog vends) or glue://database/table (AWS Glue, through the AWS credential chain).

examples:
  deltaport schema ./people --version 3
  deltaport preview ./people --columns id,name --limit 5
  deltaport preview ./people --where "country = 'NL' AND born >= DATE '1990-01-01'"
  deltaport export ./people --timestamp 2024-01-31 --sink parquet:people.parquet
  deltaport export ./people --sink sqlite:people.db --mode upsert --key id
  deltaport sql ./people "SELECT country, count(*) FROM t GROUP BY country"
  deltaport preview s3://lake/people --storage-option endpoint=http://localhost:9000 --storage-option path_style=true
  deltaport preview uc://main.sales.orders --catalog-option endpoint=https://dbc-1234.cloud.databricks.com`;

export function commandHelp(command: Command): string {
  return HELP[command];
}
