// Storage connections: the client settings for tables under a cloud URL prefix (a bucket, or every bucket of a store),
// kept by the host. A secret is typed once and sent; it never comes back, so its field shows "saved" instead.
import { useId } from 'react';
import type { StorageConnection } from '../../../shared/api.js';
import type { StoreKind } from '../../../shared/store-location.js';
import { api } from '../api-client.js';
import { ConnectionsDialog, type Column, type ConnectionDraft } from './ConnectionsDialog.js';

const KINDS: { kind: StoreKind; label: string; placeholder: string }[] = [
  { kind: 's3', label: 'S3', placeholder: 's3://bucket, or s3:// for every bucket' },
  { kind: 'azure', label: 'Azure', placeholder: 'az://container or abfss://container@account.dfs.core.windows.net' },
  { kind: 'gcs', label: 'GCS', placeholder: 'gs://bucket, or gs:// for every bucket' },
];

const KIND_OPTIONS = KINDS.map((k) => ({ value: k.kind, label: k.label }));

interface Draft extends ConnectionDraft<StorageConnection, StoreKind> {
  prefix: string;
}

function kindOf(prefix: string): StoreKind {
  if (prefix.startsWith('gs://')) return 'gcs';
  return prefix.startsWith('s3://') ? 's3' : 'azure';
}

const COLUMNS: Column<StorageConnection>[] = [{ header: 'Applies to', className: 'mono', cell: (c) => c.prefix }];

function draftOf(existing: StorageConnection | null): Draft {
  return existing
    ? { existing, name: existing.name, kind: kindOf(existing.prefix), prefix: existing.prefix, values: { ...existing.options }, forget: [] }
    : { existing: null, name: '', kind: 's3', prefix: '', values: {}, forget: [] };
}

const list = () => api.listStorageConnections();

function savedNote(saved: StorageConnection): string {
  return saved.secretsNotSaved && saved.secretsSet.length > 0
    ? `Saved “${saved.name}”; its secrets are kept until this host stops, not on disk (it cannot encrypt them).`
    : `Saved “${saved.name}”.`;
}

export function StorageConnectionsDialog({ onClose, onCatalogs }: { onClose(): void; onCatalogs(): void }) {
  const id = useId();
  return (
    <ConnectionsDialog
      title="Storage connections"
      other={{ label: 'Catalog connections', open: onCatalogs }}
      intro={
        <>
          Settings for reading tables in S3, Azure or Google Cloud Storage, beyond what the cloud&apos;s own environment variables and
          config files give. Each applies to the tables under its bucket (or every bucket of a store).
        </>
      }
      newLabel="New storage connection"
      kindLabel="Store"
      kinds={KIND_OPTIONS}
      columns={COLUMNS}
      draftOf={draftOf}
      moreFields={(draft: Draft, change) => (
        <div className="field">
          <label htmlFor={`${id}-prefix`}>Applies to</label>
          <input
            id={`${id}-prefix`}
            type="text"
            className="mono"
            spellCheck={false}
            value={draft.prefix}
            placeholder={KINDS.find((k) => k.kind === draft.kind)?.placeholder}
            onChange={(e) => change({ prefix: e.target.value })}
          />
        </div>
      )}
      problem={(draft) => (draft.prefix.trim() ? null : 'Say which bucket or container it is for.')}
      list={list}
      save={(draft, options) => api.saveStorageConnection({ name: draft.name, prefix: draft.prefix.trim(), options })}
      savedNote={savedNote}
      remove={(name) => api.deleteStorageConnection({ name })}
      onClose={onClose}
    />
  );
}
