# An independent census of rows for the DuckDB sink's tests: the count and the SHA-256 of the sorted canonical rows,
# of a Delta table as DuckDB's own delta extension reads it (delta_scan: deletion vectors, column mapping and
# partition values applied by delta-kernel-rs), or of a table in a DuckDB file as Python's duckdb reads it.
#
#   python3 delta_census.py delta TABLE_PATH
#   python3 delta_census.py duckdb DATABASE_FILE TABLE...
#   python3 delta_census.py mysql TABLE_PATH < TARGET_ROWS
#
# Replies one JSON line on stdout: {"rows": N, "sha256": HEX}, or for a DuckDB file a list of them, one per table;
# on failure one line on stderr and exit code 1. The mysql form compares tables a MySQL or MariaDB server holds
# (their rows read as text by the test, binary values as hex, as JSON lines: see mysql_census) with the Delta table
# in the form the MySQL sink promises (docs/exporting.md): it replies {"delta": CENSUS, "tables": {"TABLE": CENSUS}}.
# Both sides go through Arrow and the same canonical form, so a value counts as equal whatever type spelled it:
# a row is a JSON object with sorted keys; decimals as their exact text, timestamps in UTC ISO form to the
# microsecond, bytes in hex, floats by repr (NaN and the infinities too), structs as objects, lists as lists, maps as
# lists of [key, value] pairs in their order; a variant is cast to JSON by DuckDB on the Delta side, and a JSON column
# read as the value it spells (a JSON value nested in a struct, list or map is compared as its text); a JSON null counts
# as a SQL NULL (DuckDB's delta extension reads a NULL element of a list of variants as a variant null).
import base64
import datetime
import decimal
import hashlib
import json
import math
import os
import struct
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


def line_of(row):
    """A row's canonical line: a JSON object with sorted keys."""
    return json.dumps(canonical(row), sort_keys=True)


def digest(lines):
    """Count and SHA-256 of the sorted canonical lines."""
    lines = sorted(lines)
    return {
        "rows": len(lines),
        "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest(),
    }


def census(con, query, json_columns, holding_json):
    table = con.execute(query).to_arrow_table()
    rows = table.to_pylist()
    for row in rows:
        for name in holding_json:
            row[name] = canonical(row[name], json_text=True)
        for name in json_columns:
            if row[name] is not None:
                row[name] = json.loads(row[name])
    return digest(line_of(row) for row in rows)


def is_nested(type_):
    import pyarrow as pa

    return (
        pa.types.is_struct(type_)
        or pa.types.is_list(type_)
        or pa.types.is_large_list(type_)
        or pa.types.is_fixed_size_list(type_)
        or pa.types.is_map(type_)
        or isinstance(type_, pa.JsonType)
    )


def shortest_float32(value):
    """The shortest decimal that reads back as the same float32, as a nested float is spelled in JSON."""
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits - 1}e}")
        if struct.unpack("f", struct.pack("f", candidate))[0] == value:
            return candidate
    return value


def json_form(value, type_):
    """A nested value as the SQL sinks spell it in JSON (electron/values/json-value.ts), read back: longs beyond
    2^53 and decimals as text, binary as base64, dates and timestamps as ISO text ('Z' for UTC instants), non-finite
    floats as text, structs and maps as objects (a key that is not text as its JSON), lists as lists, and JSON text
    as the value it spells."""
    import pyarrow as pa

    if value is None:
        return None
    if isinstance(type_, pa.JsonType):
        return json.loads(value)
    if pa.types.is_struct(type_):
        return {field.name: json_form(value[field.name], field.type) for field in type_}
    if pa.types.is_map(type_):
        entries = {}
        for key, item in value:
            key = json_form(key, type_.key_type)
            entries[key if isinstance(key, str) else json.dumps(key)] = json_form(
                item, type_.item_type
            )
        return entries
    if (
        pa.types.is_list(type_)
        or pa.types.is_large_list(type_)
        or pa.types.is_fixed_size_list(type_)
    ):
        return [json_form(item, type_.value_type) for item in value]
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return shortest_float32(value) if pa.types.is_float32(type_) else value
    if isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**53 else str(value)
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            return (
                value.astimezone(datetime.UTC)
                .replace(tzinfo=None)
                .isoformat(timespec="microseconds")
                + "Z"
            )
        return value.isoformat(timespec="microseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    fail(f"no JSON form for {type(value).__name__}")


def mysql_value(text, type_):
    """A value MySQL returned as text (binary as hex), read as the Delta column's type: nested values and variants
    are JSON, booleans 0 and 1, a timestamp the UTC time."""
    import pyarrow as pa

    if text is None:
        return None
    if is_nested(type_):
        return json.loads(text)
    # DuckDB's lossless Arrow (which marks JSON) spells a boolean as the bool8 extension type.
    if pa.types.is_boolean(type_) or isinstance(type_, pa.Bool8Type):
        return text == "1"
    if pa.types.is_integer(type_):
        return int(text)
    if pa.types.is_float32(type_):
        return struct.unpack("f", struct.pack("f", float(text)))[0]
    if pa.types.is_floating(type_):
        return float(text)
    if pa.types.is_decimal(type_):
        return decimal.Decimal(text)
    if pa.types.is_binary(type_) or pa.types.is_large_binary(type_):
        return bytes.fromhex(text)
    if pa.types.is_date(type_):
        return datetime.date.fromisoformat(text)
    if pa.types.is_timestamp(type_):
        value = datetime.datetime.fromisoformat(text)
        return value.replace(tzinfo=datetime.UTC) if type_.tz is not None else value
    return text


def mysql_census(con, source, lines):
    """The Delta table in the MySQL sink's form (nested values and variants as JSON), and each target's rows: `lines`
    hold, for each target, a JSON object naming it and its columns ({"table": NAME, "columns": [NAME...]}), then
    its rows, each a JSON list of texts. The rows are read first, as they come: a server drops a client that leaves
    its result unread for long (MariaDB's net_write_timeout), and the Delta side can take a minute."""
    con.execute("SET arrow_lossless_conversion = true")
    query, _, _ = as_json(con, source)
    types = {
        field.name: field.type
        for field in con.execute(f"{query} LIMIT 0").to_arrow_table().schema
    }
    tables = {}
    name, columns, rows = None, [], []
    for line in lines:
        item = json.loads(line)
        if isinstance(item, dict):
            if name is not None:
                tables[name] = digest(rows)
            name, columns, rows = item["table"], item["columns"], []
            if sorted(columns) != sorted(types):
                fail(
                    f"table {name} has the columns {columns}, the Delta table {list(types)}"
                )
        else:
            rows.append(
                line_of(
                    {
                        column: mysql_value(text, types[column])
                        for column, text in zip(columns, item)
                    }
                )
            )
    if name is not None:
        tables[name] = digest(rows)
    delta = digest(
        line_of(
            {
                name: json_form(value, types[name]) if is_nested(types[name]) else value
                for name, value in row.items()
            }
        )
        for row in con.execute(query).to_arrow_table().to_pylist()
    )
    return {"delta": delta, "tables": tables}


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
    elif len(sys.argv) == 3 and sys.argv[1] == "mysql":
        con = duckdb.connect(config=config)
        con.execute(f"LOAD {literal(extension_file('delta', duckdb.__version__))}")
        con.execute("SET TimeZone = 'UTC'")
        scan = f"delta_scan({literal(os.path.abspath(sys.argv[2]))})"
        result = mysql_census(con, scan, sys.stdin)
    elif len(sys.argv) >= 4 and sys.argv[1] == "duckdb":
        con = duckdb.connect(sys.argv[2], read_only=True, config=config)
        con.execute("SET TimeZone = 'UTC'")
        names = ['"' + name.replace('"', '""') + '"' for name in sys.argv[3:]]
        result = [census(con, *as_json(con, name)) for name in names]
    else:
        fail(
            "usage: delta_census.py delta TABLE_PATH | duckdb DATABASE_FILE TABLE... | mysql TABLE_PATH < ROWS"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as err:  # noqa: BLE001 (one line, not a traceback)
        fail(str(err).strip().split("\n")[0] or type(err).__name__)
