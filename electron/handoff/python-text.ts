// Values written into the generated Python source. A JSON string is also a valid Python string literal (the same
// escapes: \" \\ \n \uXXXX), so names, paths and SQL keep every character exactly.

export function pyString(text: string): string {
  return JSON.stringify(text);
}

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

export function pyValue(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) {
    const items = value.map(pyValue);
    // Short lists stay on one line; long ones (statements) get one item per line.
    const line = `[${items.join(', ')}]`;
    return line.length <= 100 ? line : `[\n${items.map((v) => `    ${v},\n`).join('')}]`;
  }
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{${entries.map(([k, v]) => `${pyString(k)}: ${pyValue(v)}`).join(', ')}}`;
}

/** A comment block: each line prefixed with '# ' (an empty line stays a bare '#'). */
export function pyComment(lines: string[]): string {
  return lines.map((line) => (line === '' ? '#' : `# ${line}`)).join('\n');
}
