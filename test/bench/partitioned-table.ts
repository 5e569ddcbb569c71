// The benchmark's partitioned table: the wide table's columns plus a partition column `region`, 100 data files in
// 10 partitions (ids ascending file by file, so `id` is clustered too), appended in a few commits; its last version
// deletes rows of one file through a deletion vector, for the diff of two adjacent versions.
import path from 'node:path';
import type { StructType } from '../../shared/delta-schema.js';
import { DeltaTableWriter } from '../support/delta-writer/table-writer.js';
import { WIDE_SCHEMA, wideArrowTable, wideChunk } from './wide-data.js';

export const PARTITIONS = 10;
export const PARTITIONED_FILES = 100;
const APPEND_COMMITS = 4;
/** The file whose rows the last version deletes, and which of them: every DELETED_EVERY-th. */
const DELETED_FILE = 13;
const DELETED_EVERY = 7;

export const regionOf = (file: number) => `r${file % PARTITIONS}`;

const SCHEMA: StructType = {
  type: 'struct',
  fields: [...WIDE_SCHEMA.fields, { name: 'region', type: 'string', nullable: true, metadata: {} }],
};

export interface PartitionedTable {
  root: string;
  /** The version before the delete, and the delete's. */
  beforeDelete: number;
  version: number;
  /** Rows the last version deleted. */
  deletedRows: number;
}

export async function writePartitionedTable(dir: string, rowsPerFile: number, seed: number): Promise<PartitionedTable> {
  const root = path.join(dir, 'partitioned');
  const writer = await DeltaTableWriter.create(root, {
    schema: SCHEMA,
    partitionColumns: ['region'],
    deletionVectors: true,
    dictionary: false,
  });
  const perCommit = Math.ceil(PARTITIONED_FILES / APPEND_COMMITS);
  for (let first = 0; first < PARTITIONED_FILES; first += perCommit) {
    const parts = [];
    for (let f = first; f < Math.min(PARTITIONED_FILES, first + perCommit); f++) {
      // The data files hold the wide table's columns; `region` lives in the folder name.
      parts.push({ data: wideArrowTable(wideChunk(f * rowsPerFile, rowsPerFile, seed)), partitionValues: { region: regionOf(f) } });
    }
    await writer.append(parts);
  }
  const beforeDelete = writer.version;
  const target = writer.files()[DELETED_FILE];
  const deleted = Array.from({ length: Math.ceil(rowsPerFile / DELETED_EVERY) }, (_, k) => k * DELETED_EVERY);
  const first = DELETED_FILE * rowsPerFile;
  await writer.deleteRows(target.path, deleted, {
    predicate: `id % ${DELETED_EVERY} = ${first % DELETED_EVERY} AND id BETWEEN ${first} AND ${first + rowsPerFile - 1}`,
  });
  return { root, beforeDelete, version: writer.version, deletedRows: deleted.length };
}
