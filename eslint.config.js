import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  {
    // Layering: the engine and the catalog are pure; they never reach up into worker, state or UI.
    files: ['src/engine/**/*.ts', 'src/catalog/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/ui/**',
                '**/state/**',
                '**/worker/**',
                'react',
                'react-dom',
                'zustand',
                'comlink',
              ],
              message: 'engine/catalog must stay pure (ui → state → worker → engine → catalog)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/catalog/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/engine/**',
                '**/ui/**',
                '**/state/**',
                '**/worker/**',
                'react',
                'react-dom',
                'zustand',
                'comlink',
              ],
              message: 'the catalog is the bottom layer (ui → state → worker → engine → catalog)',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker is a thin shell over the engine: it must not reach up into state or UI.
    files: ['src/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/state/**', 'react', 'react-dom', 'zustand'],
              message: 'worker sits below state and ui',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/state/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/ui/**'], message: 'state sits below ui' }] },
      ],
    },
  },
);
