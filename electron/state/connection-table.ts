// One table of saved connections in the state file (storage_connections, catalog_connections): a name, the table's
// own column (a storage connection's prefix, a catalog connection's kind), the options in the clear, and the secret
// options as one encrypted JSON object. Without an encryptor the secrets are held in memory for this run only, and
// the connection says so; their names are kept in the clear either way, so a list shows which are set.
import type Database from 'better-sqlite3';
import type { Encryptor } from './secrets.js';

/** A connection as saved: `secrets` is the whole set of its secret options (empty for none). */
export interface ConnectionRecord {
  name: string;
  options: Record<string, string>;
  secrets: Record<string, string>;
}

/** What a saved connection shows beside its name and own column: its options and which secrets it has, never their
 * values. */
export interface SavedOptions {
  options: Record<string, string>;
  secretsSet: string[];
  secretsNotSaved: boolean;
}

/** What a connection of `kind` is saved with, from the options the user gave and the secrets saved before: secrets
 * left out keep their saved value (where their option still applies to `kind`), secrets given as '' are dropped. */
export function savedSecrets<Kind extends string>(
  given: Record<string, string>,
  saved: Record<string, string>,
  info: Record<string, { kinds: readonly Kind[]; secret?: true }>,
  kind: Kind,
): Pick<ConnectionRecord, 'options' | 'secrets'> {
  const options: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(saved)) {
    if (info[name]?.kinds.includes(kind)) secrets[name] = value;
  }
  for (const [name, value] of Object.entries(given)) {
    if (!info[name]?.secret) options[name] = value;
    else if (value === '') delete secrets[name];
    else secrets[name] = value;
  }
  return { options, secrets };
}

/** How a kind of connection sits in its table. */
export interface ConnectionTableSpec<Rec extends ConnectionRecord, Saved, Own extends string> {
  table: string;
  /** The table's own column, beside the name, options and secrets every connection table has. */
  column: string;
  own: (record: Rec) => Own;
  shown: (name: string, own: Own, saved: SavedOptions) => Saved;
}

interface Row<Own> {
  name: string;
  own: Own;
  options_json: string;
  secret_names_json: string;
  secrets_cipher: Buffer | null;
  secrets_not_saved: number;
}

export class ConnectionTable<Rec extends ConnectionRecord, Saved, Own extends string> {
  /** Secrets of this run when there is no encryptor, by connection name. */
  private readonly held = new Map<string, Record<string, string>>();

  constructor(
    private readonly db: Database.Database,
    private readonly encryptor: Encryptor | null,
    private readonly spec: ConnectionTableSpec<Rec, Saved, Own>,
  ) {}

  /** Saves a connection, replacing one of the same name. */
  save(record: Rec, now = Date.now()): Saved {
    const { table, column } = this.spec;
    const { names, cipher, notSaved } = this.keep(record.name, record.secrets);
    this.db
      .prepare(
        `INSERT INTO ${table} (name, ${column}, options_json, secret_names_json, secrets_cipher, secrets_not_saved, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET ${column} = excluded.${column}, options_json = excluded.options_json,
           secret_names_json = excluded.secret_names_json, secrets_cipher = excluded.secrets_cipher,
           secrets_not_saved = excluded.secrets_not_saved, updated_at = excluded.updated_at`,
      )
      .run(record.name, this.spec.own(record), JSON.stringify(record.options), JSON.stringify(names), cipher, notSaved ? 1 : 0, now);
    return this.shown(this.row(record.name)!);
  }

  /** Saved connections by name, without any secret value. */
  list(): Saved[] {
    const rows = this.db.prepare(`SELECT *, ${this.spec.column} AS own FROM ${this.spec.table} ORDER BY name`).all() as Row<Own>[];
    return rows.map((row) => this.shown(row));
  }

  /** A connection's secret options, decrypted; {} when it has none, or they cannot be decrypted or were not kept. */
  secrets(name: string): Record<string, string> {
    const row = this.row(name);
    if (!row) return {};
    if (!row.secrets_cipher) return { ...(this.held.get(name) ?? {}) };
    if (!this.encryptor) return {};
    try {
      return JSON.parse(this.encryptor.decrypt(row.secrets_cipher)) as Record<string, string>;
    } catch {
      return {};
    }
  }

  delete(name: string): boolean {
    this.held.delete(name);
    return this.db.prepare(`DELETE FROM ${this.spec.table} WHERE name = ?`).run(name).changes > 0;
  }

  private row(name: string): Row<Own> | undefined {
    return this.db.prepare(`SELECT *, ${this.spec.column} AS own FROM ${this.spec.table} WHERE name = ?`).get(name) as Row<Own> | undefined;
  }

  private shown(row: Row<Own>): Saved {
    // Secrets that were not saved are set only while this run still holds them.
    const held = row.secrets_cipher !== null || this.held.has(row.name);
    return this.spec.shown(row.name, row.own, {
      options: JSON.parse(row.options_json) as Record<string, string>,
      secretsSet: held ? (JSON.parse(row.secret_names_json) as string[]) : [],
      secretsNotSaved: row.secrets_not_saved === 1,
    });
  }

  /** The secrets encrypted when an encryptor exists; otherwise held in memory for this run only. */
  private keep(name: string, secrets: Record<string, string>) {
    const names = Object.keys(secrets).sort();
    this.held.delete(name);
    if (names.length === 0) return { names, cipher: null, notSaved: false };
    if (this.encryptor) return { names, cipher: this.encryptor.encrypt(JSON.stringify(secrets)), notSaved: false };
    this.held.set(name, { ...secrets });
    return { names, cipher: null, notSaved: true };
  }
}
