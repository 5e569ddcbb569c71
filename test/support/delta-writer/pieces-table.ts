// A table whose every 150-row row group is a piece the scan decodes on its own, for the tests of a scan that decodes
// each piece into the buffers of the piece before (ScanOptions.reuseBuffers): rows of a piece that a consumer holds
// past the next one's decoding show there as wrong values.
import { Bool, Float64, Int64, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { DeltaTableWriter } from './table-writer.js';

export const PIECES_COLUMNS = ['id', 'name', 'amount', 'flag'];

/** Files of `fileRows` rows each (ids counting up from 0 across them), row groups of 150 rows, and a deletion vector
 * on the second file dropping every seventh of its rows. Returns the number of rows deleted. */
export async function writePiecesTable(root: string, fileRows: number[]): Promise<number> {
  const writer = await DeltaTableWriter.create(root, {
    schema: {
      type: 'struct',
      fields: [
        { name: 'id', type: 'long', nullable: false, metadata: {} },
        { name: 'name', type: 'string', nullable: true, metadata: {} },
        { name: 'amount', type: 'double', nullable: true, metadata: {} },
        { name: 'flag', type: 'boolean', nullable: true, metadata: {} },
      ],
    },
    deletionVectors: true,
    rowGroupRows: 150,
    // Plain (not dictionary) strings: the columns copied out of WebAssembly into the reused buffers (arrow-ffi.ts).
    dictionary: false,
  });
  const column = <T>(first: number, rows: number, value: (id: number) => T) => Array.from({ length: rows }, (_, i) => value(first + i));
  const part = (first: number, rows: number) => ({
    data: new Table({
      id: vectorFromArray(column(first, rows, BigInt), new Int64()),
      name: vectorFromArray(
        column(first, rows, (id) => (id % 11 === 0 ? null : `name-${id}-${'x'.repeat(id % 37)}`)),
        new Utf8(),
      ),
      amount: vectorFromArray(
        column(first, rows, (id) => (id % 13 === 0 ? null : id / 8)),
        new Float64(),
      ),
      flag: vectorFromArray(
        column(first, rows, (id) => (id % 5 === 0 ? null : id % 3 === 0)),
        new Bool(),
      ),
    }),
  });
  const firsts = fileRows.map((_, i) => fileRows.slice(0, i).reduce((a, b) => a + b, 0));
  await writer.append(fileRows.map((rows, i) => part(firsts[i], rows)));
  const [from, rows] = [firsts[1], fileRows[1]];
  const deleted = Math.ceil(rows / 7);
  await writer.deleteRows(
    writer.files()[1].path,
    Array.from({ length: deleted }, (_, k) => 7 * k),
    { predicate: `id >= ${from} AND id < ${from + rows} AND (id - ${from}) % 7 = 0` },
  );
  return deleted;
}
