# The benchmark's second peer export (run.ts runs it): DuckDB's delta extension scans a Delta table (delta_scan,
# deletion vectors applied) and CREATE TABLE ... AS writes its rows into a table of a database attached through
# DuckDB's postgres or sqlite extension, or of a DuckDB file (the limit of Deltaport's DuckDB export), in one
# statement.
#
#   python3 duckdb-export.py TABLE_PATH postgres|sqlite|duckdb DATABASE_URL|SQLITE_FILE|DUCKDB_FILE TARGET_TABLE
#
# Python's DuckDB, not the Node package the tests use (@duckdb/node-api): DuckDB fetches its extensions from
# extensions.duckdb.org on INSTALL, which this machine cannot reach. PyPI ships them as wheels
# (duckdb-extension-<name>), built for DuckDB 1.5.5, and an extension loads only into the DuckDB version it was built
# for, while the Node package is 1.5.6. So this runs on the pip packages duckdb==1.5.5 and the delta,
# postgres_scanner and sqlite_scanner extension wheels of the same version, loaded from their files.
#
# Command line and reply: peer_export.py.
import os

from peer_export import extension_file, fail, literal, run

# The DuckDB type ATTACH gives each sink, and the extension that provides it (a DuckDB file needs none).
EXTENSIONS = {"postgres": "postgres_scanner", "sqlite": "sqlite_scanner", "duckdb": None}


def identifier(name):
    return '"' + name.replace('"', '""') + '"'


def export(table_path, sink, target, table):
    try:
        import duckdb
    except ImportError:
        fail("the Python package duckdb is not installed")
    version = duckdb.__version__
    extensions = [extension_file(name, version) for name in ("delta", EXTENSIONS[sink]) if name]

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
    return rows


if __name__ == "__main__":
    run(export, (*EXTENSIONS,))
