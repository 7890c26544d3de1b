import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Import patterns of each layer (gitignore-style, matched against the import specifier).
const ENGINE = '**/engine/**';
const WORKER = '**/worker/**';
const STATE = '**/state/**';
const UI = '**/ui/**';
const CLI = '**/cli/**';
const HW = '**/hw/**';
const PRESENT = '**/present/**';
const BROWSER_LIBS = ['react', 'react-dom', 'react-dom/*', 'zustand', 'comlink'];

/** One no-restricted-imports entry per layer: the layers above it are off limits. */
function layers(rules) {
  return rules.map(({ files, below, forbidden }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbidden,
              message: `${below} (ui → state → worker → engine → catalog; cli and hw on the engine)`,
            },
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'playwright-report', 'test-results', 'hw/build'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/state/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Layers: ui → state → worker → engine → catalog, with the ptxf CLI (src/cli) and the GPU
  // harness (hw/) on top of the engine, and the words for people (src/present) composed from
  // engine data for the page and the CLI alike. A file imports only from its own layer or those below.
  ...layers([
    {
      files: ['src/catalog/**/*.ts'],
      below: 'the catalog is the bottom layer: it imports no other layer',
      forbidden: [ENGINE, PRESENT, WORKER, STATE, UI, CLI, HW, ...BROWSER_LIBS],
    },
    {
      files: ['src/engine/**/*.ts'],
      below: 'the engine is pure: it imports only the catalog',
      forbidden: [PRESENT, WORKER, STATE, UI, CLI, HW, ...BROWSER_LIBS],
    },
    {
      files: ['src/present/**/*.ts'],
      below:
        'words for people are composed from engine data: present imports only the engine and the catalog',
      forbidden: [WORKER, STATE, UI, CLI, HW, ...BROWSER_LIBS],
    },
    {
      files: ['src/worker/**/*.ts'],
      below: 'the worker is a shell over the engine: it imports only the engine and the catalog',
      forbidden: [PRESENT, STATE, UI, CLI, HW, 'react', 'react-dom', 'zustand'],
    },
    {
      files: ['src/state/**/*.{ts,tsx}'],
      below: 'state sits below ui',
      forbidden: [UI, CLI, HW],
    },
    {
      files: ['src/ui/**/*.{ts,tsx}', 'src/main.tsx', 'src/build/**/*.ts'],
      below: 'the app and its build do not import the CLI or the GPU harness',
      forbidden: [CLI, HW],
    },
    {
      files: ['src/cli/**/*.ts'],
      below: 'the CLI sits on the engine and the catalog, beside the app',
      forbidden: [WORKER, STATE, UI, HW, ...BROWSER_LIBS],
    },
    {
      files: ['hw/**/*.ts'],
      below: 'the GPU harness sits on the engine and the catalog; nothing under src imports it',
      forbidden: [WORKER, STATE, UI, CLI, ...BROWSER_LIBS],
    },
  ]),
);
