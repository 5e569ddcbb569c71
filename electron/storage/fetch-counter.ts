// Requests made to storage by this thread, and the bytes they fetched, for the benchmark's object-store figures.
let reads = 0;
let lists = 0;
let bytes = 0;

export function countFetch(size: number): void {
  reads++;
  bytes += size;
}

/** One listing request (a page of up to a thousand names on S3). */
export function countList(): void {
  lists++;
}

export function fetchCounts(): { reads: number; lists: number; bytes: number } {
  return { reads, lists, bytes };
}
