// Catalog connections: a Unity Catalog server or Databricks workspace (endpoint and token) or an AWS Glue catalog
// (region and profile; keys from the AWS credential chain), kept by the host. Their tables open by name:
// uc://<connection>/catalog.schema.table and glue://<connection>/database/table. The token is typed once and sent; it
// never comes back, so its field shows "saved" instead.
import type { CatalogConnection } from '../../../shared/api.js';
import type { CatalogKind } from '../../../shared/catalog-name.js';
import { api } from '../api-client.js';
import { ConnectionsDialog, type Column, type ConnectionDraft } from './ConnectionsDialog.js';

const KINDS: { value: CatalogKind; label: string }[] = [
  { value: 'unity', label: 'Unity Catalog' },
  { value: 'glue', label: 'AWS Glue' },
];

/** How a table of the connection is named, for the user to type or paste. */
function tableForm(c: { name: string; kind: CatalogKind }): string {
  return c.kind === 'unity' ? `uc://${c.name}/catalog.schema.table` : `glue://${c.name}/database/table`;
}

const COLUMNS: Column<CatalogConnection>[] = [
  { header: 'Catalog', cell: (c) => KINDS.find((k) => k.value === c.kind)?.label },
  { header: 'Tables', className: 'mono', cell: tableForm },
];

function draftOf(existing: CatalogConnection | null): ConnectionDraft<CatalogConnection, CatalogKind> {
  return existing
    ? { existing, name: existing.name, kind: existing.kind, values: { ...existing.options }, forget: [] }
    : { existing: null, name: '', kind: 'unity', values: {}, forget: [] };
}

const list = () => api.listCatalogConnections();

function savedNote(saved: CatalogConnection): string {
  const kept =
    saved.secretsNotSaved && saved.secretsSet.length > 0
      ? '; its token is kept until this host stops, not on disk (it cannot encrypt it)'
      : '';
  return `Saved “${saved.name}”${kept}. Open its tables as ${tableForm(saved)}.`;
}

export function CatalogConnectionsDialog({ onClose, onStorage }: { onClose(): void; onStorage(): void }) {
  return (
    <ConnectionsDialog
      title="Catalog connections"
      other={{ label: 'Storage connections', open: onStorage }}
      intro={
        <>
          Tables named in Unity Catalog (the open-source server or a Databricks workspace) or AWS Glue open by their name:{' '}
          <code>uc://connection/catalog.schema.table</code> or <code>glue://connection/database/table</code>. Unity Catalog lends the
          credentials to read each table; Glue tables are read with the AWS credentials of this computer.
        </>
      }
      newLabel="New catalog connection"
      kindLabel="Catalog"
      kinds={KINDS}
      columns={COLUMNS}
      draftOf={draftOf}
      list={list}
      save={(draft, options) => api.saveCatalogConnection({ name: draft.name, kind: draft.kind, options })}
      savedNote={savedNote}
      remove={(name) => api.deleteCatalogConnection({ name })}
      onClose={onClose}
    />
  );
}
