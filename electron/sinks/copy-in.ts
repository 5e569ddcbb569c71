// COPY ... FROM STDIN for node-pg with the whole payload written at once: the statement, every CopyData message and
// CopyDone go out in one write instead of each chunk waiting for the server's CopyInResponse or for this process's
// event loop, so the server works through a transaction without pausing. If the statement fails before the COPY
// starts, the server ignores the CopyData and CopyDone that follow (the protocol says so for this very case).
import type pg from 'pg';

const COPY_DATA = 0x64; // 'd'
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]); // 'c', then the length of the message without its type byte

export class CopyIn implements pg.Submittable {
  /** Settles once the server is ready for the next statement: rejected with the server's error if one came. */
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;

  constructor(
    private readonly text: string,
    private readonly data: Buffer[],
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
    const { stream } = connection;
    stream.cork();
    for (const chunk of this.data) {
      const header = Buffer.allocUnsafe(5);
      header[0] = COPY_DATA;
      header.writeUInt32BE(chunk.length + 4, 1);
      stream.write(header);
      stream.write(chunk);
    }
    stream.write(COPY_DONE);
    stream.uncork();
  }

  // node-pg hands the server's replies to the active query; only the end and an error matter here.
  handleCopyInResponse(): void {}

  handleCommandComplete(): void {}

  handleError(err: unknown): void {
    this.reject(err);
  }

  handleReadyForQuery(): void {
    this.resolve();
  }
}
