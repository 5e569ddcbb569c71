// The Python functions a CSV or JSON Lines job spells numbers and JSON with, run by python3 (no Spark session) on
// many doubles and floats, against what Deltaport writes for them: JavaScript's String() and its float32 rule.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pythonSource } from '../../../electron/handoff/python-sources.js';
import { shortestFloat32 } from '../../../electron/values/json-value.js';

const pysparkMissing = spawnSync('python3', ['-c', 'import pyspark'], { encoding: 'utf8' }).status !== 0;

/** Doubles from their bits (xorshift, fixed seed: every run checks the same values) and the edges of the notation. */
function doubles(): number[] {
  const out = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 1e-6, 1.5e-6, 1e16, 2 ** 53, -(2 ** 60), 5e-324, Number.MAX_VALUE, 100, 1e20, 123e-20];
  const view = new DataView(new ArrayBuffer(8));
  let state = 0x2545f4914f6cdd1dn;
  for (let i = 0; i < 3000; i++) {
    state ^= (state << 13n) & 0xffffffffffffffffn;
    state ^= state >> 7n;
    state ^= (state << 17n) & 0xffffffffffffffffn;
    view.setBigUint64(0, state);
    const bits = view.getFloat64(0);
    if (Number.isFinite(bits)) out.push(bits);
    out.push(Number(((i % 2 ? -1 : 1) * (i + 1) * 1.37e-4 * 10 ** ((i % 50) - 25)).toPrecision((i % 17) + 1)));
  }
  return out;
}

/** What the code prints, without its last newline. */
function python(code: string, input: unknown): string {
  const run = spawnSync('python3', ['-c', `from pyspark.sql import functions as F\n${pythonSource('spark_text_helpers.py')}\n${code}`], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.slice(0, -1);
}

describe.skipIf(pysparkMissing)(pysparkMissing ? 'Spark text helpers (skipped: pyspark is not installed)' : 'Spark text helpers', () => {
  it('write every double as String() does, and every float as Deltaport does', () => {
    const values = doubles();
    const floats = values.map(Math.fround).filter(Number.isFinite);
    // Bits travel as hex: JSON would round-trip them through the code under test's own notion of numbers.
    const hex = (xs: number[]) => xs.map((x) => Buffer.from(new Float64Array([x]).buffer).toString('hex'));
    const read = 'import sys\nvalues = json.load(sys.stdin)\nunpack = lambda h: struct.unpack("<d", bytes.fromhex(h))[0]\n';
    const texts = (code: string, input: unknown) => JSON.parse(python(`${read}print(json.dumps(${code}))`, input)) as string[];
    expect(texts('[js_number(unpack(h)) for h in values["d"]]', { d: hex(values) })).toEqual(values.map(String));
    expect(texts('[js_number(shortest_float32(unpack(h))) for h in values["f"]]', { f: hex(floats) })).toEqual(
      floats.map((f) => String(shortestFloat32(f))),
    );
    expect(python('print(" ".join(js_number(float(t)) for t in ("nan", "inf", "-inf")))', null)).toBe('NaN Infinity -Infinity');
  });

  it('write JSON as JSON.stringify does: integer keys first, escapes, compact', () => {
    const value = { b: 1, '10': [1.5, null, 'a\u0001"\\\u007f é'], '2': { x: true, '01': 1e21 } };
    expect(python('import sys\nprint(js_json_text(json.load(sys.stdin)))', value)).toBe(JSON.stringify(value));
  });
});
