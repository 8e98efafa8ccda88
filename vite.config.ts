import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// base './' keeps every asset path relative, so dist/ works from any sub-path of any static host.
export default defineConfig({
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'collector/**/*.test.ts', 'testkit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
