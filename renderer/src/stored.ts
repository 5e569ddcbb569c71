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
