// Log actions as PROTOCOL.md defines them; only the fields the reader uses are typed, the rest pass through.

export interface Protocol {
  minReaderVersion: number;
  minWriterVersion: number;
  readerFeatures?: string[];
  writerFeatures?: string[];
}

export interface Metadata {
  id: string;
  name?: string | null;
  description?: string | null;
  format: { provider: string; options?: Record<string, string> };
  schemaString: string;
  partitionColumns: string[];
  configuration: Record<string, string>;
  createdTime?: number | null;
}

export interface DeletionVectorDescriptor {
  storageType: 'u' | 'i' | 'p';
  pathOrInlineDv: string;
  offset?: number | null;
  sizeInBytes: number;
  cardinality: number;
}

export interface AddFile {
  path: string;
  partitionValues: Record<string, string | null>;
  size: number;
  modificationTime: number;
  dataChange: boolean;
  stats?: string | null;
  tags?: Record<string, string> | null;
  deletionVector?: DeletionVectorDescriptor | null;
  baseRowId?: number | null;
  defaultRowCommitVersion?: number | null;
}

export interface RemoveFile {
  path: string;
  deletionTimestamp?: number | null;
  dataChange: boolean;
  partitionValues?: Record<string, string | null> | null;
  size?: number | null;
  deletionVector?: DeletionVectorDescriptor | null;
}

/** commitInfo is free-form in the protocol; these are the fields Spark, Databricks and delta-rs write. */
export interface CommitInfo {
  timestamp?: number;
  inCommitTimestamp?: number;
  operation?: string;
  operationParameters?: Record<string, unknown>;
  operationMetrics?: Record<string, unknown>;
  engineInfo?: string;
  clientVersion?: string;
  userName?: string;
  isBlindAppend?: boolean;
  readVersion?: number;
  [key: string]: unknown;
}

export interface Action {
  protocol?: Protocol;
  metaData?: Metadata;
  add?: AddFile;
  remove?: RemoveFile;
  commitInfo?: CommitInfo;
  txn?: { appId: string; version: number; lastUpdated?: number };
  cdc?: unknown;
  domainMetadata?: { domain: string; configuration: string; removed: boolean };
  checkpointMetadata?: { version: number; tags?: Record<string, string> };
  sidecar?: { path: string; sizeInBytes: number; modificationTime: number; tags?: Record<string, string> };
}
