// Text typed for the open table (its filter, its order): it belongs to that table, so another table starts blank
// rather than with a condition naming columns it may not have.
import { useCallback, useState } from 'react';

export function useTableText(path: string | null): [string, (next: string | ((current: string) => string)) => void] {
  const [typed, setTyped] = useState<{ path: string | null; text: string }>({ path: null, text: '' });
  const text = typed.path === path ? typed.text : '';
  const setText = useCallback(
    (next: string | ((current: string) => string)) =>
      setTyped((current) => {
        const before = current.path === path ? current.text : '';
        return { path, text: typeof next === 'function' ? next(before) : next };
      }),
    [path],
  );
  return [text, setText];
}
