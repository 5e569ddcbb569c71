// A loopback HTTP proxy in front of an object-store server that records every request it forwards and can hold the
// ones a test names until it lets them through: what a reader asked of the store, seen from the store's side, and a
// read stopped mid-way for as long as a test needs, with no timing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatedProxy {
  /** http://127.0.0.1:port, standing for the target. */
  url: string;
  /** The path and query of every request that arrived, decoded, in order of arrival. */
  readonly requests: readonly string[];
  /** The user agent each of those requests named ('' for none), in the same order. */
  readonly userAgents: readonly string[];
  /** Resolves once a request that `held` matches has arrived since the gate was last shut (at once if one has). */
  firstHeld(): Promise<void>;
  /** Lets the held requests through, and every one after them. */
  open(): void;
  /** Holds the requests `held` matches again. */
  shut(): void;
  close(): Promise<void>;
}

/** `held` names the requests to hold (by decoded path and query) while the gate is shut; it starts shut. */
export async function startGatedProxy(targetUrl: string, held: (path: string) => boolean): Promise<GatedProxy> {
  const target = new URL(targetUrl);
  const requests: string[] = [];
  const userAgents: string[] = [];
  let shut = false;
  const waiting: (() => void)[] = [];
  let heldOne: () => void = () => undefined;
  let firstHeld: Promise<void> = Promise.resolve();
  const close = () => {
    shut = true;
    firstHeld = new Promise<void>((resolve) => (heldOne = resolve));
  };
  close();

  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // The reader may be gone (a cancelled read's thread ended): its socket's errors end only this exchange.
    upstream.on('error', () => res.destroy());
    res.on('error', () => undefined);
    req.pipe(upstream);
  };

  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '');
    requests.push(path);
    userAgents.push(req.headers['user-agent'] ?? '');
    if (shut && held(path)) {
      heldOne();
      waiting.push(() => forward(req, res));
    } else forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    userAgents,
    firstHeld: () => firstHeld,
    open() {
      shut = false;
      waiting.splice(0).forEach((go) => go());
    },
    shut: close,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
