// SQL LIKE: % matches any run of characters, _ exactly one character (a code point), everything else itself, case
// sensitive; the ESCAPE character makes the next character literal.

export function likeMatcher(pattern: string, escape: string | null): (value: string) => boolean {
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (escape !== null && c === escape && i + 1 < chars.length) source += literal(chars[++i]);
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += literal(c);
  }
  const regex = new RegExp(`^${source}$`, 'su');
  return (value) => regex.test(value);
}

/** The fixed text every match starts with (up to the first wildcard); used to bound a column's values. */
export function likePrefix(pattern: string, escape: string | null): string {
  let prefix = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (escape !== null && c === escape && i + 1 < chars.length) prefix += chars[++i];
    else if (c === '%' || c === '_') break;
    else prefix += c;
  }
  return prefix;
}

function literal(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
