// A column's text in a CSV or JSON Lines file, as a PySpark expression that spells exactly what Deltaport's text
// writers spell (values/text-formats.ts over values/json-value.ts): Spark's own CSV and JSON writers differ in
// numbers (1.0E10), escapes (\u001F), quoting and nested values. Most types are spelled by Spark SQL; floating-point
// numbers and nested values, whose text Spark cannot produce, by the Python functions of python/spark_text_helpers.py.
import type { DeltaType, StructField } from '../../shared/delta-schema.js';
import { isDecimal } from '../../shared/delta-schema.js';
import { csvField } from '../values/text-formats.js';
import { pyValue, type PyValue } from './python-text.js';

/** The text of one field of a line: never null (a null is the empty field in CSV, `null` in JSON Lines). */
export function textFieldExpression(field: StructField, col: string, sink: 'csv' | 'jsonl'): string {
  const { text, json } = valueText(field.type, col);
  if (sink === 'csv') return `csv_field(${text})`;
  return `${json}(${text})`;
}

/** The value's plain text (null for null) and the helper that makes it a JSON value: a string, a number whose
 * text may be NaN or Infinity, a long that may exceed 2^53 (then a string), or JSON text as it is. */
function valueText(type: DeltaType, col: string): { text: string; json: 'json_string' | 'json_number' | 'json_long' | 'json_raw' } {
  if (typeof type !== 'string') return { text: `nested_json(${col}, ${pyValue(type as unknown as PyValue)})`, json: 'json_raw' };
  if (isDecimal(type)) return { text: `${col}.cast("string")`, json: 'json_string' };
  switch (type) {
    case 'byte':
    case 'short':
    case 'integer':
    case 'boolean':
      return { text: `${col}.cast("string")`, json: 'json_raw' };
    case 'long':
      // Beyond ±(2^53 - 1) a JSON number would lose digits: Deltaport writes such longs as strings.
      return { text: `${col}.cast("string")`, json: 'json_long' };
    case 'float':
      return { text: `float32_text(${col})`, json: 'json_number' };
    case 'double':
      return { text: `double_text(${col})`, json: 'json_number' };
    case 'date':
      return { text: `F.date_format(${col}, DATE)`, json: 'json_string' };
    case 'timestamp':
      return { text: `F.date_format(${col}, TIMESTAMP_UTC)`, json: 'json_string' };
    case 'timestamp_ntz':
      return { text: `F.date_format(${col}, TIMESTAMP_NTZ)`, json: 'json_string' };
    case 'binary':
      return { text: `F.base64(${col})`, json: 'json_string' };
    case 'variant':
      return { text: `nested_json(${col}, "variant")`, json: 'json_raw' };
    case 'string':
    case 'void': // all nulls
      return { text: `${col}.cast("string")`, json: 'json_string' };
    default:
      return type satisfies never;
  }
}

/** The first line of a CSV file, as Deltaport writes it. */
export function csvHeader(fields: StructField[]): string {
  return `${fields.map((f) => csvField(f.name)).join(',')}\n`;
}

/** What comes before each value in a JSON Lines object: `{"a":`, then `,"b":`, ... (keys in column order). */
export function jsonKeys(fields: StructField[]): string[] {
  return fields.map((f, i) => `${i === 0 ? '{' : ','}${JSON.stringify(f.name)}:`);
}
