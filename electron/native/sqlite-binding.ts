// Where every process opens SQLite. better-sqlite3 13 ships one N-API build per platform inside its npm package
// (prebuilds/), which Node 22 and Electron 45 load alike: nothing is compiled or downloaded for the desktop app. The
// addon is loaded on the first database opened, so a machine without a build for its platform learns that in one line
// when it first exports to SQLite, not as a stack trace at start.
import Database from 'better-sqlite3';
import { DeltaportError } from '../../shared/errors.js';

/** Thrown for a file that SQLite cannot read. */
export const SqliteError = Database.SqliteError;

/** Failures of loading the addon itself, as Node reports them (module not found, wrong ABI, wrong architecture). */
function isAddonLoadFailure(err: unknown): err is Error {
  return err instanceof Error && /better_sqlite3\.node|prebuilds[\\/]|ERR_DLOPEN_FAILED|MODULE_NOT_FOUND|invalid ELF|wrong ELF/.test(`${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`);
}

export function openDatabase(file: string, options: Database.Options = {}): Database.Database {
  try {
    return new Database(file, options);
  } catch (err) {
    if (!isAddonLoadFailure(err)) throw err;
    const cause = err.message.split('\n')[0];
    throw new DeltaportError('INTERNAL', `SQLite's native module (better-sqlite3) could not be loaded on ${process.platform}-${process.arch} (${cause})`);
  }
}
