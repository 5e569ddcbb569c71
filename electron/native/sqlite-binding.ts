// Which compiled better-sqlite3 addon a process loads, decided in one place. npm installs it built for Node's ABI,
// which the CLI, `deltaport serve` and the tests use as it is. Electron loads native modules only when built for
// its own ABI, so the desktop app loads a second build, kept in a folder of its own under native/ (named by the
// better-sqlite3 version, Electron's ABI, platform and arch, so that an upgrade of either never loads a stale one).
// The launcher (electron/launcher/) puts it there; every place that opens a database goes through openDatabase.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DeltaportError } from '../../shared/errors.js';
import { packageRoot } from '../app/package-root.js';

/**
 * Carries the chosen addon to the process's threads: worker threads get a copy of the environment, while Electron
 * is not known to set process.versions.electron inside them.
 */
export const BINDING_ENV = 'DELTAPORT_SQLITE_BINDING';

export interface Runtime {
  versions: Partial<NodeJS.ProcessVersions>;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  arch: string;
}

/** The folder that holds the Electron build for a runtime (its addon is build/Release/better_sqlite3.node). */
export function electronBindingDir(root: string, runtime: Runtime, sqliteVersion: string): string {
  const name = `better-sqlite3-${sqliteVersion}-electron-v${runtime.versions.modules}-${runtime.platform}-${runtime.arch}`;
  return path.join(root, 'native', name);
}

export function electronBindingFile(root: string, runtime: Runtime, sqliteVersion: string): string {
  return path.join(electronBindingDir(root, runtime, sqliteVersion), 'build', 'Release', 'better_sqlite3.node');
}

/** The addon a runtime loads: a path for Electron (or a thread of it), undefined for better-sqlite3's own Node build. */
export function sqliteBinding(runtime: Runtime, root: string, sqliteVersion: string): string | undefined {
  const inherited = runtime.env[BINDING_ENV];
  if (inherited) return inherited;
  if (runtime.versions.electron === undefined) return undefined;
  return electronBindingFile(root, runtime, sqliteVersion);
}

export function installedSqliteVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('better-sqlite3/package.json') as { version: string }).version;
}

const binding = sqliteBinding(process, packageRoot(), installedSqliteVersion());
if (binding) process.env[BINDING_ENV] = binding;

/** Thrown for a file that SQLite cannot read; the same class whichever addon is loaded. */
export const SqliteError = Database.SqliteError;

/** What to run when the Electron build is missing; the launcher's own preparation step. */
export const PREPARE_COMMAND = 'npm run electron:prepare';

export function openDatabase(file: string, options: Omit<Database.Options, 'nativeBinding'> = {}): Database.Database {
  if (binding && !existsSync(binding)) {
    throw new DeltaportError('INTERNAL', `better-sqlite3 built for Electron is missing (${binding}); run \`${PREPARE_COMMAND}\` with network access`);
  }
  return new Database(file, binding ? { ...options, nativeBinding: binding } : options);
}
