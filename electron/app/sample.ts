// The built-in sample: a small Delta table with a few versions, written into the data folder on first run so that a
// new user has something to open at once (writeSampleTable keeps an existing one).
import { writeSampleTable } from '../delta-writer/sample-table.js';

/** Answers the sample's path; the first call writes it when missing, later calls share that result. */
export function sampleTableProvider(dataDir: string): () => Promise<string> {
  let pending: Promise<string> | null = null;
  return () => {
    if (!pending) {
      pending = writeSampleTable(dataDir);
      pending.catch(() => (pending = null));
    }
    return pending;
  };
}
