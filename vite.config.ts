import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The app is a static site: relative base so the built `dist/` works from any path or file host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
