// `deltaport <table>` / `electron . <table>`: the table named on the command line is opened by loading the page with
// ?table=<path>, which the renderer reads on start (also used by Open Recent and a second launch).
import path from 'node:path';
import { APP_ENTRY_URL } from './security.js';

/**
 * The table folder named in an Electron argv, resolved against cwd. The first entries are the executable and, when
 * not packaged, the app folder ("."); Chromium switches (--foo) are skipped.
 */
export function tableFromArgv(argv: readonly string[], packaged: boolean, cwd: string): string | null {
  const args = argv.slice(packaged ? 1 : 2).filter((a) => !a.startsWith('-'));
  return args.length > 0 ? path.resolve(cwd, args[0]!) : null;
}

export function entryUrl(table: string | null): string {
  return table ? `${APP_ENTRY_URL}?table=${encodeURIComponent(table)}` : APP_ENTRY_URL;
}
