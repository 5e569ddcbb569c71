# The benchmark's long log as delta-rs (the `deltalake` package) writes it, and delta-rs opening it:
#
#   python3 deltars-long-log.py write TABLE_PATH COMMITS CHECKPOINT_INTERVAL
#   python3 deltars-long-log.py open TABLE_PATH [VERSION]
#
# `write` makes a table of COMMITS versions (0 to COMMITS - 1), each a small append of 10 rows except every 25th, which
# deletes the rows of an earlier append (its file removed), and delta-rs checkpoints every CHECKPOINT_INTERVAL versions
# as it commits. `open` loads the latest snapshot (or VERSION's), its files included, as `DeltaTable(path)` does, and
# gives the version and live files it found. Each prints one JSON line on stdout, with this process's peak RSS and CPU
# time (the fields report-usage.ts gives for a Node process). On failure, one line on stderr and exit code 1.
import json
import resource
import sys

ROWS_PER_COMMIT = 10
DELETE_EVERY = 25


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


try:
    from deltalake import DeltaTable, write_deltalake
except ImportError as err:
    fail(f"{err.name} is not installed (pip install deltalake==1.6.6 pyarrow==26.0.1)")


def rows(first):
    # Imported only here: opening a table needs no pyarrow, and its import alone would double the time of `open`.
    import pyarrow as pa

    ids = list(range(first, first + ROWS_PER_COMMIT))
    return pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "reading": pa.array([(i * 37) % 1000 / 10 for i in ids], pa.float64()),
            "sensor": pa.array([f"sensor-{i % 16}" for i in ids], pa.string()),
        }
    )


def write(path, commits, interval):
    # delta-rs checkpoints after a commit by itself, every delta.checkpointInterval versions.
    write_deltalake(
        path,
        rows(0),
        mode="append",
        configuration={"delta.checkpointInterval": str(interval)},
    )
    table = DeltaTable(path)
    for version in range(1, commits):
        if version % DELETE_EVERY == 0:
            # The rows of the append DELETE_EVERY - 1 versions back: its file is removed, nothing is added back.
            first = (version - DELETE_EVERY + 1) * ROWS_PER_COMMIT
            table.delete(f"id >= {first} AND id < {first + ROWS_PER_COMMIT}")
        else:
            write_deltalake(path, rows(version * ROWS_PER_COMMIT), mode="append")
        table.update_incremental()
        if table.version() != version:
            fail(
                f"the commit meant as version {version} made version {table.version()}"
            )


def reply(**found):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({**found, "maxRssKb": usage.ru_maxrss, "cpuMicros": cpu}))


def open_table(path, version):
    table = DeltaTable(path) if version is None else DeltaTable(path, version=version)
    reply(version=table.version(), files=len(table.file_uris()))


def main(argv):
    if len(argv) >= 2 and argv[0] == "write" and len(argv) == 4:
        write(argv[1], int(argv[2]), int(argv[3]))
        reply()
    elif len(argv) in (2, 3) and argv[0] == "open":
        open_table(argv[1], int(argv[2]) if len(argv) == 3 else None)
    else:
        fail(
            "usage: deltars-long-log.py write TABLE_PATH COMMITS CHECKPOINT_INTERVAL | open TABLE_PATH [VERSION]"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
