# An independent census of rows for the DuckDB sink's tests: the count and the SHA-256 of the sorted canonical rows,
# of a Delta table as DuckDB's own delta extension reads it (delta_scan: deletion vectors, column mapping and
# partition values applied by delta-kernel-rs), or of a table in a DuckDB file as Python's duckdb reads it.
#
#   python3 delta_census.py delta TABLE_PATH
#   python3 delta_census.py duckdb DATABASE_FILE TABLE...
#
# Replies one JSON line on stdout: {"rows": N, "sha256": HEX}, or for a DuckDB file a list of them, one per table;
# on failure one line on stderr and exit code 1.
# Both sides go through Arrow and the same canonical form, so a value counts as equal whatever type spelled it:
# a row is a JSON object with sorted keys; decimals as their exact text, timestamps in UTC ISO form to the
# microsecond, bytes in hex, floats by repr (NaN and the infinities too), structs as objects, lists as lists, maps as
# lists of [key, value] pairs in their order; a variant is cast to JSON by DuckDB on the Delta side, and a JSON column
# read as the value it spells (a JSON value nested in a struct, list or map is compared as its text); a JSON null counts
# as a SQL NULL (DuckDB's delta extension reads a NULL element of a list of variants as a variant null).
import datetime
import decimal
import hashlib
import json
import os
import sys

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench")
)
from peer_export import extension_file, fail, literal


def canonical(value, json_text=False):
    """`json_text`: the value holds JSON text (at any depth), where a JSON null counts as a SQL NULL."""
    if json_text and value == "null":
        return None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value.isoformat(timespec="microseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {k: canonical(v, json_text) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [canonical(v, json_text) for v in value]
    fail(f"no canonical form for {type(value).__name__}")


def census(con, query, json_columns, holding_json):
    table = con.execute(query).to_arrow_table()
    lines = []
    for row in table.to_pylist():
        for name in holding_json:
            row[name] = canonical(row[name], json_text=True)
        for name in json_columns:
            if row[name] is not None:
                row[name] = json.loads(row[name])
        lines.append(json.dumps(canonical(row), sort_keys=True))
    lines.sort()
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return {"rows": len(lines), "sha256": digest}


def as_json(con, source):
    """The query of every column of `source`, a variant at any depth cast to JSON (as the sink writes it; Arrow has no
    variant type), the columns that are JSON at their top, and those that hold JSON at any depth."""
    columns, json_columns, holding_json = [], [], []
    for name, type_, *_ in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall():
        quoted = '"' + name.replace('"', '""') + '"'
        if "VARIANT" in type_:
            type_ = type_.replace("VARIANT", "JSON")
            columns.append(f"CAST({quoted} AS {type_}) AS {quoted}")
        else:
            columns.append(quoted)
        if type_ == "JSON":
            json_columns.append(name)
        if "JSON" in type_:
            holding_json.append(name)
    return f"SELECT {', '.join(columns)} FROM {source}", json_columns, holding_json


def main():
    import duckdb

    config = {"autoinstall_known_extensions": False, "autoload_known_extensions": False}
    if len(sys.argv) == 3 and sys.argv[1] == "delta":
        con = duckdb.connect(config=config)
        con.execute(f"LOAD {literal(extension_file('delta', duckdb.__version__))}")
        con.execute("SET TimeZone = 'UTC'")
        scan = f"delta_scan({literal(os.path.abspath(sys.argv[2]))})"
        result = census(con, *as_json(con, scan))
    elif len(sys.argv) >= 4 and sys.argv[1] == "duckdb":
        con = duckdb.connect(sys.argv[2], read_only=True, config=config)
        con.execute("SET TimeZone = 'UTC'")
        names = ['"' + name.replace('"', '""') + '"' for name in sys.argv[3:]]
        result = [census(con, *as_json(con, name)) for name in names]
    else:
        fail("usage: delta_census.py delta TABLE_PATH | duckdb DATABASE_FILE TABLE...")
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 (one line, not a traceback)
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
