// One linter for the whole tree: typescript-eslint's recommended rules over electron/, renderer/, shared/ and test/,
// the rules of hooks and the accessibility rules over the React code, and the design's import boundaries
// (docs/architecture.md, "Layers"): what each folder may import is checked here, not left to review.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = { paths: builtinModules, regex: '^node:' };

/** The Electron wiring: the only files that may import `electron` (everything else in electron/ is plain Node). */
const ELECTRON_ENTRIES = [
  'electron/main.ts',
  'electron/preload.cts',
  'electron/window.ts',
  'electron/dialogs.ts',
  'electron/ipc-electron.ts',
  'electron/menu.ts',
];

/** One no-restricted-imports rule from named restrictions (a later config for the same files replaces, not adds). */
function restrictImports(...restrictions) {
  const paths = restrictions.flatMap((r) =>
    (r.paths ?? []).map((name) => ({ name, message: r.message, ...(r.allowTypeImports ? { allowTypeImports: true } : {}) })),
  );
  const patterns = restrictions.filter((r) => r.regex).map((r) => ({ regex: r.regex, message: r.message }));
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
}

// One module opens SQLite databases and names a failed load of the better-sqlite3 addon in one line; app code opens
// databases through it. Types may still be imported anywhere.
const sqliteBinding = {
  paths: ['better-sqlite3'],
  message: 'open databases with openDatabase from electron/native/sqlite-binding.ts',
  allowTypeImports: true,
};
const electronOutsideEntries = {
  paths: ['electron'],
  message: `only the Electron wiring (${ELECTRON_ENTRIES.join(', ')}) imports electron`,
};
const electronFolder = {
  regex: '^\\.\\.?/(\\.\\./)*electron/',
  message: 'electron/ is the main process: reach it through the shared/ API',
};
const rendererFolder = { regex: '^\\.\\.?/(\\.\\./)*renderer/', message: 'shared/ is the contract both sides use; it imports neither' };

// The main process's layers (docs/architecture.md): storage under the reader, the reader under the sinks, the export,
// the jobs and the app. An import that points upward fails here, not in review.
const readerUpward = {
  regex: '^(\\.\\./)+(sinks|export|jobs|app|cli|server|handoff|state)/',
  message: 'the reader (electron/delta/) is a library under the sinks, the export, the jobs and the app: it never imports them',
};
const readerInternals = {
  regex: '^(\\.\\./)+delta/(?!engine/|scan/scan-types\\.js$)',
  message:
    "a sink takes the reader's batches (delta/scan/scan-types.ts) and its Parquet and Arrow engine (delta/engine/), nothing else of it",
};
const storageUpward = {
  regex: '^\\.\\./(?!\\.\\./shared/)',
  message: 'electron/storage/ is the bottom layer: it imports only shared/, Node and npm packages',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-output/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['electron/**/*.{ts,cts}'],
    ignores: ['electron/native/sqlite-binding.ts', ...ELECTRON_ENTRIES],
    rules: restrictImports(sqliteBinding, electronOutsideEntries),
  },
  { files: ['electron/native/sqlite-binding.ts'], rules: restrictImports(electronOutsideEntries) },
  { files: ['electron/delta/**/*.ts'], rules: restrictImports(sqliteBinding, electronOutsideEntries, readerUpward) },
  { files: ['electron/sinks/**/*.ts'], rules: restrictImports(sqliteBinding, electronOutsideEntries, readerInternals) },
  { files: ['electron/storage/**/*.ts'], rules: restrictImports(sqliteBinding, electronOutsideEntries, storageUpward) },
  { files: ELECTRON_ENTRIES, rules: restrictImports(sqliteBinding) },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    rules: restrictImports(
      { ...NODE_BUILTINS, message: 'the renderer runs in a sandboxed page: no Node' },
      { paths: ['electron'], message: 'the renderer talks to the main process only through the shared/ API' },
      electronFolder,
    ),
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrictImports(
      { ...NODE_BUILTINS, message: 'shared/ runs in the renderer too: no Node' },
      { paths: ['electron', 'better-sqlite3', 'pg'], message: 'shared/ runs in the renderer too: no Node-only packages' },
      electronFolder,
      rendererFolder,
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  { files: ['renderer/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
);
