// Light and dark themes: the system's choice until the user picks one, which is then remembered.
import { useEffect, useState } from 'react';
import { storedValue, storeValue } from './stored.js';

export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'deltaport.theme';

function initialTheme(): Theme {
  const saved = storedValue(STORAGE_KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const toggle = () =>
    setTheme((current) => {
      const next = current === 'dark' ? 'light' : 'dark';
      storeValue(STORAGE_KEY, next);
      return next;
    });
  return [theme, toggle];
}
