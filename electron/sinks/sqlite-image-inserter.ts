// Appends, overwrites and upserts into SQLite: a transaction's rows go to a file of their own (sqlite-image.ts) in the
// temporary folder, which the writer's connection attaches inside the transaction and copies in with one INSERT ...
// SELECT. A database attached in a transaction can only be detached after it ends, so the session detaches it after
// COMMIT (or before the next BEGIN, after a rollback). The file is overwritten in place for every transaction
// (truncating and regrowing it cost more than the rows' insert) and removed with the session; a longer file's
// tail is not read, as the header says how many pages the image has. The file is named for its process, so that
// the next export removes what a killed one left.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import type Database from 'better-sqlite3';
import { processRuns } from './process-runs.js';
import { quoteName } from '../../shared/sql-quote.js';
import type { WriteTarget } from './sql-sink.js';
import { sameColumns, SQLITE_IMAGE_SCHEMA, sqliteInsertSql } from './sql-statements.js';
import { sqliteAffinity } from './sql-types.js';
import { describeSqliteTable } from './sqlite-connection.js';
import { ImageBuilder, type ImageColumn } from './sqlite-image.js';

const IMAGE_NAME = /^deltaport-rows-(\d+)-[0-9a-f-]+\.sqlite$/;

/** Removes the images of processes that no longer run. */
export function removeLeftImages(): void {
  const dir = tmpdir();
  try {
    for (const name of readdirSync(dir)) {
      const match = IMAGE_NAME.exec(name);
      if (match && !processRuns(Number(match[1]))) rmSync(path.join(dir, name), { force: true });
    }
  } catch {
    // Best effort: a folder that cannot be listed leaves them to a later export.
  }
}

export class ImageInserter {
  private readonly file = path.join(tmpdir(), `deltaport-rows-${process.pid}-${randomUUID()}.sqlite`);
  private readonly sql: string;
  private readonly columns: ImageColumn[];
  private readonly images = new ImageBuilder();
  private fd: number | null = null;
  private attached = false;

  /** `target.table` exists (the sink created or checked it). */
  constructor(
    private readonly db: Database.Database,
    private readonly prepared: (sql: string) => Database.Statement,
    private readonly target: WriteTarget,
  ) {
    const { fields, spec } = target;
    const existing = describeSqliteTable(db, target.table)!.columns;
    const allColumns = sameColumns(existing, fields);
    this.sql = sqliteInsertSql(target.table, fields, spec.mode === 'upsert' ? spec.keyColumns! : null, allColumns);
    // Into the target's own columns the image declares their affinities and NOT NULLs, which SQLite's transfer
    // optimization compares; into a column list, affinity-free columns pass the values on unchanged for the target's
    // affinities to apply.
    this.columns = allColumns
      ? existing.map((c) => ({ type: sqliteAffinity(c.type), notNull: c.notNull }))
      : fields.map(() => ({ type: '', notNull: false }));
  }

  /** Inserts the rows; runs inside the transaction. */
  write(chunks: RecordBatch[]): void {
    const image = this.images.build(chunks, this.target.fields, this.columns);
    this.fd ??= openSync(this.file, 'w+');
    writeSync(this.fd, image, 0, image.length, 0);
    this.prepared(`ATTACH ? AS ${quoteName(SQLITE_IMAGE_SCHEMA)}`).run(this.file);
    this.attached = true;
    // Prepared while the first image was attached; SQLite compiles it again for each image it reads.
    this.prepared(this.sql).run();
  }

  /** Outside a transaction: the attached image, if any, is let go. */
  detach(): void {
    if (!this.attached || !this.db.open) return;
    this.prepared(`DETACH ${quoteName(SQLITE_IMAGE_SCHEMA)}`).run();
    this.attached = false;
  }

  /** Once the connection is closed (or the target is prepared anew). */
  remove(): void {
    this.detach();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.file, { force: true });
  }
}
