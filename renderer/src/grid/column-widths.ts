// Column widths: a first guess from the header and the first rows, then whatever the user drags them to.
import { useCallback, useEffect, useState } from 'react';
import type { JsonValue, PreviewColumn } from '../../../shared/api.js';
import { cellText } from '../format.js';

const CHAR_PX = 7.5;
const MIN = 60;
const MAX_GUESS = 360;
const SAMPLE_ROWS = 50;

function guessWidths(columns: PreviewColumn[], rows: JsonValue[][]): number[] {
  return columns.map((col, c) => {
    // The header shows the name, the type and a sort mark.
    let chars = col.name.length + (typeof col.type === 'string' ? col.type.length : col.type.type.length) + 3;
    for (const row of rows.slice(0, SAMPLE_ROWS)) chars = Math.max(chars, cellText(row[c]).length);
    return Math.min(MAX_GUESS, Math.max(MIN, Math.round(chars * CHAR_PX + 24)));
  });
}

export function useColumnWidths(columns: PreviewColumn[], rows: JsonValue[][]) {
  const [widths, setWidths] = useState<number[]>(() => guessWidths(columns, rows));
  useEffect(() => setWidths(guessWidths(columns, rows)), [columns, rows]);
  const resize = useCallback((column: number, width: number) => {
    setWidths((current) => current.map((w, i) => (i === column ? Math.max(MIN, Math.round(width)) : w)));
  }, []);
  return { widths, resize };
}
