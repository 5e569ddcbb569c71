import path from 'node:path';

/** The shared corpus of real Delta tables, beside the repository (../shared/delta-tables). */
export const TABLES_ROOT = path.resolve(import.meta.dirname, '../../../shared/delta-tables');

export function tablePath(name: string): string {
  return path.join(TABLES_ROOT, name);
}
