// A loopback TCP proxy between a client and a real database server that injects network faults for real: after a
// chosen number of server-to-client bytes on a connection, or at a chosen statement of the client's, it cuts the
// connection (FIN to the client, the server's side closed), resets both sides (RST), or stalls (both directions stop,
// the sockets stay open). The server keeps
// whatever the client had sent before the fault, so a COMMIT can land while its reply is lost.
import { createServer, type Server, type Socket, connect } from 'node:net';

export type FaultAction = 'cut' | 'reset' | 'stall';

/** A fault that strikes after a number of server-to-client bytes. */
export interface ByteFault {
  action: FaultAction;
  /** Server-to-client bytes delivered before the fault strikes (0: none at all). */
  atByte: number;
}

/** A fault that strikes at a statement: the `nth` (from 1) client message holding `text`, either `before` the server
 * gets it, or `after` (the server has it and answers, and the answer is lost: a COMMIT that lands unconfirmed). */
export interface StatementFault {
  action: FaultAction;
  statement: { text: string; nth: number; when: 'before' | 'after' };
}

export type Fault = ByteFault | StatementFault;

export interface FaultProxy {
  /** The target URL with its host and port replaced by the proxy's. */
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Server-to-client bytes forwarded, per connection in order of arrival. */
  readonly bytesToClient: readonly number[];
  /** Faults that struck so far. */
  readonly faults: number;
  /** Cuts every open connection at once (the server lost mid-way), while new ones still go through. */
  cutAll(): void;
  close(): Promise<void>;
}

/** `faultFor(n)` picks the fault of the n-th connection (0-based), or null to forward it untouched. */
export async function startFaultProxy(targetUrl: string, faultFor: (connection: number) => Fault | null = () => null): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  const bytesToClient: number[] = [];
  let faults = 0;
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A fault is the point: errors on either side are expected and end only that connection.
    socket.on('error', () => undefined);
    return socket;
  };

  const server: Server = createServer((client) => {
    track(client);
    const index = bytesToClient.length;
    bytesToClient.push(0);
    const fault = faultFor(index);
    const upstream = track(connect(Number(target.port || 5432), target.hostname));
    let stalled = false;
    const strike = (action: FaultAction, lastBytes: Buffer): void => {
      faults++;
      if (action === 'stall') {
        if (lastBytes.length > 0) client.write(lastBytes);
        stalled = true;
        client.pause();
        upstream.pause();
      } else if (action === 'reset') {
        if (lastBytes.length > 0) client.write(lastBytes);
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      } else {
        client.end(lastBytes);
        upstream.destroy();
      }
    };
    const atByte = fault && 'atByte' in fault ? fault.atByte : null;
    const statement = fault && 'statement' in fault ? fault.statement : null;
    let statementsSeen = 0;
    /** Set once the server has the statement whose answer is to be lost. */
    let answerLost = false;
    if (fault && atByte === 0) {
      upstream.once('connect', () => strike(fault.action, Buffer.alloc(0)));
    }
    client.on('data', (chunk: Buffer) => {
      if (stalled) return;
      if (fault && statement && chunk.includes(statement.text) && ++statementsSeen === statement.nth) {
        if (statement.when === 'before') return strike(fault.action, Buffer.alloc(0));
        answerLost = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (stalled || client.destroyed) return;
      if (fault && answerLost) {
        answerLost = false;
        return strike(fault.action, Buffer.alloc(0));
      }
      const sent = bytesToClient[index];
      if (fault && atByte !== null && atByte > 0 && sent + chunk.length >= atByte) {
        bytesToClient[index] = atByte;
        strike(fault.action, chunk.subarray(0, atByte - sent));
        return;
      }
      bytesToClient[index] = sent + chunk.length;
      client.write(chunk);
    });
    // A stalled connection is a black hole: the server never learns that the client gave up.
    client.on('close', () => {
      if (!stalled) upstream.destroy();
    });
    upstream.on('close', () => {
      if (!stalled) client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    get connections() {
      return bytesToClient.length;
    },
    bytesToClient,
    get faults() {
      return faults;
    },
    cutAll() {
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
