# The benchmark's long log as delta-rs (the `deltalake` package) writes it, and delta-rs opening it:
#
#   python3 deltars-long-log.py write TABLE_PATH COMMITS CHECKPOINT_INTERVAL [RETAIN]
#   python3 deltars-long-log.py open TABLE_PATH [VERSION | TIMESTAMP]
#
# `write` makes a table of COMMITS versions (0 to COMMITS - 1), each a small append of 10 rows except every 25th, which
# deletes the rows of an earlier append (its file removed) and, given RETAIN, every row older than the last RETAIN
# versions too (a retention delete, which keeps the live files at about RETAIN); delta-rs checkpoints every
# CHECKPOINT_INTERVAL versions as it commits. A table left unfinished there (the process killed) is carried on from its
# last version; meanwhile the log's files older than its last checkpoint wait in TABLE_PATH-log-set-aside (see
# set_aside). `open` loads the latest snapshot (or VERSION's, or the one at TIMESTAMP, ISO 8601), its files included,
# as `DeltaTable(path)` does, and gives the version and live files it found. Each prints one JSON line on stdout, with
# this process's peak RSS and CPU time (the fields report-usage.ts gives for a Node process). On failure, one line on
# stderr and exit code 1.
import json
import os
import resource
import sys

ROWS_PER_COMMIT = 10
DELETE_EVERY = 25


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


try:
    from deltalake import DeltaTable, write_deltalake
    from deltalake.transaction import PostCommitHookProperties
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


# delta-rs's own checkpoints, every delta.checkpointInterval versions, without its expired-log cleanup: that removes
# only commits older than delta.logRetentionDuration (30 days), of which a log written in one go has none, but it lists
# the whole log after every commit (0.15 s a commit at 10,000 commits on this machine, more as the log grows).
HOOKS = PostCommitHookProperties(create_checkpoint=True, cleanup_expired_logs=False)


def checkpoint_name(version):
    return f"{version:020d}.checkpoint.parquet"


def set_aside(log, aside, checkpoint):
    """Moves the log's files older than `checkpoint` into `aside`. delta-rs lists the whole log folder after every
    commit, with a stat of each file, so a commit cost more the longer the log (here 37 ms of CPU time a commit at
    5,000 commits, against 20 at 600). It reads nothing older than its last checkpoint, so those files wait beside the
    log, as delta-rs wrote them (a rename keeps a file's modification time, the commit time that time travel reads),
    and go back once the log is written."""
    if not os.path.exists(os.path.join(log, checkpoint_name(checkpoint))):
        fail(f"delta-rs wrote no checkpoint at version {checkpoint}")
    os.makedirs(aside, exist_ok=True)
    for name in os.listdir(log):
        if name[:20].isdigit() and int(name[:20]) < checkpoint:
            os.rename(os.path.join(log, name), os.path.join(aside, name))


def put_back(log, aside):
    if os.path.isdir(aside):
        for name in os.listdir(aside):
            os.rename(os.path.join(aside, name), os.path.join(log, name))
        os.rmdir(aside)


def write(path, commits, interval, retain):
    log = os.path.join(path, "_delta_log")
    aside = path.rstrip("/") + "-log-set-aside"
    if DeltaTable.is_deltatable(path):
        table = DeltaTable(path)
        # A kill between a commit and its checkpoint leaves the checkpoint unwritten: write it now.
        last = table.version()
        checkpointed = os.path.exists(os.path.join(log, checkpoint_name(last)))
        if (last + 1) % interval == 0 and not checkpointed:
            table.create_checkpoint()
    else:
        write_deltalake(
            path,
            rows(0),
            mode="append",
            configuration={"delta.checkpointInterval": str(interval)},
            post_commithook_properties=HOOKS,
        )
        table = DeltaTable(path)
    for version in range(table.version() + 1, commits):
        if version % DELETE_EVERY == 0:
            # The rows of the append DELETE_EVERY - 1 versions back: its file is removed, nothing is added back.
            first = (version - DELETE_EVERY + 1) * ROWS_PER_COMMIT
            predicate = f"(id >= {first} AND id < {first + ROWS_PER_COMMIT})"
            if retain is not None:
                predicate += f" OR id < {(version - retain) * ROWS_PER_COMMIT}"
            table.delete(predicate, post_commithook_properties=HOOKS)
        else:
            write_deltalake(
                table,
                rows(version * ROWS_PER_COMMIT),
                mode="append",
                post_commithook_properties=HOOKS,
            )
        if table.version() != version:
            fail(
                f"the commit meant as version {version} made version {table.version()}"
            )
        if (version + 1) % interval == 0:
            set_aside(log, aside, version)
    put_back(log, aside)


def reply(**found):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = round((usage.ru_utime + usage.ru_stime) * 1e6)
    print(json.dumps({**found, "maxRssKb": usage.ru_maxrss, "cpuMicros": cpu}))


def open_table(path, at):
    if at is None:
        table = DeltaTable(path)
    elif at.isdigit():
        table = DeltaTable(path, version=int(at))
    else:
        # delta-rs opens a table at a timestamp by loading it, then loading the version at that time.
        table = DeltaTable(path)
        table.load_as_version(at)
    reply(version=table.version(), files=len(table.file_uris()))


def main(argv):
    if len(argv) in (4, 5) and argv[0] == "write":
        retain = int(argv[4]) if len(argv) == 5 else None
        write(argv[1], int(argv[2]), int(argv[3]), retain)
        reply()
    elif len(argv) in (2, 3) and argv[0] == "open":
        open_table(argv[1], argv[2] if len(argv) == 3 else None)
    else:
        fail(
            "usage: deltars-long-log.py write TABLE_PATH COMMITS CHECKPOINT_INTERVAL [RETAIN]"
            " | open TABLE_PATH [VERSION | TIMESTAMP]"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
