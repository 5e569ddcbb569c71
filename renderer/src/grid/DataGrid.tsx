// A virtualized, keyboard-driven data grid: only the rows in view (plus a margin) exist in the DOM, so tens of
// thousands of rows scroll as smoothly as ten. Focus stays on the grid; the active cell is announced through
// aria-activedescendant, which keeps working when the cell's row scrolls out and is recycled.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import type { JsonValue, PreviewColumn } from '../../../shared/api.js';
import { copyText } from '../clipboard.js';
import { cellText, formatCount } from '../format.js';
import { useColumnWidths } from './column-widths.js';
import { nextSort, sortedOrder } from './sorting.js';
import type { SortState } from './sorting.js';

const ROW_H = 28;
const HEAD_H = 34;
const OVERSCAN = 10;
const NUMERIC = /^(byte|short|integer|long|float|double|decimal)/;

interface Props {
  label: string;
  columns: PreviewColumn[];
  rows: JsonValue[][];
}

/** row -1 is the header row. */
interface Cell {
  row: number;
  column: number;
}

function shortType(col: PreviewColumn): string {
  return typeof col.type === 'string' ? col.type : col.type.type;
}

function copiedText(value: JsonValue): string {
  return value === null ? '' : cellText(value);
}

export function DataGrid({ label, columns, rows }: Props) {
  const idBase = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const [sort, setSort] = useState<SortState | null>(null);
  const [active, setActive] = useState<Cell>({ row: 0, column: 0 });
  const [copied, setCopied] = useState<string | null>(null);
  const { widths, resize } = useColumnWidths(columns, rows);

  useEffect(() => {
    setSort(null);
    setActive({ row: 0, column: 0 });
  }, [columns, rows]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight));
    observer.observe(el);
    setViewHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  const order = useMemo(() => sortedOrder(rows, sort), [rows, sort]);
  const template = widths.map((w) => `${w}px`).join(' ');
  const totalWidth = widths.reduce((a, b) => a + b, 0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewHeight) / ROW_H) + OVERSCAN);

  const cellId = (cell: Cell) => `${idBase}-${cell.row}-${cell.column}`;
  const rowAt = (viewRow: number) => rows[order[viewRow]];

  const scrollIntoView = (cell: Cell) => {
    const el = scroller.current;
    if (!el) return;
    if (cell.row >= 0) {
      const top = cell.row * ROW_H;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_H + HEAD_H > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_H + HEAD_H - el.clientHeight;
    }
    const left = widths.slice(0, cell.column).reduce((a, b) => a + b, 0);
    const right = left + widths[cell.column];
    if (left < el.scrollLeft) el.scrollLeft = left;
    else if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth;
  };

  const moveTo = (cell: Cell) => {
    const next = {
      row: Math.max(-1, Math.min(rows.length - 1, cell.row)),
      column: Math.max(0, Math.min(columns.length - 1, cell.column)),
    };
    setActive(next);
    scrollIntoView(next);
  };

  const copy = async (what: 'cell' | 'row') => {
    if (active.row < 0) return;
    const row = rowAt(active.row);
    const text = what === 'cell' ? copiedText(row[active.column]) : row.map(copiedText).join('\t');
    try {
      await copyText(text);
      setCopied(what === 'cell' ? 'Cell copied' : 'Row copied');
    } catch {
      setCopied('The clipboard refused the copy; select the text and copy it by hand.');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((viewHeight - HEAD_H) / ROW_H) - 1);
    const ctrl = event.ctrlKey || event.metaKey;
    if (ctrl && event.key.toLowerCase() === 'c') {
      event.preventDefault();
      void copy(event.shiftKey ? 'row' : 'cell');
      return;
    }
    if (active.row === -1 && event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      resize(active.column, widths[active.column] + (event.key === 'ArrowRight' ? 16 : -16));
      return;
    }
    const moves: Record<string, Cell> = {
      ArrowUp: { row: active.row - 1, column: active.column },
      ArrowDown: { row: active.row + 1, column: active.column },
      ArrowLeft: { row: active.row, column: active.column - 1 },
      ArrowRight: { row: active.row, column: active.column + 1 },
      PageUp: { row: active.row - page, column: active.column },
      PageDown: { row: active.row + page, column: active.column },
      Home: ctrl ? { row: 0, column: 0 } : { row: active.row, column: 0 },
      End: ctrl ? { row: rows.length - 1, column: columns.length - 1 } : { row: active.row, column: columns.length - 1 },
    };
    if (event.key in moves) {
      event.preventDefault();
      moveTo(moves[event.key]);
    } else if (active.row === -1 && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      setSort(nextSort(sort, active.column));
    }
  };

  const startResize = (column: number) => (event: ReactPointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget;
    const startX = event.clientX;
    const startWidth = widths[column];
    handle.setPointerCapture(event.pointerId);
    const onMove = (e: PointerEvent) => resize(column, startWidth + e.clientX - startX);
    const onUp = () => {
      handle.removeEventListener('pointermove', onMove);
      handle.removeEventListener('pointerup', onUp);
    };
    handle.addEventListener('pointermove', onMove);
    handle.addEventListener('pointerup', onUp);
  };

  const activeRow = active.row >= 0 && active.row < rows.length ? rowAt(active.row) : null;
  return (
    <div className="grid-wrap">
      <div className="grid-toolbar">
        <span className="muted small" aria-live="polite">
          {activeRow
            ? `Row ${formatCount(active.row + 1)} of ${formatCount(rows.length)}, ${columns[active.column]?.name ?? ''}`
            : `${formatCount(rows.length)} rows`}
          {copied && ` · ${copied}`}
        </span>
        <span className="spacer" />
        <button type="button" className="button small" disabled={!activeRow} onClick={() => void copy('cell')}>
          Copy cell
        </button>
        <button type="button" className="button small" disabled={!activeRow} onClick={() => void copy('row')}>
          Copy row
        </button>
      </div>
      <div
        ref={scroller}
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        aria-activedescendant={active.row < rows.length && active.column < columns.length ? cellId(active) : undefined}
        tabIndex={0}
        className="grid"
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={onKeyDown}
        onFocus={() => setCopied(null)}
      >
        <div role="rowgroup" className="grid-head" style={{ width: `${totalWidth}px` }}>
          <div role="row" aria-rowindex={1} className="grid-row" style={{ gridTemplateColumns: template, height: `${HEAD_H}px` }}>
            {columns.map((col, c) => {
              const sorted = sort?.column === c ? sort.direction : undefined;
              const isActive = active.row === -1 && active.column === c;
              return (
                <div
                  key={col.name}
                  id={cellId({ row: -1, column: c })}
                  role="columnheader"
                  aria-colindex={c + 1}
                  aria-sort={sorted ?? 'none'}
                  className={`grid-header${isActive ? ' active' : ''}${NUMERIC.test(shortType(col)) ? ' numeric' : ''}`}
                  title={`${col.name}: ${shortType(col)}${col.nullable ? '' : ', not null'} — click to sort`}
                  onClick={() => {
                    setActive({ row: -1, column: c });
                    setSort(nextSort(sort, c));
                  }}
                >
                  <span className="header-name">{col.name}</span>
                  <span className="header-type">{shortType(col)}</span>
                  <span className="sort-mark" aria-hidden="true">
                    {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                  </span>
                  <span className="resize-handle" aria-hidden="true" onPointerDown={startResize(c)} onClick={(e) => e.stopPropagation()} />
                </div>
              );
            })}
          </div>
        </div>
        <div role="rowgroup" className="grid-body" style={{ height: `${rows.length * ROW_H}px`, width: `${totalWidth}px` }}>
          {Array.from({ length: last - first }, (_, k) => {
            const r = first + k;
            const row = rowAt(r);
            return (
              <div
                key={r}
                role="row"
                aria-rowindex={r + 2}
                className={r % 2 ? 'grid-row odd' : 'grid-row'}
                style={{ gridTemplateColumns: template, transform: `translateY(${r * ROW_H}px)`, height: `${ROW_H}px` }}
              >
                {row.map((value, c) => {
                  const isActive = active.row === r && active.column === c;
                  const classes = ['grid-cell'];
                  if (value === null) classes.push('null');
                  else if (typeof value === 'object') classes.push('nested');
                  if (NUMERIC.test(shortType(columns[c]))) classes.push('numeric');
                  if (isActive) classes.push('active');
                  return (
                    <div
                      key={c}
                      id={cellId({ row: r, column: c })}
                      role="gridcell"
                      aria-colindex={c + 1}
                      aria-selected={isActive}
                      className={classes.join(' ')}
                      onMouseDown={() => setActive({ row: r, column: c })}
                    >
                      {cellText(value)}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
