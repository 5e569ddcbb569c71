// The object-store case of the benchmark: the wide table and the long log uploaded to a local S3 server (moto, as the
// storage tests use), then a cold open + preview of 100 rows and a full export read from it, with the requests and
// bytes they took. A preview should fetch little more than the footer and the row group it shows; the open of the long
// log one listing call plus the files from its last checkpoint on; the export at least 0.7x the rows/s from disk.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import { parquetMetadata } from 'hyparquet';
import { browseFolder } from '../../electron/app/folder-browse.js';
import { previewTask } from '../../electron/jobs/tasks.js';
import { engineFrom } from '../../electron/delta/engine/engine-context.js';
import { TableCache } from '../../electron/delta/table-cache.js';
import { DeltaTable } from '../../electron/delta/table.js';
import { fetchCounts } from '../../electron/storage/fetch-counter.js';
import { isSkipped, startS3, type S3Store } from '../support/object-stores.js';
import type { Figure } from './report.js';

export interface ObjectStoreFigures {
  previewMs: Figure;
  /** Bytes a cold open + preview of 100 rows fetched, against the footer and first row group of the file it shows. */
  previewBytes: Figure;
  previewBytesFloor: Figure;
  openLists: Figure;
  openReads: Figure;
  /** Files an open has to read: _last_checkpoint, the checkpoint and the commits after it (a Parquet file takes a
   * few ranged reads: footer, then column chunks). */
  openReadsFloor: Figure;
  exportRowsPerSec: Figure;
  /** A table of many small files (run.ts's SMALL_FILES_TABLE) exported to Parquet from the bucket, and from disk. */
  smallFilesRowsPerSec: Figure;
  smallFilesDiskRowsPerSec: Figure;
  /** The wide table's data files fetched by a plain loop of ranged GETs (RANGE_BYTES each, one at a time, signed by
   * aws4fetch), median of CEILING_RUNS, ms: what the server itself takes to serve the bytes an export reads. */
  rangedGetMs: Figure;
  /** Expanding a prefix of 1,000 entries in the navigator: the browse API's first page of it. */
  browseMs: Figure;
}

const BUCKET = 'bench';
const UPLOAD_CONCURRENCY = 16;
const BROWSE_ENTRIES = 1_000;
const RANGE_BYTES = 8 << 20;
const CEILING_RUNS = 3;

export interface ObjectStoreRun {
  figures: ObjectStoreFigures;
  /** The tables' URLs (the wide table's, the small files') and the CLI flags that reach the server, for the exports
   * the caller times. */
  exportArgs: { table: string; smallFilesTable: string; flags: string[] } | null;
  stop(): Promise<void>;
}

export async function objectStoreCase(
  wideRoot: string,
  longLogRoot: string,
  smallFilesRoot: string,
  commits: number,
): Promise<ObjectStoreRun> {
  const none = (error: string): ObjectStoreFigures => {
    const e = { error };
    return {
      previewMs: e,
      previewBytes: e,
      previewBytesFloor: e,
      openLists: e,
      openReads: e,
      openReadsFloor: e,
      exportRowsPerSec: e,
      smallFilesRowsPerSec: e,
      smallFilesDiskRowsPerSec: e,
      rangedGetMs: e,
      browseMs: e,
    };
  };
  const server = await startS3().catch((err: unknown) => ({ skipped: (err as Error).message.split('\n')[0] }));
  if (isSkipped(server)) return { figures: none(server.skipped), exportArgs: null, stop: async () => {} };
  const s3: S3Store = server;
  await s3.createBucket(BUCKET);
  await putFolder(s3, 'wide', wideRoot);
  await putFolder(s3, 'long', longLogRoot);
  await putFolder(s3, 'small', smallFilesRoot);
  const options = {
    endpoint: s3.endpoint,
    region: s3.region,
    path_style: 'true',
    access_key_id: s3.accessKeyId,
    secret_access_key: s3.secretAccessKey,
  };
  const tables = new TableCache(engineFrom({ storeOptions: [{ prefix: `s3://${BUCKET}/`, options }] }));

  const before = fetchCounts();
  const started = performance.now();
  const preview = await previewTask(tables, { source: { tablePath: `s3://${BUCKET}/wide` }, limit: 100 }, new AbortController().signal);
  const previewMs = performance.now() - started;
  if (preview.rows.length !== 100) throw new Error(`the S3 preview gave ${preview.rows.length} rows`);
  const afterPreview = fetchCounts();

  const long = await DeltaTable.open(`s3://${BUCKET}/long`, tables.engine);
  const snapshot = await long.snapshot();
  if (snapshot.version !== commits - 1) throw new Error(`the S3 open read version ${snapshot.version}`);
  const afterOpen = fetchCounts();

  for (let i = 0; i < BROWSE_ENTRIES; i += UPLOAD_CONCURRENCY) {
    const keys = Array.from(
      { length: Math.min(UPLOAD_CONCURRENCY, BROWSE_ENTRIES - i) },
      (_, j) => `browse/entry-${String(i + j).padStart(4, '0')}`,
    );
    await Promise.all(keys.map((key) => s3.putObject(BUCKET, key, new Uint8Array(0))));
  }
  const rangedGetMs = await rangedGetLoop(s3, dataFiles(wideRoot));

  const browseStarted = performance.now();
  const browsed = await browseFolder(tables.engine.storage, { location: `s3://${BUCKET}/browse` });
  const browseMs = performance.now() - browseStarted;
  if (browsed.entries.length !== BROWSE_ENTRIES) throw new Error(`browsing the S3 prefix gave ${browsed.entries.length} entries`);

  return {
    figures: {
      previewMs: { value: previewMs },
      previewBytes: { value: afterPreview.bytes - before.bytes },
      previewBytesFloor: { value: footerAndFirstGroup(firstDataFile(wideRoot)) },
      openLists: { value: afterOpen.lists - afterPreview.lists },
      openReads: { value: afterOpen.reads - afterPreview.reads },
      openReadsFloor: { value: readsFromLastCheckpoint(longLogRoot) },
      exportRowsPerSec: { error: 'not run' },
      smallFilesRowsPerSec: { error: 'not run' },
      smallFilesDiskRowsPerSec: { error: 'not run' },
      rangedGetMs,
      browseMs: { value: browseMs },
    },
    exportArgs: {
      table: `s3://${BUCKET}/wide`,
      smallFilesTable: `s3://${BUCKET}/small`,
      flags: Object.entries(options).flatMap(([k, v]) => ['--storage-option', `${k}=${v}`]),
    },
    stop: () => s3.stop(),
  };
}

async function putFolder(store: S3Store, prefix: string, root: string): Promise<void> {
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  for (let i = 0; i < files.length; i += UPLOAD_CONCURRENCY) {
    await Promise.all(
      files
        .slice(i, i + UPLOAD_CONCURRENCY)
        .map((file) => store.putObject(BUCKET, `${prefix}/${file}`, readFileSync(path.join(root, file)))),
    );
  }
}

/** The table's Parquet files (its data files, all live in the benchmark's tables), as paths under its root. */
function dataFiles(root: string): string[] {
  return readdirSync(root).filter((name) => name.endsWith('.parquet'));
}

/** Fetches every file of `files` (uploaded under wide/) in ranged GETs, one after another; the median of the runs. */
async function rangedGetLoop(s3: S3Store, files: string[]): Promise<Figure> {
  const aws = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: s3.region,
    service: 's3',
    retries: 0,
  });
  const times: number[] = [];
  for (let run = 0; run < CEILING_RUNS; run++) {
    const started = performance.now();
    for (const file of files) {
      const url = `${s3.endpoint}/${BUCKET}/wide/${file}`;
      const size = Number((await aws.fetch(url, { method: 'HEAD' })).headers.get('content-length'));
      for (let at = 0; at < size; at += RANGE_BYTES) {
        const response = await aws.fetch(url, { headers: { Range: `bytes=${at}-${Math.min(size, at + RANGE_BYTES) - 1}` } });
        const got = (await response.arrayBuffer()).byteLength;
        if (got !== Math.min(RANGE_BYTES, size - at)) return { error: `a ranged GET of ${file} gave ${got} bytes` };
      }
    }
    times.push(performance.now() - started);
  }
  return { value: times.sort((a, b) => a - b)[CEILING_RUNS >> 1] };
}

/** The data file a preview of the latest version shows first: the first add of the newest commit that has one. */
function firstDataFile(root: string): string {
  const log = path.join(root, '_delta_log');
  for (const name of readdirSync(log)
    .filter((n) => /^\d{20}\.json$/.test(n))
    .sort()
    .reverse()) {
    for (const line of readFileSync(path.join(log, name), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const action = JSON.parse(line) as { add?: { path: string } };
      if (action.add) return path.join(root, decodeURIComponent(action.add.path));
    }
  }
  throw new Error(`no data file in ${root}`);
}

/** A Parquet file's footer (metadata, its length and the magic) plus its first row group's column chunks. */
function footerAndFirstGroup(file: string): number {
  const bytes = readFileSync(file);
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const footer = bytes.readUInt32LE(bytes.length - 8) + 8;
  return footer + metadata.row_groups[0].columns.reduce((sum, c) => sum + Number(c.meta_data?.total_compressed_size ?? 0), 0);
}

/** _last_checkpoint, the checkpoint's files and the commits after it: the files an open of the latest version reads. */
export function readsFromLastCheckpoint(root: string): number {
  const log = path.join(root, '_delta_log');
  const { version, parts } = JSON.parse(readFileSync(path.join(log, '_last_checkpoint'), 'utf8')) as { version: number; parts?: number };
  const later = readdirSync(log).filter((n) => /^\d{20}\.json$/.test(n) && Number(n.slice(0, 20)) > version).length;
  return 1 + (parts ?? 1) + later;
}
