import { describe, expect, it } from 'vitest';
import type { SinkSpec } from '../../../shared/sink-spec.js';
import { redactSink, splitPassword, withPassword } from '../../../electron/state/secrets.js';

const base = { table: 't', mode: 'append', execution: { batchSize: 10, batchIntervalMs: 0, maxRetries: 0 }, exactlyOnce: false } as const;
const pg = (connection: Extract<SinkSpec, { kind: 'postgres' }>['connection']): SinkSpec => ({ kind: 'postgres', connection, ...base });

describe('sink passwords', () => {
  it('splits a password out of the field or the URL (percent-decoded)', () => {
    expect(splitPassword(pg({ host: 'h', user: 'u', password: 's3cret' }))).toEqual({
      sink: pg({ host: 'h', user: 'u' }),
      password: 's3cret',
    });
    expect(splitPassword(pg({ url: 'postgres://u:p%40ss@h:5432/db?sslmode=require' }))).toEqual({
      sink: pg({ url: 'postgres://u@h:5432/db?sslmode=require' }),
      password: 'p@ss',
    });
    expect(redactSink(pg({ url: 'postgres://u:x@h/db', password: 'y' }))).toEqual(pg({ url: 'postgres://u@h/db' }));
    const file: SinkSpec = { kind: 'csv', path: '/o.csv' };
    expect(splitPassword(file)).toEqual({ sink: file, password: '' });
  });

  it('never keeps a secret from a URL it cannot parse', () => {
    expect(JSON.stringify(redactSink(pg({ url: 'postgres://u:topsecret@[bad/db' })))).not.toContain('topsecret');
  });

  it('fills a password only where none is given', () => {
    expect(withPassword(pg({ host: 'h' }), 'saved')).toEqual(pg({ host: 'h', password: 'saved' }));
    expect(withPassword(pg({ host: 'h', password: 'typed' }), 'saved')).toEqual(pg({ host: 'h', password: 'typed' }));
    expect(withPassword(pg({ url: 'postgres://u:typed@h/db' }), 'saved')).toEqual(pg({ url: 'postgres://u:typed@h/db' }));
    expect(withPassword({ kind: 'jsonl', path: '/x' }, 'saved')).toEqual({ kind: 'jsonl', path: '/x' });
  });
});
