// Which tables this reader may read (PROTOCOL.md "Protocol Evolution" and "Table Features").
import type { Protocol } from './log/actions.js';
import { unsupportedProtocol } from './errors.js';

export const MAX_READER_VERSION = 3;

/** Reader features whose semantics the reader implements (the scan side handles the data-level ones). */
export const SUPPORTED_READER_FEATURES: readonly string[] = [
  'columnMapping',
  'deletionVectors',
  'timestampNtz',
  'timestampWithoutTimezone',
  'typeWidening',
  'typeWidening-preview',
  'v2Checkpoint',
  'vacuumProtocolCheck',
  'variantType',
  'variantType-preview',
  'variantShredding',
  'variantShredding-preview',
];

/** The reader features of catalog-managed tables (the preview name included). */
const CATALOG_MANAGED: readonly string[] = ['catalogManaged', 'catalogOwned-preview'];

/** The supported features in a user's words, each family once (preview names are the same feature). */
const FEATURE_WORDS: Record<string, string> = {
  columnMapping: 'column mapping',
  deletionVectors: 'deletion vectors',
  timestampNtz: 'timestamps without time zone',
  timestampWithoutTimezone: 'timestamps without time zone',
  typeWidening: 'type widening',
  'typeWidening-preview': 'type widening',
  v2Checkpoint: 'V2 checkpoints',
  vacuumProtocolCheck: 'the vacuum protocol check',
  variantType: 'variant columns',
  'variantType-preview': 'variant columns',
  variantShredding: 'shredded variants',
  'variantShredding-preview': 'shredded variants',
};

/** Refuses a table whose protocol asks for a reader version or feature this reader does not implement: one sentence
 * naming what the table uses, then what Deltaport reads. */
export function assertReadable(protocol: Protocol): void {
  // A catalog-managed table's newest commits may be known only to its catalog (PROTOCOL.md "Catalog-managed
  // tables"): read from storage alone it would show an older version as the latest, so it is refused by name.
  const managed = (protocol.readerFeatures ?? []).find((f) => CATALOG_MANAGED.includes(f));
  if (managed) {
    throw unsupportedProtocol(
      `This table is managed by its catalog (reader feature '${managed}'): its latest commits are kept by the catalog, ` +
        'and Deltaport reads only tables whose log is complete in storage.',
    );
  }
  // Unknown features are named first: they tell the user more than a version number does.
  const unknown = (protocol.readerFeatures ?? []).filter((f) => !SUPPORTED_READER_FEATURES.includes(f));
  if (unknown.length > 0) {
    const names = unknown.map((f) => `'${f}'`).join(' and ');
    const supported = [...new Set(SUPPORTED_READER_FEATURES.map((f) => FEATURE_WORDS[f]))].join(', ');
    throw unsupportedProtocol(
      `This table uses the reader feature${unknown.length > 1 ? 's' : ''} ${names}, which Deltaport cannot read; ` +
        `it reads tables with ${supported}.`,
    );
  }
  const version = protocol.minReaderVersion;
  if (!Number.isInteger(version) || version < 1 || version > MAX_READER_VERSION) {
    throw unsupportedProtocol(
      `This table needs reader version ${version}, which Deltaport cannot read; it reads versions 1 to ${MAX_READER_VERSION}.`,
    );
  }
}
