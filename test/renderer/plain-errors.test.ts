// The window's words for a host's error: no API call labels, Node's network codes said as what to check. The Node
// messages here are produced for real (a lookup of a name under .invalid, a connection to a closed port).
import net from 'node:net';
import { lookup } from 'node:dns/promises';
import { describe, expect, it } from 'vitest';
import { plainError, plainText } from '../../renderer/src/plain-errors.js';
import { freePort } from '../support/free-port.js';

describe('plainText', () => {
  it('drops the API call and field labels the host puts before each problem', () => {
    expect(plainText('planExport: changes cannot be exported exactly once')).toBe('Changes cannot be exported exactly once');
    expect(
      plainError({
        code: 'VALIDATION',
        message: 'planExport.sink.table: name the target table; planExport.sink: mode sql needs a statement',
        problems: ['planExport.sink.table: name the target table'],
      }),
    ).toEqual({
      code: 'VALIDATION',
      message: 'Name the target table; mode sql needs a statement',
      problems: ['Name the target table'],
    });
  });

  it("says a host name that is not found and a port nobody listens on in words, from Node's own errors", async () => {
    const missing = await lookup('no-such-host.invalid').catch((e: Error) => e.message);
    expect(missing).toMatch(/ENOTFOUND/);
    expect(plainText(`cannot connect to PostgreSQL at u@no-such-host.invalid:5432/: ${missing as string}`)).toBe(
      "Cannot connect to PostgreSQL at u@no-such-host.invalid:5432/: the host name 'no-such-host.invalid' was not found (check its spelling and your network)",
    );
    const port = await freePort();
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', (e) => resolve(e.message));
    });
    expect(refused).toMatch(/ECONNREFUSED/);
    expect(plainText(`cannot connect to PostgreSQL at u@127.0.0.1:${port}/: ${refused}`)).toBe(
      `Cannot connect to PostgreSQL at u@127.0.0.1:${port}/: nothing is listening at 127.0.0.1:${port} (is the server running, and on that port?)`,
    );
  });
});
