// Generates the app's built-in sample (assets/sample-sales, copied into the data folder by electron/app/sample.ts): a
// small partitioned sales table whose history shows each kind of commit a new user may want to explore (create,
// appends, an update that rewrites a file, deletes with a stored and an inline deletion vector). The app ships the
// generated files; this script is kept so that the sample can be made again, into a new folder:
//   npx tsx test/support/delta-writer/sample-table.ts assets/sample-sales
import type { StructType } from '../../../shared/delta-schema.js';
import { dataFileSchema, dataTable } from './data-columns.js';
import { DeltaTableWriter } from './table-writer.js';

const SAMPLE_SCHEMA: StructType = {
  type: 'struct',
  fields: [
    { name: 'order_id', type: 'long', nullable: false, metadata: {} },
    { name: 'region', type: 'string', nullable: true, metadata: {} },
    { name: 'product', type: 'string', nullable: true, metadata: {} },
    { name: 'quantity', type: 'integer', nullable: true, metadata: {} },
    { name: 'unit_price', type: 'double', nullable: true, metadata: {} },
    { name: 'ordered_at', type: 'timestamp', nullable: true, metadata: {} },
    { name: 'paid', type: 'boolean', nullable: true, metadata: {} },
    { name: 'note', type: 'string', nullable: true, metadata: {} },
  ],
};

const PRODUCTS: [string, number][] = [
  ['Kettle', 39.9],
  ['Teapot', 24.5],
  ['Mug', 8.25],
  ['Grinder', 59],
  ['Filter papers', 4.75],
];
const NOTES = ['gift wrap', 'leave at the door', 'call on arrival'];
const DAY = 86_400_000;
const START = Date.UTC(2024, 2, 1, 9, 0, 0);

interface Order {
  order_id: bigint;
  product: string;
  quantity: number;
  unit_price: number;
  ordered_at: number;
  paid: boolean;
  note: string | null;
}

function order(id: number): Order {
  const [product, price] = PRODUCTS[(id * 3) % PRODUCTS.length];
  return {
    order_id: BigInt(id),
    product,
    quantity: (id * 7) % 5,
    unit_price: price,
    ordered_at: START + id * 3_600_000,
    paid: id % 3 !== 0,
    note: id % 4 === 0 ? NOTES[(id / 4) % NOTES.length] : null,
  };
}

const fileSchema = dataFileSchema(SAMPLE_SCHEMA, ['region']);

function ordersTable(orders: Order[]) {
  const column = <K extends keyof Order>(k: K) => orders.map((o) => o[k]);
  return dataTable(fileSchema, {
    order_id: column('order_id'),
    product: column('product'),
    quantity: column('quantity'),
    unit_price: column('unit_price'),
    ordered_at: column('ordered_at'),
    paid: column('paid'),
    note: column('note'),
  });
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => order(from + i));

/** Writes the sample into `root`, which must not hold a table yet. */
async function writeSampleTable(root: string): Promise<void> {
  const at = (day: number) => START + day * DAY;
  const writer = await DeltaTableWriter.create(root, {
    schema: SAMPLE_SCHEMA,
    partitionColumns: ['region'],
    name: 'sample_sales',
    description: 'Deltaport sample: orders of a small shop, partitioned by region',
    deletionVectors: true,
    timestamp: at(0),
  });
  // v1: the first orders of each region.
  await writer.append(
    [
      { data: ordersTable(ids(1, 8)), partitionValues: { region: 'EU' } },
      { data: ordersTable(ids(9, 16)), partitionValues: { region: 'NA' } },
      { data: ordersTable(ids(17, 24)), partitionValues: { region: 'APAC' } },
    ],
    { timestamp: at(1) },
  );
  const [eu1, na1, apac1] = writer.files().map((f) => f.path);
  // v2: more orders for Europe and North America.
  await writer.append(
    [
      { data: ordersTable(ids(25, 30)), partitionValues: { region: 'EU' } },
      { data: ordersTable(ids(31, 36)), partitionValues: { region: 'NA' } },
    ],
    { timestamp: at(2) },
  );
  // v3: a price correction rewrites the first North American file.
  const corrected = ids(9, 16).map((o) => (o.order_id <= 12n ? { ...o, unit_price: 35 } : o));
  await writer.replaceFile(na1, ordersTable(corrected), {
    predicate: 'order_id >= 9 AND order_id <= 12',
    updatedRows: 4,
    timestamp: at(3),
  });
  // v4: cancelled orders 3 and 6 (rows 2 and 5 of the first European file), in a deletion vector file.
  await writer.deleteRows(eu1, [2, 5], { predicate: 'order_id IN (3, 6)', timestamp: at(4) });
  // v5: order 20 (row 3 of the Asia-Pacific file), with the deletion vector inline in the log.
  await writer.deleteRows(apac1, [3], { predicate: 'order_id = 20', storage: 'i', timestamp: at(5) });
}

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: sample-table.ts <new table folder>');
await writeSampleTable(target);
