# What the benchmark's peer exports (deltars-adbc-export.py, duckdb-export.py) share: the command line
#
#   python3 <script> TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE
#
# and the reply run.ts reads. On success one JSON line on stdout: the rows written and this process's own peak RSS
# and CPU time ({"rows", "maxRssKb", "cpuMicros"}, the fields report-usage.ts gives for a Node process). On failure,
# one line on stderr and exit code 1. Also how the DuckDB scripts (duckdb-export.py, duckdb-query.py) find the
# extensions they load.
import importlib
import json
import os
import re
import resource
import sys

SINKS = ("postgres", "sqlite")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def literal(text):
    return "'" + text.replace("'", "''") + "'"


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


def run(export, sinks=SINKS):
    """Runs export(table_path, sink, target, table), which returns the rows it wrote, on the command line's
    arguments, and replies as above."""
    script = os.path.basename(sys.argv[0])
    if len(sys.argv) != 5:
        fail(f"usage: {script} TABLE_PATH {'|'.join(sinks)} DATABASE_URL|FILE TARGET_TABLE")
    table_path, sink, target, table = sys.argv[1:]
    if sink not in sinks:
        fail(f"unknown sink {sink!r} ({' or '.join(sinks)})")
    try:
        rows = export(table_path, sink, target, table)
    except Exception as err:  # one line, as the bench shows it, not a traceback
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu_micros = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({"rows": rows, "maxRssKb": peak_rss_kb(), "cpuMicros": cpu_micros}))
