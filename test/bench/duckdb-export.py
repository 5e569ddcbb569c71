# The benchmark's second peer export (run.ts runs it): DuckDB's delta extension scans a Delta table (delta_scan,
# deletion vectors applied) and CREATE TABLE ... AS writes its rows into a table of a database attached through
# DuckDB's postgres or sqlite extension, in one statement.
#
#   python3 duckdb-export.py TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE
#
# Python's DuckDB, not the Node package the tests use (@duckdb/node-api): DuckDB fetches its extensions from
# extensions.duckdb.org on INSTALL, which this machine cannot reach. PyPI ships them as wheels
# (duckdb-extension-<name>), built for DuckDB 1.5.5, and an extension loads only into the DuckDB version it was built
# for, while the Node package is 1.5.6. So this runs on the pip packages duckdb==1.5.5 and the delta,
# postgres_scanner and sqlite_scanner extension wheels of the same version, loaded from their files.
#
# On success it prints one JSON line on stdout: the rows written and this process's own peak RSS and CPU time
# ({"rows", "maxRssKb", "cpuMicros"}, the fields report-usage.ts gives for a Node process). On failure, one line on
# stderr and exit code 1.
import importlib
import json
import os
import re
import resource
import sys

# The DuckDB type ATTACH gives each sink, and the extension that provides it.
SINKS = {"postgres": "postgres_scanner", "sqlite": "sqlite_scanner"}


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


def literal(text):
    return "'" + text.replace("'", "''") + "'"


def identifier(name):
    return '"' + name.replace('"', '""') + '"'


def extension_file(name, version):
    """The extension's file in its wheel (duckdb_extension_<name>/extensions/v<version>/<name>.duckdb_extension)."""
    package = f"duckdb_extension_{name}"
    try:
        module = importlib.import_module(package)
    except ImportError:
        fail(f"the Python package {package} is not installed (pip install duckdb-extension-{name}=={version})")
    folder = os.path.join(os.path.dirname(module.__file__), "extensions")
    path = os.path.join(folder, f"v{version}", f"{name}.duckdb_extension")
    if not os.path.isfile(path):
        built = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        fail(
            f"{package} has no build for the installed duckdb {version} (only {', '.join(built) or 'none'}): "
            "install duckdb and its extension wheels at one version"
        )
    return path


def main(table_path, sink, target, table):
    if sink not in SINKS:
        fail(f"unknown sink {sink!r} (postgres or sqlite)")
    try:
        import duckdb
    except ImportError:
        fail("the Python package duckdb is not installed")
    version = duckdb.__version__
    extensions = [extension_file(name, version) for name in ("delta", SINKS[sink])]

    # No automatic INSTALL: a missing piece is an error now, not a download that hangs without a network.
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    for path in extensions:
        con.execute(f"LOAD {literal(path)}")
    con.execute(f"ATTACH {literal(target)} AS sink (TYPE {sink})")
    # As ADBC's mode='create' does, and Deltaport's export to a new target: the table must not exist yet.
    rows = con.execute(
        f"CREATE TABLE sink.{identifier(table)} AS SELECT * FROM delta_scan({literal(os.path.abspath(table_path))})"
    ).fetchone()[0]
    con.close()

    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_micros = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({"rows": rows, "maxRssKb": peak_rss_kb(), "cpuMicros": cpu_micros}))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        fail("usage: duckdb-export.py TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE")
    try:
        main(*sys.argv[1:])
    except Exception as err:  # one line, as the bench shows it, not a traceback
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
