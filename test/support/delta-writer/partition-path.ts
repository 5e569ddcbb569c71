// Where a data file of a partition lives: Hive-style `col=value/` folders on disk, and the URI form the log stores
// in add.path (PROTOCOL.md: paths in actions are URIs, so a literal '%' in a folder name is written as %25).

/** Hive's marker folder value for a null partition value. */
export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

// The characters Hive escapes in partition folder names: path syntax, glob and URI specials, and control characters.
const ESCAPED = new Set(['"', '#', '%', "'", '*', '/', ':', '=', '?', '\\', '\u007f', '{', '[', ']', '^']);

function escapeSegment(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += code < 0x20 || ESCAPED.has(ch) ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : ch;
  }
  return out;
}

/** The relative folder for these partition values, in partition column order; '' when unpartitioned. */
export function partitionFolder(columns: string[], values: Record<string, string | null>): string {
  return columns
    .map((c) => {
      const v = values[c];
      return `${escapeSegment(c)}=${v == null || v === '' ? NULL_PARTITION : escapeSegment(v)}`;
    })
    .join('/');
}

/** A path relative to the table root (with '/' separators) as add.path holds it. */
export function toLogPath(relativePath: string): string {
  return encodeURI(relativePath);
}
