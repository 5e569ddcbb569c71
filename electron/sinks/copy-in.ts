// COPY ... FROM STDIN for node-pg with the whole payload written at once: the statement, every CopyData message and
// CopyDone go out in one write instead of each chunk waiting for the server's CopyInResponse or for this process's
// event loop, so the server works through a transaction without pausing. If the statement fails before the COPY
// starts, the server ignores the CopyData and CopyDone that follow (the protocol says so for this very case).
//
// CommittedCopy makes the COPY a whole transaction whose outcome can always be learnt: BEGIN, the transaction's id
// (pg_current_xact_id) and the COPY go out at once, and COMMIT follows the moment the id arrives (while the server
// is still reading the rows, so it never waits for it). A transaction whose id this process never saw was never
// committed; one whose COMMIT went out unanswered is looked up by its id (pg_xact_status) after a reconnect.
import type pg from 'pg';

const COPY_DATA = 0x64; // 'd'
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]); // 'c', then the length of the message without its type byte

function writeCopyData(stream: pg.Connection['stream'], data: Buffer[]): void {
  for (const chunk of data) {
    const header = Buffer.allocUnsafe(5);
    header[0] = COPY_DATA;
    header.writeUInt32BE(chunk.length + 4, 1);
    stream.write(header);
    stream.write(chunk);
  }
  stream.write(COPY_DONE);
}

/** Settles once the server is ready for the next statement: rejected with the server's error if one came. */
abstract class Exchange implements pg.Submittable {
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (err: unknown) => void;

  constructor() {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  abstract submit(connection: pg.Connection): void;

  // node-pg hands the server's replies to the active query; only the end and an error matter here.
  handleCopyInResponse(): void {}

  handleCommandComplete(): void {}

  handleDataRow(_row: { fields: (string | null)[] }): void {}

  handleError(err: unknown, _connection?: pg.Connection): void {
    this.reject(err);
  }

  handleReadyForQuery(): void {
    this.resolve();
  }
}

/** COPY (and the statements after it) as one simple query, inside a transaction the caller opened. */
export class CopyIn extends Exchange {
  constructor(
    private readonly text: string,
    private readonly data: Buffer[],
  ) {
    super();
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
    connection.stream.cork();
    writeCopyData(connection.stream, this.data);
    connection.stream.uncork();
  }
}

/** A statement sent after the COPY, with its parameters as text (null for NULL). */
export interface AfterStatement {
  text: string;
  values?: (string | null)[];
}

/** BEGIN, the transaction id, `before`, the COPY, `after` (one statement each) and COMMIT, in the extended protocol: one
 * Sync at the very end, so the server answers once and an error skips the rest up to it. */
export class CommittedCopy extends Exchange {
  /** The transaction's id, once the server has said it. */
  xid: string | null = null;
  /** COMMIT has gone out: from then on, until the answer, only the server knows whether it landed. */
  commitSent = false;
  private synced = false;
  private connection: pg.Connection | null = null;

  constructor(
    private readonly copy: string,
    private readonly after: AfterStatement[],
    private readonly data: Buffer[],
    private readonly before: AfterStatement[] = [],
  ) {
    super();
  }

  submit(connection: pg.Connection): void {
    this.connection = connection;
    connection.stream.cork();
    statement(connection, 'BEGIN');
    statement(connection, 'SELECT pg_current_xact_id()');
    // The id is sent now, not when the COPY's input is awaited or an error ends the exchange.
    connection.flush();
    for (const { text, values } of this.before) statement(connection, text, values);
    statement(connection, this.copy);
    writeCopyData(connection.stream, this.data);
    for (const { text, values } of this.after) statement(connection, text, values);
    connection.stream.uncork();
  }

  override handleDataRow(row: { fields: (string | null)[] }): void {
    if (this.xid !== null || !this.connection) return;
    this.xid = row.fields[0];
    this.commitSent = true;
    statement(this.connection, 'COMMIT');
    this.sync(this.connection);
  }

  override handleError(err: unknown, connection?: pg.Connection): void {
    // Before the id arrived no Sync went out, and the server skips everything up to one: end the exchange.
    if (connection) this.sync(connection);
    super.handleError(err);
  }

  private sync(connection: pg.Connection): void {
    if (this.synced) return;
    this.synced = true;
    connection.sync();
  }
}

function statement(connection: pg.Connection, text: string, values: (string | null)[] = []): void {
  connection.parse({ text, name: '', types: [] }, true);
  connection.bind({ values }, true);
  connection.execute({}, true);
}
