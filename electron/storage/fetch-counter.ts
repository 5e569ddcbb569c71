// Bytes and requests fetched from storage by this thread, for the benchmark's "bytes fetched" figures.
let requests = 0;
let bytes = 0;

export function countFetch(size: number): void {
  requests++;
  bytes += size;
}

export function fetchCounts(): { requests: number; bytes: number } {
  return { requests, bytes };
}
