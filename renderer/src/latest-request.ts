// The one rule for reads the window makes again and again (a preview, a profile, a page): the newest request wins.
// An answer to a request made before it is dropped, whichever comes back first.
import { useCallback, useRef } from 'react';

/** Call `begin()` when a request starts; the function it returns says whether that request is still the newest. */
export function useLatestRequest(): () => () => boolean {
  const latest = useRef(0);
  return useCallback(() => {
    const id = ++latest.current;
    return () => latest.current === id;
  }, []);
}
