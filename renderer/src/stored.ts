// Small choices the window remembers across runs (theme, Jobs dock, cleared jobs), in localStorage; a storage that
// refuses (private mode, full) only means the choice is not remembered.
export function storedValue(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function storeValue(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not remembered; the choice still holds for this run.
  }
}

/** A stored JSON object; empty when there is none or it cannot be read (a value some other version wrote, or
 * hand-edited): the window starts over rather than fail. */
export function storedRecord(key: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(storedValue(key) ?? '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
