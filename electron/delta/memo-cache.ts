// Loads memoized by key, the most recently used kept: the reader caches parsed log pieces and opened tables this way.

/** The pending or settled load for `key` from `cache`, starting it when absent; only the `limit` most recently used
 * stay. A failed load is forgotten, so that a retry loads again. */
export function memoized<K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>, limit = Infinity): Promise<V> {
  let pending = cache.get(key);
  if (pending) {
    // Map keeps insertion order: taking the key out and putting it back marks it most recently used.
    cache.delete(key);
  } else {
    pending = load();
    pending.catch(() => {
      if (cache.get(key) === pending) cache.delete(key);
    });
  }
  cache.set(key, pending);
  if (cache.size > limit) cache.delete(cache.keys().next().value as K);
  return pending;
}
