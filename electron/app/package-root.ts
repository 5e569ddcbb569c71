// The installed package's root (where package.json is), found from this module whether it runs from dist/ or, under
// tsx and vitest, from the sources. Built assets are located from there.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function packageRoot(from: string = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/** The renderer as Vite builds it (renderer/vite.config.ts outDir). */
export function rendererDir(): string {
  return path.join(packageRoot(), 'dist', 'renderer');
}
