import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy, CSP_HEADER } from './src/build/csp.ts';
import { prerenderDefaultState } from './src/build/prerender.ts';

// The app is a static site: relative base so the built `dist/` works from any path or file host.
export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy(), prerenderDefaultState()],
  // The built page carries its policy in a <meta>; preview also sends it as a header, the only
  // way frame-ancestors takes effect.
  preview: { headers: { 'Content-Security-Policy': CSP_HEADER } },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Every module the page's entry imports statically goes into one chunk: the first load
    // fetches them all anyway, and one file compresses better than the common chunks that modules
    // shared with the lazy chunks would otherwise be split into. The same for what every load
    // fetches right after the entry (the question's and the answer's views, and the evaluation
    // with its engine): one chunk, `page-parts`, instead of some thirty small ones, each a request.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            {
              name: 'page-parts',
              test: /src\/(ui\/(question|answer)-views|state\/evaluate-on-edit)\.ts$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'],
    // The suites evaluate forms of every family synchronously, as the CLI and the worker do.
    setupFiles: ['src/engine/all-families.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
