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

/** Refuses a table whose protocol asks for a reader version or feature this reader does not implement. */
export function assertReadable(protocol: Protocol): void {
  // Unknown features are named first: they tell the user more than a version number does.
  const unknown = (protocol.readerFeatures ?? []).filter((f) => !SUPPORTED_READER_FEATURES.includes(f));
  if (unknown.length > 0) {
    const names = unknown.map((f) => `'${f}'`).join(', ');
    throw unsupportedProtocol(
      `unsupported reader feature${unknown.length > 1 ? 's' : ''} ${names} (table requires ${unknown.length > 1 ? 'them' : 'it'}; ` +
        `Deltaport supports ${SUPPORTED_READER_FEATURES.join(', ')})`,
    );
  }
  const version = protocol.minReaderVersion;
  if (!Number.isInteger(version) || version < 1 || version > MAX_READER_VERSION) {
    throw unsupportedProtocol(
      `unsupported reader version ${version} (table requires it; Deltaport reads versions 1 to ${MAX_READER_VERSION})`,
    );
  }
}
