// Column widths: a first guess from the header and the first rows, then whatever the user drags them to. Dragged
// widths are kept by column name, so they survive a refresh that reads the same columns; a reset returns to the guess.
import { useCallback, useMemo, useState } from 'react';
import type { JsonValue, PreviewColumn } from '../../../shared/api.js';
import { cellText } from '../format.js';

const CHAR_PX = 7.5;
export const MIN_WIDTH = 60;
const MAX_GUESS = 360;
const SAMPLE_ROWS = 50;

function guessWidths(columns: PreviewColumn[], rows: JsonValue[][]): number[] {
  return columns.map((col, c) => {
    // The header shows the name, the type and a sort mark.
    let chars = col.name.length + (typeof col.type === 'string' ? col.type.length : col.type.type.length) + 3;
    for (const row of rows.slice(0, SAMPLE_ROWS)) chars = Math.max(chars, cellText(row[c]).length);
    return Math.min(MAX_GUESS, Math.max(MIN_WIDTH, Math.round(chars * CHAR_PX + 24)));
  });
}

export function useColumnWidths(columns: PreviewColumn[], rows: JsonValue[][]) {
  const guesses = useMemo(() => guessWidths(columns, rows), [columns, rows]);
  const [dragged, setDragged] = useState<ReadonlyMap<string, number>>(new Map());
  const widths = useMemo(() => columns.map((col, c) => dragged.get(col.name) ?? guesses[c]), [columns, dragged, guesses]);
  const resize = useCallback(
    (column: number, width: number) => {
      const name = columns[column]?.name;
      if (name !== undefined) setDragged((current) => new Map(current).set(name, Math.max(MIN_WIDTH, Math.round(width))));
    },
    [columns],
  );
  const reset = useCallback(
    (column?: number) => {
      setDragged((current) => {
        if (column === undefined) return new Map();
        const next = new Map(current);
        next.delete(columns[column]?.name ?? '');
        return next;
      });
    },
    [columns],
  );
  return { widths, resize, reset, resized: dragged.size > 0 };
}
