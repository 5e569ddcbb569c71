# The benchmark's peer export (run.ts runs it): delta-rs (the `deltalake` package) reads a Delta table and an
# ADBC driver ingests its rows into a new table, in one transaction.
#
#   python3 deltars-adbc-export.py TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE
#
# On success it prints one JSON line on stdout: the rows ingested and this process's own peak RSS and CPU time
# ({"rows", "maxRssKb", "cpuMicros"}, the fields report-usage.ts gives for a Node process). On failure, one line on
# stderr and exit code 1.
import importlib
import json
import re
import resource
import sys

DRIVERS = {"postgres": "adbc_driver_postgresql.dbapi", "sqlite": "adbc_driver_sqlite.dbapi"}


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def peak_rss_kb():
    # VmHWM, as report-usage.ts reads it: the high-water mark since exec, not counting the parent's pages at fork.
    try:
        with open("/proc/self/status") as status:
            hwm = re.search(r"^VmHWM:\s*(\d+) kB$", status.read(), re.M)
        if hwm:
            return int(hwm.group(1))
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(table_path, sink, target, table):
    if sink not in DRIVERS:
        fail(f"unknown sink {sink!r} (postgres or sqlite)")
    try:
        import pyarrow
        from deltalake import DeltaTable, QueryBuilder

        driver = importlib.import_module(DRIVERS[sink])
    except ImportError as err:
        fail(f"the Python package {err.name} is not installed")

    # DeltaTable.to_pyarrow_dataset() refuses a table with deletion vectors (the bench's wide table has one); delta-rs's
    # own query engine applies them and streams the batches.
    stream = QueryBuilder().register("t", DeltaTable(table_path)).execute("select * from t")
    reader = pyarrow.RecordBatchReader.from_stream(stream)
    with driver.connect(target) as conn:
        with conn.cursor() as cursor:
            rows = cursor.adbc_ingest(table, reader, mode="create")
        conn.commit()

    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_micros = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({"rows": rows, "maxRssKb": peak_rss_kb(), "cpuMicros": cpu_micros}))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        fail("usage: deltars-adbc-export.py TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE")
    try:
        main(*sys.argv[1:])
    except Exception as err:  # one line, as the bench shows it, not a traceback
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
