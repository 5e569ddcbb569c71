// A transaction's rows as a SQLite database file of their own (IMAGE_TABLE, columns c0, c1, ...), written straight
// from the Arrow buffers in SQLite's file format: page 1 holds the 100-byte header and the schema table; the rows are
// a table b-tree of leaf pages (cells: payload size, rowid, record; a long record continues on overflow pages) under
// interior pages. The sink attaches the file and copies its rows with one INSERT ... SELECT: binding every value of
// every row through a statement cost more than SQLite's insert of them, and when the two tables match SQLite copies
// the records as they are (its transfer optimization).
//
// Cells are laid out before any record is written, so records are written in place, column by column; a record too
// long for its page is written after the pages and then spread over its cell and overflow pages.
import type { RecordBatch } from 'apache-arrow';
import type { StructField } from '../../shared/delta-schema.js';
import { DeltaportError } from '../../shared/errors.js';
import { quoteName } from '../../shared/sql-quote.js';
import { cellColumn, varintLength, type RecordSizes } from './sqlite-cells.js';

export const IMAGE_TABLE = 'rows';

/** The image table's name for column c of the export. */
export function imageColumn(c: number): string {
  return `c${c}`;
}

/** What the image declares for a column: its affinity's type name ('' for none) and whether it is NOT NULL. A
 * column is declared NOT NULL only when it holds no NULL: the transfer optimization trusts the declaration. */
export interface ImageColumn {
  type: string;
  notNull: boolean;
}

/** The largest page: the fewest pages, cells and overflow chains for the same rows. */
const PAGE = 65_536;
/** No bytes are reserved at the end of a page, so all of it is usable. */
const MAX_LOCAL = PAGE - 35;
const MIN_LOCAL = Math.floor(((PAGE - 12) * 32) / 255) - 23;
const OVERFLOW_BYTES = PAGE - 4;
const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
const FILE_HEADER_BYTES = 100;
/** An interior cell (child page, rowid varint) and its pointer take at most 15 bytes. */
const MAX_CHILDREN = Math.floor((PAGE - 12) / 15) + 1;
/** Schema format 4 is the one with the serial types 8 and 9 (the integers 0 and 1 without a body). */
const SCHEMA_FORMAT = 4;
const MAX_IMAGE_BYTES = 2 ** 31 - 1;
const UTF8 = 1;

interface Child {
  page: number;
  lastRowid: number;
}

/** A record too long for its page: its cell's payload starts at `at`, the rest goes to pages from `firstPage`;
 * `start` is where it is written first. */
interface Spill {
  row: number;
  at: number;
  firstPage: number;
  start: number;
}

/** A leaf page being filled; its b-tree header starts `header` bytes into the page. */
interface Leaf {
  page: number;
  header: number;
  cells: number;
  content: number;
  lastRowid: number;
}

/** Builds images, reusing its memory: an image is valid until the next one is built. */
export class ImageBuilder {
  private buf = Buffer.alloc(0);
  private pages = 0;
  private serials = new Int32Array(0);
  private perRow = rowArrays(0);
  private scratch = Buffer.alloc(0);
  private scratchUsed = 0;

  /** The image of `chunks`' rows, in order; `columns` as the image's table declares them. Each loop over the rows
   * is a function of its own: V8 optimizes a function with several hot loops anew on every call. */
  build(chunks: RecordBatch[], fields: StructField[], columns: ImageColumn[]): Buffer {
    const width = fields.length;
    const rows = chunks.reduce((n, b) => n + b.numRows, 0);
    if (this.serials.length < rows * width) this.serials = new Int32Array(rows * width);
    const serials = this.serials;
    this.scratchUsed = 0;
    const take = (size: number) => this.take(size);
    if (this.perRow.cursor.length < rows) this.perRow = rowArrays(rows);
    const { sizes, headers, payloads, cursor } = this.perRow;
    sizes.bodies.fill(0, 0, rows);
    sizes.extras.fill(0, 0, rows);
    const hasNull = new Array<boolean>(width).fill(false);
    const cells = chunks.map((batch) => fields.map((field, c) => cellColumn(batch.data.children[c], field, take)));
    forEachBatch(chunks, (b, first) =>
      cells[b].forEach((cell, c) => {
        if (cell.serials(serials, sizes, first, width, c)) hasNull[c] = true;
      }),
    );
    recordBytes(sizes, headers, payloads, rows, width);
    const spills = this.tableTree(payloads, cursor, rows, columns, hasNull);
    // The records that overflow are written after the pages first.
    const end = this.pages * PAGE;
    let spilled = end;
    for (const spill of spills) {
      spill.start = cursor[spill.row] = spilled;
      spilled += payloads[spill.row];
    }
    // Positions are 32-bit integers, which keeps the writing loops fast.
    if (spilled > MAX_IMAGE_BYTES)
      throw new DeltaportError('SINK_WRITE', `a transaction's rows take more than 2 GiB as SQLite records: lower batchSize`);
    this.grow(spilled);
    const out = this.buf;
    writeHeaders(out, cursor, headers, serials, rows, width);
    forEachBatch(chunks, (b, first) => cells[b].forEach((cell) => cell.bodies(out, cursor, first)));
    for (const { row, at, firstPage, start } of spills) this.spread(start, payloads[row], at, firstPage);
    this.fileHeader();
    return out.subarray(0, end);
  }

  /** Lays out the cells of records of `payloads` bytes in leaf pages under interior pages, the schema on page 1.
   * Sets where each record goes in `cursor`; returns the records that overflow, which have no place yet. */
  private tableTree(payloads: Float64Array, cursor: Int32Array, rows: number, columns: ImageColumn[], hasNull: boolean[]): Spill[] {
    this.pages = 1;
    this.grow(PAGE);
    this.buf.fill(0, 0, PAGE);
    const spills: Spill[] = [];
    const leaves = this.leaves(payloads, cursor, rows, spills);
    const root = this.interiorLevels(leaves);
    const declared = columns.map(
      (col, c) => `${quoteName(imageColumn(c))}${col.type ? ` ${col.type}` : ''}${col.notNull && !hasNull[c] ? ' NOT NULL' : ''}`,
    );
    this.schemaPage(`CREATE TABLE ${quoteName(IMAGE_TABLE)} (${declared.join(', ')})`, root);
    return spills;
  }

  private leaves(payloads: Float64Array, cursor: Int32Array, rows: number, spills: Spill[]): Child[] {
    const leaves: Child[] = [];
    let leaf = this.leaf(this.newPage(), 0);
    for (let i = 0; i < rows; i++) {
      const payload = payloads[i];
      let at = this.place(leaf, i + 1, payload);
      if (at < 0) {
        leaves.push(this.finishLeaf(leaf));
        leaf = this.leaf(this.newPage(), 0);
        at = this.place(leaf, i + 1, payload);
      }
      if (payload <= MAX_LOCAL) cursor[i] = at;
      else spills.push({ row: i, at, firstPage: this.chain(at + localBytes(payload), payload), start: 0 });
    }
    leaves.push(this.finishLeaf(leaf));
    return leaves;
  }

  /** `size` bytes for a column's text that live until the image is built. */
  private take(size: number): Buffer {
    if (this.scratch.length < this.scratchUsed + size) {
      // Texts handed out before stay in the buffer they were taken from.
      this.scratch = Buffer.allocUnsafe(Math.max(2 * this.scratch.length, this.scratchUsed + size));
      this.scratchUsed = 0;
    }
    const bytes = this.scratch.subarray(this.scratchUsed, this.scratchUsed + size);
    this.scratchUsed += size;
    return bytes;
  }

  private grow(size: number): void {
    if (this.buf.length >= size) return;
    const grown = Buffer.allocUnsafe(Math.max(size, 2 * this.buf.length));
    this.buf.copy(grown, 0, 0, Math.min(this.buf.length, this.pages * PAGE));
    this.buf = grown;
  }

  /** A zeroed page: what a page leaves unused is then the same in every image. */
  private newPage(): number {
    this.pages++;
    this.grow(this.pages * PAGE);
    this.buf.fill(0, (this.pages - 1) * PAGE, this.pages * PAGE);
    return this.pages;
  }

  private leaf(page: number, header: number): Leaf {
    return { page, header, cells: 0, content: PAGE, lastRowid: 0 };
  }

  /** Adds a cell with room for a payload of `payload` bytes; returns where the payload starts, -1 when the cell does
   * not fit on this page. */
  private place(leaf: Leaf, rowid: number, payload: number): number {
    const local = localBytes(payload);
    const size = varintLength(payload) + varintLength(rowid) + local + (local < payload ? 4 : 0);
    if (leaf.header + 8 + 2 * (leaf.cells + 1) + size > leaf.content) return -1;
    leaf.content -= size;
    const base = (leaf.page - 1) * PAGE;
    const pointer = base + leaf.header + 8 + 2 * leaf.cells;
    this.buf[pointer] = leaf.content >> 8;
    this.buf[pointer + 1] = leaf.content & 0xff;
    leaf.cells++;
    leaf.lastRowid = rowid;
    return putVarint(this.buf, putVarint(this.buf, base + leaf.content, payload), rowid);
  }

  private finishLeaf(leaf: Leaf): Child {
    this.pageHeader((leaf.page - 1) * PAGE + leaf.header, LEAF_TABLE, leaf.cells, leaf.content);
    return { page: leaf.page, lastRowid: leaf.lastRowid };
  }

  /** The overflow pages of a payload whose cell's page number goes at `link`: consecutive new pages, each naming
   * the next (the last names none). Returns the first. */
  private chain(link: number, payload: number): number {
    const count = Math.ceil((payload - localBytes(payload)) / OVERFLOW_BYTES);
    const firstPage = this.pages + 1;
    this.buf.writeUInt32BE(firstPage, link);
    for (let k = 0; k < count; k++) {
      const page = this.newPage();
      this.buf.writeUInt32BE(k === count - 1 ? 0 : page + 1, (page - 1) * PAGE);
    }
    return firstPage;
  }

  /** Moves a record written at buf[start, start + payload) to its cell at `at` and its overflow pages. */
  private spread(start: number, payload: number, at: number, firstPage: number): void {
    const local = localBytes(payload);
    this.buf.copyWithin(at, start, start + local);
    for (let from = start + local, page = firstPage; from < start + payload; from += OVERFLOW_BYTES, page++) {
      this.buf.copyWithin((page - 1) * PAGE + 4, from, Math.min(start + payload, from + OVERFLOW_BYTES));
    }
  }

  /** Interior pages over `children` until one page is the root; returns the root's page number. */
  private interiorLevels(children: Child[]): number {
    let level = children;
    while (level.length > 1) {
      // Children spread evenly, so that no interior page has fewer than two.
      const groups = Math.ceil(level.length / MAX_CHILDREN);
      const next: Child[] = [];
      for (let g = 0; g < groups; g++) {
        next.push(this.interior(level.slice(Math.floor((g * level.length) / groups), Math.floor(((g + 1) * level.length) / groups))));
      }
      level = next;
    }
    return level[0].page;
  }

  /** An interior page over `children`: a cell (child, its last rowid) for each but the last, which is the right child. */
  private interior(children: Child[]): Child {
    const page = this.newPage();
    const base = (page - 1) * PAGE;
    let content = PAGE;
    for (let k = 0; k < children.length - 1; k++) {
      const { page: child, lastRowid } = children[k];
      content -= 4 + varintLength(lastRowid);
      this.buf.writeUInt32BE(child, base + content);
      putVarint(this.buf, base + content + 4, lastRowid);
      this.buf.writeUInt16BE(content, base + 12 + 2 * k);
    }
    const right = children[children.length - 1];
    this.pageHeader(base, INTERIOR_TABLE, children.length - 1, content);
    this.buf.writeUInt32BE(right.page, base + 8);
    return { page, lastRowid: right.lastRowid };
  }

  /** Page 1: after the file header, the schema table's one row, which names the table's root page. */
  private schemaPage(sql: string, root: number): void {
    const name = Buffer.from(IMAGE_TABLE, 'latin1');
    const text = Buffer.from(sql, 'utf8');
    const type = Buffer.from('table', 'latin1');
    // type, name, tbl_name, rootpage (as a 4-byte integer), sql
    const serials = [13 + 2 * type.length, 13 + 2 * name.length, 13 + 2 * name.length, 4, 13 + 2 * text.length];
    const header = recordHeaderBytes(serials.reduce((n, s) => n + varintLength(s), 0));
    const record = Buffer.alloc(header + type.length + 2 * name.length + 4 + text.length);
    let pos = putVarint(record, 0, header);
    for (const s of serials) pos = putVarint(record, pos, s);
    pos += type.copy(record, pos);
    pos += name.copy(record, pos);
    pos += name.copy(record, pos);
    pos = record.writeUInt32BE(root, pos);
    text.copy(record, pos);
    const leaf = this.leaf(1, FILE_HEADER_BYTES);
    const at = this.place(leaf, 1, record.length);
    // SQLite's 2000 columns at most keep the statement well within one page.
    if (at < 0 || record.length > MAX_LOCAL) throw new DeltaportError('INTERNAL', 'the image table statement does not fit on page 1');
    record.copy(this.buf, at);
    this.finishLeaf(leaf);
  }

  private fileHeader(): void {
    const b = this.buf;
    b.fill(0, 0, FILE_HEADER_BYTES);
    b.write('SQLite format 3\0', 0, 'latin1');
    b.writeUInt16BE(1, 16); // the page size; 1 stands for 65536
    b[18] = 1; // file format versions: rollback journal
    b[19] = 1;
    b[21] = 64; // payload fractions, fixed by the format
    b[22] = 32;
    b[23] = 32;
    b.writeUInt32BE(1, 24); // file change counter
    b.writeUInt32BE(this.pages, 28);
    b.writeUInt32BE(1, 40); // schema cookie
    b.writeUInt32BE(SCHEMA_FORMAT, 44);
    b.writeUInt32BE(UTF8, 56);
    b.writeUInt32BE(1, 92); // the page count is valid for change counter 1
  }

  /** Type, first freeblock (none), cell count, start of the cell content (0 stands for 65536), fragmented bytes. */
  private pageHeader(at: number, type: number, cells: number, content: number): void {
    this.buf[at] = type;
    this.buf.writeUInt16BE(0, at + 1);
    this.buf.writeUInt16BE(cells, at + 3);
    this.buf.writeUInt16BE(content === PAGE ? 0 : content, at + 5);
    this.buf[at + 7] = 0;
  }
}

function forEachBatch(chunks: RecordBatch[], each: (b: number, first: number) => void): void {
  let first = 0;
  chunks.forEach((batch, b) => {
    each(b, first);
    first += batch.numRows;
  });
}

/** The arrays with a slot per record of a transaction, kept from one image to the next. */
function rowArrays(rows: number) {
  return {
    sizes: { bodies: new Float64Array(rows), extras: new Int32Array(rows) } as RecordSizes,
    /** The bytes of each record's header, and of its whole payload. */
    headers: new Int32Array(rows),
    payloads: new Float64Array(rows),
    /** Where each record's next byte goes. */
    cursor: new Int32Array(rows),
  };
}

function recordBytes(sizes: RecordSizes, headers: Int32Array, payloads: Float64Array, rows: number, width: number): void {
  for (let i = 0; i < rows; i++) {
    headers[i] = recordHeaderBytes(width + sizes.extras[i]);
    payloads[i] = headers[i] + sizes.bodies[i];
  }
}

/** Each record's header (its size, then the serial types) at its cursor, which moves past it. */
function writeHeaders(out: Buffer, cursor: Int32Array, headers: Int32Array, serials: Int32Array, rows: number, width: number): void {
  for (let i = 0, at = 0; i < rows; i++, at += width) {
    let pos = cursor[i];
    // A header of one byte per varint (the common case) has its size there too.
    if (headers[i] === width + 1) {
      out[pos++] = headers[i];
      for (let c = 0; c < width; c++) out[pos++] = serials[at + c];
    } else {
      pos = putVarint(out, pos, headers[i]);
      for (let c = 0; c < width; c++) pos = putVarint(out, pos, serials[at + c]);
    }
    cursor[i] = pos;
  }
}

/** A record header's size, which counts its own varint. */
function recordHeaderBytes(serialBytes: number): number {
  let size = serialBytes + 1;
  while (varintLength(size) + serialBytes > size) size = varintLength(size) + serialBytes;
  return size;
}

/** How much of a payload a table leaf cell holds itself; the rest goes to overflow pages. */
function localBytes(payload: number): number {
  if (payload <= MAX_LOCAL) return payload;
  const surplus = MIN_LOCAL + ((payload - MIN_LOCAL) % OVERFLOW_BYTES);
  return surplus <= MAX_LOCAL ? surplus : MIN_LOCAL;
}

function putVarint(out: Buffer, pos: number, v: number): number {
  if (v < 0x80) {
    out[pos] = v;
    return pos + 1;
  }
  const n = varintLength(v);
  for (let k = n - 1, x = v; k >= 0; k--, x = Math.floor(x / 0x80)) out[pos + k] = (x & 0x7f) | (k === n - 1 ? 0 : 0x80);
  return pos + n;
}
