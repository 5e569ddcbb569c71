// How numbers, sizes, times and cell values read on screen.
import type { JsonValue } from '../../shared/api.js';
import { isCatalogName, parseCatalogName } from '../../shared/catalog-name.js';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
}

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** "1 column", "2 columns": the count and its noun, plural unless one. */
export function counted(n: number, noun: string): string {
  return `${formatCount(n)} ${n === 1 ? noun : `${noun}s`}`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Text of a grid cell; null is shown apart (the grid styles it), nested values as compact JSON. */
export function cellText(value: JsonValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const INTEGER = /^-?\d+$/;

/** Orders cells for sorting: nulls last, numbers (and long integers sent as strings) by value, the rest as text. */
export function compareCells(a: JsonValue, b: JsonValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string' && INTEGER.test(a) && INTEGER.test(b)) {
    const diff = BigInt(a) - BigInt(b);
    return diff === 0n ? 0 : diff < 0n ? -1 : 1;
  }
  return cellText(a).localeCompare(cellText(b));
}

/** Last segment of a folder path, Windows or POSIX: a table's default name. */
export function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** A table's name in an export's target, as the CLI names it: a catalog table's own (orders of
 * uc://work/main.sales.orders), else its folder's. */
export function targetTableName(path: string): string {
  const name = isCatalogName(path) ? parseCatalogName(path) : null;
  return name ? name.table : folderName(path);
}
