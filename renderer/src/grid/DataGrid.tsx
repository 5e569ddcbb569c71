// A virtualized, keyboard-driven data grid: only the rows and columns in view (plus a margin) exist in the DOM, so
// a hundred thousand rows of a wide table scroll as smoothly as ten. Focus stays on the grid; the active cell is
// announced through aria-activedescendant, which keeps working when its row scrolls out and is recycled. Row numbers,
// a selected range copied as TSV, CSV or JSON, a cell inspector and draggable column widths follow the habits of
// DBeaver and Tad.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent as ReactPointerEvent } from 'react';
import type { JsonValue, PreviewColumn } from '../../../shared/api.js';
import { copyText } from '../clipboard.js';
import { cellText, counted, formatCount } from '../format.js';
import { hexView, isNumericColumn, rangeStats, typeName, valueCondition } from './cell-actions.js';
import { useColumnWidths } from './column-widths.js';
import { COPY_FORMATS, formatRange } from './copy-format.js';
import type { CopyFormat } from './copy-format.js';
import { nextSort, sortedOrder } from './sorting.js';
import type { SortState } from './sorting.js';

const ROW_H = 28;
const HEAD_H = 34;
const OVERSCAN_ROWS = 10;
const OVERSCAN_PX = 400;

interface Props {
  label: string;
  columns: PreviewColumn[];
  rows: JsonValue[][];
  /** Who orders the rows on a header click: without it the grid sorts the rows it holds; with it (rows that are one
   * page of more) the owner reads them again in that order and the grid shows them as they come. */
  sorting?: { sort: SortState | null; onSort(next: SortState | null): void };
  /** Called when the last row scrolls into view: the owner may add the next page. */
  onEndReached?: () => void;
  /** Adds a condition matching the active cell's value to the owner's filter; without it the grid offers none. */
  onFilterByValue?: (condition: string) => void;
}

/** row -1 is the header row. Rows count in the displayed (sorted) order. */
interface Cell {
  row: number;
  column: number;
}

interface Bounds {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function boundsOf(a: Cell, b: Cell): Bounds {
  return {
    top: Math.max(0, Math.min(a.row, b.row)),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.column, b.column),
    right: Math.max(a.column, b.column),
  };
}

/** The inspector's text: strings as they are, nested values (struct, array, map, variant) pretty-printed. */
function inspected(value: JsonValue): string {
  if (value === null) return 'NULL';
  return typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
}

/** Width of the row-number column for this many rows. */
function rowNumberWidth(count: number): number {
  return Math.max(44, String(count).length * 8 + 20);
}

export function DataGrid({ label, columns, rows, sorting, onEndReached, onFilterByValue }: Props) {
  const idBase = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, left: 0 });
  const [view, setView] = useState({ width: 1000, height: 400 });
  const [localSort, setLocalSort] = useState<SortState | null>(null);
  const sort = sorting ? sorting.sort : localSort;
  const setSort = sorting ? sorting.onSort : setLocalSort;
  const [active, setActive] = useState<Cell>({ row: 0, column: 0 });
  const [anchor, setAnchor] = useState<Cell>({ row: 0, column: 0 });
  const [dragging, setDragging] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [format, setFormat] = useState<CopyFormat>('tsv');
  const [withHeaders, setWithHeaders] = useState(false);
  const [inspecting, setInspecting] = useState(false);
  const { widths, resize, reset, resized } = useColumnWidths(columns, rows);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // The observer reports the size at once, then on every change.
    const observer = new ResizeObserver(() => setView({ width: el.clientWidth, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const ownSort = sorting ? null : localSort;
  const order = useMemo(() => sortedOrder(rows, ownSort), [rows, ownSort]);
  const lefts = useMemo(() => {
    const out: number[] = [];
    let x = 0;
    for (const w of widths) {
      out.push(x);
      x += w;
    }
    return out;
  }, [widths]);
  const numberW = rowNumberWidth(rows.length);
  const totalWidth = numberW + widths.reduce((a, b) => a + b, 0);
  const firstRow = Math.max(0, Math.floor(scroll.top / ROW_H) - OVERSCAN_ROWS);
  const lastRow = Math.min(rows.length, Math.ceil((scroll.top + view.height) / ROW_H) + OVERSCAN_ROWS);
  // The next page is for a user who scrolled to the end: rows that all fit on screen are what the row limit asked
  // for, and stay so.
  const endInView = rows.length > 0 && scroll.top > 0 && Math.ceil((scroll.top + view.height) / ROW_H) >= rows.length;
  useEffect(() => {
    if (endInView) onEndReached?.();
  }, [endInView, onEndReached]);
  const visibleColumns: number[] = [];
  for (let c = 0; c < columns.length; c++) {
    const left = numberW + lefts[c];
    if (left + widths[c] >= scroll.left - OVERSCAN_PX && left <= scroll.left + view.width + OVERSCAN_PX) visibleColumns.push(c);
  }

  const range = boundsOf(anchor, active);
  const ranged = active.row >= 0 && (range.bottom > range.top || range.right > range.left);
  const inRange = (r: number, c: number) => active.row >= 0 && r >= range.top && r <= range.bottom && c >= range.left && c <= range.right;
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
    // The row numbers stay in view on the left, so a cell counts as visible only to their right.
    const left = numberW + lefts[cell.column];
    const right = left + widths[cell.column];
    if (left - numberW < el.scrollLeft) el.scrollLeft = left - numberW;
    else if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth;
  };

  const clamp = (cell: Cell): Cell => ({
    row: Math.max(-1, Math.min(rows.length - 1, cell.row)),
    column: Math.max(0, Math.min(columns.length - 1, cell.column)),
  });

  /** Moves the active cell; with `extend` the range's anchor stays where it was. */
  const moveTo = (cell: Cell, extend = false) => {
    const next = clamp(cell);
    setActive(next);
    if (!extend || next.row < 0) setAnchor(next);
    scrollIntoView(next);
  };

  /** Count, sum, min and max of the range's numeric cells (a range of a hundred thousand rows is summed once). */
  function statsOf(bounds: Bounds) {
    const values: JsonValue[] = [];
    for (let c = bounds.left; c <= bounds.right; c++) {
      if (!isNumericColumn(columns[c])) continue;
      for (let r = bounds.top; r <= bounds.bottom; r++) values.push(rowAt(r)[c]);
    }
    return rangeStats(values);
  }

  const copy = async () => {
    if (active.row < 0) return;
    const headers = columns.slice(range.left, range.right + 1).map((c) => c.name);
    const picked: JsonValue[][] = [];
    for (let r = range.top; r <= range.bottom; r++) picked.push(rowAt(r).slice(range.left, range.right + 1));
    const text = formatRange(headers, picked, format, withHeaders);
    const size = `${formatCount(picked.length)} × ${headers.length}`;
    try {
      await copyText(text);
      setStatus(
        picked.length === 1 && headers.length === 1
          ? `Cell copied as ${format.toUpperCase()}`
          : `Copied ${size} cells as ${format.toUpperCase()}`,
      );
    } catch {
      setStatus('The clipboard refused the copy; select the text and copy it by hand.');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((view.height - HEAD_H) / ROW_H) - 1);
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (ctrl && key === 'c') {
      event.preventDefault();
      void copy();
      return;
    }
    if (ctrl && key === 'a') {
      event.preventDefault();
      setAnchor({ row: 0, column: 0 });
      setActive({ row: rows.length - 1, column: columns.length - 1 });
      return;
    }
    if (active.row === -1 && event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      resize(active.column, widths[active.column] + (event.key === 'ArrowRight' ? 16 : -16));
      return;
    }
    if (event.key === 'Escape') {
      setInspecting(false);
      setAnchor(active);
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
      moveTo(moves[event.key], event.shiftKey);
    } else if (active.row === -1 && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      setSort(nextSort(sort, active.column));
    } else if (active.row >= 0 && event.key === 'Enter') {
      event.preventDefault();
      setInspecting(true);
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

  const pointAt = (cell: Cell, shift: boolean) => {
    setActive(cell);
    if (!shift) setAnchor(cell);
  };

  const activeRow = active.row >= 0 && active.row < rows.length ? rowAt(active.row) : null;
  const activeColumn = columns[active.column];
  const stats = ranged ? statsOf(range) : null;
  const condition = activeRow && activeColumn ? valueCondition(activeColumn, activeRow[active.column]) : null;
  const activeValue = activeRow ? activeRow[active.column] : null;
  return (
    <div className="grid-wrap">
      <div className="grid-toolbar">
        <span className="muted small grid-position" aria-live="polite">
          {activeRow
            ? `Row ${formatCount(active.row + 1)} of ${formatCount(rows.length)}, ${activeColumn?.name ?? ''}` +
              (ranged ? ` · ${formatCount(range.bottom - range.top + 1)} × ${range.right - range.left + 1} selected` : '') +
              (stats
                ? ` · count ${formatCount(stats.count)}, sum ${/^-?\d+$/.test(stats.sum) ? BigInt(stats.sum).toLocaleString('en-US') : cellText(Number(stats.sum))}, min ${cellText(stats.min)}, max ${cellText(stats.max)}`
                : '')
            : counted(rows.length, 'row')}
          {status && ` · ${status}`}
        </span>
        <span className="spacer" />
        <label className="check small">
          <input type="checkbox" checked={withHeaders} onChange={(e) => setWithHeaders(e.target.checked)} />
          <span>Headers</span>
        </label>
        <select className="small-select" aria-label="Copy format" value={format} onChange={(e) => setFormat(e.target.value as CopyFormat)}>
          {COPY_FORMATS.map((f) => (
            <option key={f.format} value={f.format}>
              {f.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button small"
          disabled={!activeRow}
          onClick={() => void copy()}
          title="Copy the selection (Ctrl+C)"
        >
          Copy
        </button>
        {onFilterByValue && (
          <button
            type="button"
            className="button small"
            disabled={condition === null}
            onClick={() => condition && onFilterByValue(condition)}
            title={condition ? `Add ${condition} to the filter` : 'Choose a cell of a column the filter can compare'}
          >
            Filter by value
          </button>
        )}
        <button
          type="button"
          className="button small"
          disabled={!activeRow}
          aria-pressed={inspecting}
          onClick={() => setInspecting(!inspecting)}
          title="Show the whole value (Enter)"
        >
          Inspect
        </button>
        <button
          type="button"
          className="button small"
          disabled={!resized}
          onClick={() => reset()}
          title="Back to the widths the grid chose"
        >
          Reset widths
        </button>
      </div>
      <div className="grid-main">
        <div
          ref={scroller}
          role="grid"
          aria-label={label}
          aria-rowcount={rows.length + 1}
          aria-colcount={columns.length + 1}
          aria-multiselectable="true"
          aria-activedescendant={active.row < rows.length && active.column < columns.length ? cellId(active) : undefined}
          tabIndex={0}
          className={dragging ? 'grid selecting' : 'grid'}
          onScroll={(e) => setScroll({ top: e.currentTarget.scrollTop, left: e.currentTarget.scrollLeft })}
          onKeyDown={onKeyDown}
          onFocus={() => setStatus(null)}
          onMouseUp={() => setDragging(false)}
          onMouseLeave={() => setDragging(false)}
        >
          <div role="rowgroup" className="grid-head" style={{ width: `${totalWidth}px` }}>
            <div role="row" aria-rowindex={1} className="grid-row" style={{ height: `${HEAD_H}px`, width: `${totalWidth}px` }}>
              <div role="columnheader" aria-colindex={1} className="grid-corner" style={{ width: `${numberW}px` }}>
                <span className="offscreen">Row number</span>#
              </div>
              {visibleColumns.map((c) => {
                const col = columns[c];
                const sorted = sort?.column === c ? sort.direction : undefined;
                const isActive = active.row === -1 && active.column === c;
                return (
                  // Keys reach the header through the grid (aria-activedescendant): Enter or Space sorts it.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                  <div
                    key={col.name}
                    id={cellId({ row: -1, column: c })}
                    role="columnheader"
                    tabIndex={-1}
                    aria-colindex={c + 2}
                    aria-sort={sorted ?? 'none'}
                    className={`grid-header${isActive ? ' active' : ''}${isNumericColumn(col) ? ' numeric' : ''}`}
                    style={{ left: `${numberW + lefts[c]}px`, width: `${widths[c]}px` }}
                    title={`${col.name}: ${typeName(col)}${col.nullable ? '' : ', not null'} — click to sort ${sorting ? 'every row' : 'the rows shown'}`}
                    onClick={() => {
                      moveTo({ row: -1, column: c });
                      setSort(nextSort(sort, c));
                    }}
                  >
                    <span className="header-name">{col.name}</span>
                    <span className="header-type">{typeName(col)}</span>
                    <span className="sort-mark" aria-hidden="true">
                      {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                    </span>
                    <span
                      className="resize-handle"
                      aria-hidden="true"
                      title="Drag to resize; double-click to reset"
                      onPointerDown={startResize(c)}
                      onClick={(e) => e.stopPropagation()}
                      onDoubleClick={(e) => {
                        e.stopPropagation();
                        reset(c);
                      }}
                    />
                  </div>
                );
              })}
            </div>
          </div>
          <div role="rowgroup" className="grid-body" style={{ height: `${rows.length * ROW_H}px`, width: `${totalWidth}px` }}>
            {Array.from({ length: lastRow - firstRow }, (_, k) => {
              const r = firstRow + k;
              const row = rowAt(r);
              const rowSelected = active.row >= 0 && r >= range.top && r <= range.bottom;
              return (
                <div
                  key={r}
                  role="row"
                  aria-rowindex={r + 2}
                  className={`grid-row${r % 2 ? ' odd' : ''}`}
                  style={{ transform: `translateY(${r * ROW_H}px)`, height: `${ROW_H}px`, width: `${totalWidth}px` }}
                >
                  <div
                    role="rowheader"
                    tabIndex={-1}
                    aria-colindex={1}
                    className={rowSelected ? 'grid-rownum selected' : 'grid-rownum'}
                    style={{ width: `${numberW}px` }}
                    onMouseDown={(e) => {
                      setAnchor({ row: e.shiftKey ? anchor.row : r, column: 0 });
                      setActive({ row: r, column: columns.length - 1 });
                    }}
                  >
                    {r + 1}
                  </div>
                  {visibleColumns.map((c) => {
                    const value = row[c];
                    const isActive = active.row === r && active.column === c;
                    const classes = ['grid-cell'];
                    if (value === null) classes.push('null');
                    else if (typeof value === 'object') classes.push('nested');
                    if (isNumericColumn(columns[c])) classes.push('numeric');
                    if (inRange(r, c)) classes.push('selected');
                    if (isActive) classes.push('active');
                    return (
                      <div
                        key={c}
                        id={cellId({ row: r, column: c })}
                        role="gridcell"
                        tabIndex={-1}
                        aria-colindex={c + 2}
                        aria-selected={inRange(r, c)}
                        className={classes.join(' ')}
                        style={{ left: `${numberW + lefts[c]}px`, width: `${widths[c]}px` }}
                        onMouseDown={(e) => {
                          pointAt({ row: r, column: c }, e.shiftKey);
                          setDragging(true);
                        }}
                        onMouseEnter={(e) => {
                          if (dragging && e.buttons === 1) setActive({ row: r, column: c });
                        }}
                        onDoubleClick={() => setInspecting(true)}
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
        {inspecting && activeRow && activeColumn && (
          <aside className="inspector" aria-label="Cell inspector">
            <header className="inspector-head">
              <strong>{activeColumn.name}</strong>
              <span className="muted small mono">{typeName(activeColumn)}</span>
              <span className="spacer" />
              <button type="button" className="button small ghost" onClick={() => setInspecting(false)} aria-label="Close the inspector">
                ✕
              </button>
            </header>
            <p className="muted small">Row {formatCount(active.row + 1)}</p>
            <pre className={`code inspector-value${activeValue === null ? ' null' : ''}`}>{inspected(activeValue)}</pre>
            {typeName(activeColumn) === 'binary' && typeof activeValue === 'string' && (
              <>
                <p className="muted small">Hex</p>
                <pre className="code inspector-value" aria-label="Hex view">
                  {hexView(activeValue)}
                </pre>
              </>
            )}
          </aside>
        )}
      </div>
    </div>
  );
}
