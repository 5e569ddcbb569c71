# The benchmark's peer for SQL (sql-queries.ts runs it): DuckDB's own delta extension (delta_scan, deletion vectors
# applied) answers a query over the table, named t, twice in one process: the first run cold, from a new DuckDB to
# the first query's rows (the view over delta_scan made, which reads the table's log, as Deltaport's cold run starts
# its DuckDB and opens the snapshot; loading the extension's code is left out, as Deltaport's loading of its modules
# is), the second warm (what DuckDB kept: the extension's snapshot and the files' metadata).
#
#   python3 duckdb-query.py TABLE_PATH QUERY
#
# Replies one JSON line on stdout: {"coldMs", "warmMs", "rows", "maxRssKb", "cpuMicros"}; on failure one line on
# stderr and exit code 1. The same pip packages as duckdb-export.py (duckdb and the duckdb-extension-delta wheel).
import json
import os
import resource
import sys
import time

from peer_export import extension_file, fail, literal, peak_rss_kb


def main():
    if len(sys.argv) != 3:
        fail("usage: duckdb-query.py TABLE_PATH QUERY")
    table_path, query = sys.argv[1:]
    try:
        import duckdb
    except ImportError:
        fail("the Python package duckdb is not installed")
    delta = extension_file("delta", duckdb.__version__)
    try:
        started = time.perf_counter()
        con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
        connected = time.perf_counter()
        con.execute(f"LOAD {literal(delta)}")
        started += time.perf_counter() - connected
        con.execute(f"CREATE VIEW t AS SELECT * FROM delta_scan({literal(os.path.abspath(table_path))})")
        times = []
        for _ in range(2):
            rows = len(con.execute(query).fetchall())
            times.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
        con.close()
    except Exception as err:  # one line, as the bench shows it, not a traceback
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_micros = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({"coldMs": times[0], "warmMs": times[1], "rows": rows, "maxRssKb": peak_rss_kb(), "cpuMicros": cpu_micros}))


if __name__ == "__main__":
    main()
