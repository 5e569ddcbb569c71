// What the network-fault tests of the PostgreSQL and MySQL sinks share: a seeded random generator, the span of a clean
// export's replies (where faults are placed), and one export through the fault proxy (test/support/fault-proxy.ts)
// with the rows it landed and how it failed.
import { expect } from 'vitest';
import type { BatchSink } from '../../../electron/sinks/sink.js';
import { DeltaportError } from '../../../shared/errors.js';
import { startFaultProxy, type Fault } from '../../support/fault-proxy.js';
import { drive, type pgSpec, type TestStream } from './sink-harness.js';

export type SinkOptions = Parameters<typeof pgSpec>[1];

export interface Census {
  n: number;
  distinct: number;
}

/** The connection settings of a faulted export: the proxy's URL, and the timeouts a test sets. */
export interface ProxyConnection {
  url: string;
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface FaultTarget {
  /** The test database's URL (known once its set-up ran). */
  url(): string;
  sink(connection: ProxyConnection, options: SinkOptions): BatchSink;
  /** The rows of a table and their distinct ids; none for a table that does not exist. */
  census(table: string): Promise<Census>;
  rows: number;
  stream: TestStream;
}

/** A small deterministic generator, so that a failing run can be told by its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

export function faultRuns(target: FaultTarget) {
  return {
    /** Server-to-client bytes of a whole clean export with these options: faults fall anywhere in that span. */
    async cleanSpan(table: string, options: SinkOptions): Promise<number> {
      const clean = await startFaultProxy(target.url());
      await drive(target.sink({ url: clean.url }, { ...options, table }), target.stream);
      await clean.close();
      expect(await target.census(table)).toEqual({ n: target.rows, distinct: target.rows });
      return clean.bytesToClient.reduce((a, b) => a + b, 0);
    },

    /** One export through a proxy with `faults` (by connection); the rows landed, and the failure if it failed. */
    async faultedRun(table: string, faults: (Fault | null)[], options: SinkOptions, connection: Omit<ProxyConnection, 'url'> = {}) {
      const proxy = await startFaultProxy(target.url(), (n) => faults[n] ?? null);
      let failure: string | null = null;
      try {
        await drive(target.sink({ url: proxy.url, ...connection }, { ...options, table }), target.stream);
      } catch (err) {
        expect(err).toBeInstanceOf(DeltaportError);
        failure = (err as Error).message;
        expect(failure).not.toContain('\n');
      } finally {
        await proxy.close();
      }
      return { failure, landed: await target.census(table), struck: proxy.faults };
    },
  };
}
