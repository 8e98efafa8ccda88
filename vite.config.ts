import { createHash } from 'node:crypto';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * The Content-Security-Policy the built page runs under (docs/hosting.md explains each part),
 * as a meta tag in dist/index.html: the inline theme script by its hash, the SQLite engine's
 * WebAssembly, workers from the page's own files, and downloads (`?url=`) from any http(s) origin.
 * Build only: the dev server injects inline scripts of its own.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'nvtxview-csp',
    apply: 'build',
    transformIndexHtml(html) {
      const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
      const policy = [
        "default-src 'self'",
        `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self' https: http: blob: data:",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'none'",
      ].join('; ');
      return html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
    },
  };
}

// base './' keeps every asset path relative, so dist/ works from any sub-path of any static host.
export default defineConfig({
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  worker: { format: 'es' },
  // No source maps in dist/: the published build should not ship its sources.
  // React in a chunk of its own: it changes only with its version, so a deployed update of the app
  // leaves it cached, and neither chunk passes the 500 kB that vite warns about.
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } } },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'testkit/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'collector/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
