import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../../electron/app/package-root.js';

const require = createRequire(import.meta.url);
const root = packageRoot();

interface BuilderConfig {
  /** As electron-builder normalizes it: patterns under filter. */
  files: (string | { filter: string[] })[];
  asar: boolean;
  npmRebuild: boolean;
  linux: { target: string[] };
  mac: { target: string[]; identity?: string | null };
  win: { target: string[] };
}

/** The configuration as electron-builder itself finds, reads and validates it (its own schema). */
async function builderConfig(): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<BuilderConfig>;
    validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(root, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('npm run dist', () => {
  it('is configured for AppImage and deb, dmg and nsis, in a configuration electron-builder accepts', async () => {
    const config = await builderConfig();
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    // Ad-hoc signed ('-'): Apple silicon runs no unsigned code.
    expect(config.mac.identity).toBe('-');
    expect(config.win.target).toEqual(['nsis']);
  });

  it('builds, then packages everything the app loads, with no native module rebuilt (all are N-API)', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      main: string;
      scripts: Record<string, string>;
      homepage?: string;
      author?: { name: string; email: string };
    };
    expect(pkg.scripts.dist).toBe('npm run build && electron-builder --publish never');
    // The deb target refuses a package.json without them.
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.email).toMatch(/@/);
    const config = await builderConfig();
    const files = config.files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter));
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'dist/electron/**/*', 'dist/shared/**/*', 'dist/renderer/**/*', 'assets/**/*']),
    );
    expect(pkg.main.startsWith('dist/electron/')).toBe(true);
    // Worker threads cannot start from inside an asar archive; N-API modules need no rebuild for Electron's ABI.
    expect(config.asar).toBe(false);
    expect(config.npmRebuild).toBe(false);
  });
});
