# The part of a CSV or JSON Lines job that spells values as Deltaport does (the job picks one expression per column).
# Spark SQL builds most of it; what Spark cannot spell (JavaScript's shortest number text, Deltaport's JSON of nested
# values) runs as Python functions on the executors. It comes after spark_job.py in the script, whose F and
# JSON_OPTIONS it uses.

import decimal
import json
import math
import re
import struct

from pyspark.sql.types import StringType

MAX_SAFE_INTEGER = 2**53 - 1
# What JSON.stringify escapes in a string, with its escapes (json.dumps spells each one the same way).
JSON_ESCAPES = [("\\", "\\\\"), ('"', '\\"')] + [(chr(c), json.dumps(chr(c))[1:-1]) for c in range(32)]
NEEDS_JSON_ESCAPE = '[\\x00-\\x1f"\\\\]'
NEEDS_CSV_QUOTES = '[",\\r\\n]'


def csv_field(text):
    """RFC 4180 as Deltaport writes it: null an empty field, the empty string "", quotes only when needed."""
    quoted = F.concat(F.lit('"'), F.replace(text, F.lit('"'), F.lit('""')), F.lit('"'))
    return (
        F.when(text.isNull(), F.lit(""))
        .when(text == "", F.lit('""'))
        .when(text.rlike(NEEDS_CSV_QUOTES), quoted)
        .otherwise(text)
    )


def json_string(text):
    escaped = text
    for char, escape in JSON_ESCAPES:
        escaped = F.replace(escaped, F.lit(char), F.lit(escape))
    body = F.when(text.rlike(NEEDS_JSON_ESCAPE), escaped).otherwise(text)
    return F.when(text.isNull(), F.lit("null")).otherwise(F.concat(F.lit('"'), body, F.lit('"')))


def json_raw(text):
    return F.coalesce(text, F.lit("null"))


def json_number(text):
    """NaN and the infinities are not JSON numbers: Deltaport writes them as strings."""
    return F.when(text.rlike("^-?[IN]"), json_string(text)).otherwise(json_raw(text))


def json_long(text):
    """A long beyond 2^53 would lose digits as a JSON number: Deltaport writes it as a string."""
    unsafe = F.abs(text.cast("decimal(20,0)")) > F.lit(MAX_SAFE_INTEGER)
    return F.when(unsafe, json_string(text)).otherwise(json_raw(text))


def js_number(x):
    """JavaScript's String(x): the shortest digits that read back as x (repr's digits), placed as JavaScript does."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    _, digits, exponent = decimal.Decimal(repr(abs(x))).normalize().as_tuple()
    s = "".join(map(str, digits))
    k = len(s)
    n = exponent + k
    if k <= n <= 21:
        text = s + "0" * (n - k)
    elif 0 < n <= 21:
        text = s[:n] + "." + s[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + s
    else:
        e = n - 1
        text = s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return ("-" if x < 0 else "") + text


def fround(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def to_precision(x, digits):
    """Number(x.toPrecision(digits)): the nearest number of that many significant digits, a tie away from zero."""
    with decimal.localcontext() as context:
        context.prec = digits
        context.rounding = decimal.ROUND_HALF_UP
        return float(+decimal.Decimal(x))


def shortest_float32(x):
    """The shortest decimal that reads back as the same float (0.1, not 0.10000000149011612), as Deltaport picks it."""
    if not math.isfinite(x) or (x == int(x) and abs(x) <= 16777216):
        return x
    for digits in range(1, 9):
        candidate = to_precision(x, digits)
        if fround(candidate) == x:
            return candidate
    return to_precision(x, 9)


double_text = F.udf(lambda x: None if x is None else js_number(x), StringType())
float32_text = F.udf(lambda x: None if x is None else js_number(shortest_float32(x)), StringType())


def decimal_text(value, scale):
    with decimal.localcontext() as context:
        context.prec = 100
        return format(decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-scale)), "f")


def decimal_scale(dtype):
    match = re.fullmatch(r"decimal\(\s*\d+\s*,\s*(-?\d+)\s*\)", dtype)
    return int(match.group(1)) if match else None


def deltaport_value(value, dtype):
    """A value as Spark's to_json spelled it, parsed -> the value Deltaport reads for it (times are already text)."""
    if value is None:
        return None
    if isinstance(dtype, dict):
        if dtype["type"] == "struct":
            return {f["name"]: deltaport_value(value.get(f["name"]), f["type"]) for f in dtype["fields"]}
        if dtype["type"] == "array":
            return [deltaport_value(v, dtype["elementType"]) for v in value]
        return {map_key(k, dtype["keyType"]): deltaport_value(v, dtype["valueType"]) for k, v in value.items()}
    if dtype == "long":
        return value if abs(value) <= MAX_SAFE_INTEGER else str(value)
    if dtype in ("float", "double"):
        x = float(value)
        if dtype == "float":
            x = shortest_float32(fround(x))
        if math.isfinite(x):
            return x
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if dtype == "variant":
        return variant_value(value)
    scale = decimal_scale(dtype)
    return value if scale is None else decimal_text(value, scale)


def variant_value(value):
    """A variant's JSON as Deltaport reads it: integers beyond 2^53 as their digits, other numbers as doubles."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value if abs(value) <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, (float, decimal.Decimal)):
        return float(value)
    if isinstance(value, list):
        return [variant_value(v) for v in value]
    return {k: variant_value(v) for k, v in value.items()}


def map_key(text, dtype):
    """Deltaport names a map entry by its key's text: a string as it is, anything else as its JSON."""
    if dtype == "string":
        return text
    try:
        value = deltaport_value(json.loads(text, parse_float=decimal.Decimal), dtype)
    except ValueError:
        return text
    return value if isinstance(value, str) else js_json_text(value)


def is_array_index(key):
    return re.fullmatch(r"0|[1-9][0-9]*", key) is not None and int(key) < 2**32 - 1


def js_json_text(value):
    """JSON.stringify's text of a value, keys in JavaScript's order (integer keys first, ascending)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(js_json_text(v) for v in value) + "]"
    keys = sorted((k for k in value if is_array_index(k)), key=int) + [k for k in value if not is_array_index(k)]
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + js_json_text(value[k]) for k in keys) + "}"


def nested_json(column, dtype):
    """Deltaport's JSON text of a nested (or variant) value, from Spark's (times already in Deltaport's forms)."""
    convert = F.udf(
        lambda text: None if text is None else js_json_text(deltaport_value(json.loads(text, parse_float=decimal.Decimal), dtype)),
        StringType(),
    )
    return convert(F.to_json(column, JSON_OPTIONS))
