// One linter for the whole tree: typescript-eslint's recommended rules over electron/, renderer/, shared/ and test/,
// plus the rules of hooks and the accessibility rules over the React code.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
    // One module picks the better-sqlite3 addon for the runtime (Node's or Electron's build); app code opens databases
    // through it. Types may still be imported anywhere.
    files: ['electron/**/*.ts'],
    ignores: ['electron/native/sqlite-binding.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'better-sqlite3', message: 'open databases with openDatabase from electron/native/sqlite-binding.ts', allowTypeImports: true }] },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  { files: ['renderer/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
);
