# The benchmark's peer export (run.ts runs it): delta-rs (the `deltalake` package) reads a Delta table and an
# ADBC driver ingests its rows into a new table, in one transaction.
#
#   python3 deltars-adbc-export.py TABLE_PATH postgres|sqlite DATABASE_URL|SQLITE_FILE TARGET_TABLE
#
# Command line and reply: peer_export.py.
import importlib

from peer_export import fail, run

DRIVERS = {"postgres": "adbc_driver_postgresql.dbapi", "sqlite": "adbc_driver_sqlite.dbapi"}


def export(table_path, sink, target, table):
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
    return rows


if __name__ == "__main__":
    run(export)
