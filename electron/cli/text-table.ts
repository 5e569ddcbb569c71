// Aligned columns for a terminal: a header, a rule, then the rows. Long cells are cut with an ellipsis; nulls are
// shown as NULL (dimmed on a terminal) so that they cannot be mistaken for text.

export interface TextColumn {
  title: string;
  alignRight?: boolean;
}

const MAX_CELL = 48;
const NULL_TEXT = 'NULL';

export function renderTable(columns: TextColumn[], rows: (string | null)[][], color: boolean): string {
  const cells = rows.map((row) => row.map((cell) => (cell === null ? null : cut(cell))));
  const widths = columns.map((c, i) =>
    Math.max(width(c.title), ...cells.map((row) => (row[i] === null ? NULL_TEXT.length : width(row[i]!)))),
  );
  const line = (texts: string[], shown: string[]) =>
    texts
      .map((text, i) => {
        const pad = ' '.repeat(widths[i] - width(text));
        return columns[i].alignRight ? pad + shown[i] : shown[i] + pad;
      })
      .join('  ')
      .trimEnd();
  const out = [
    line(
      columns.map((c) => c.title),
      columns.map((c) => c.title),
    ),
  ];
  out.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) {
    const texts = row.map((cell) => cell ?? NULL_TEXT);
    const shown = row.map((cell) => (cell === null && color ? `\x1b[2m${NULL_TEXT}\x1b[22m` : (cell ?? NULL_TEXT)));
    out.push(line(texts, shown));
  }
  return `${out.join('\n')}\n`;
}

function cut(text: string): string {
  const chars = Array.from(text);
  return chars.length <= MAX_CELL ? text : `${chars.slice(0, MAX_CELL - 1).join('')}…`;
}

// Width in terminal columns, counting code points (wide CJK characters are rare in table data).
function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
