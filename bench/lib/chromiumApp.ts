/**
 * The browser side of `npm run bench:browser`: a production build of the app in a temporary folder
 * (so that a benchmark never overwrites the `dist/` others test against), static servers for it and
 * for speedscope's built app, and Debian's Chromium launched headless with the flags of the e2e tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
// @ts-expect-error: a plain ES module without type declarations
import { serveDist } from '../../scripts/serve-dist.mjs';
import { CHROMIUM_ARGS as E2E_CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

export { CHROMIUM_PATH };
export const CHROMIUM_ARGS = [
  ...E2E_CHROMIUM_ARGS,
  // Exact `performance.memory` figures instead of bucketed ones.
  '--enable-precise-memory-info',
];

/** speedscope's built single-page app, as shipped in its npm package. */
export const SPEEDSCOPE_DIR = resolve('node_modules/speedscope/dist/release');

/** Builds the app into a new temporary folder; returns the folder. */
export function buildApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'nvtxview-bench-dist-'));
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
  return outDir;
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` under `base` on a free local port. */
export async function serve(dir: string, base: string): Promise<Served> {
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`${dir}/index.html is missing`);
  const { server, url } = (await serveDist({ dir, base, port: 0 })) as { server: Server; url: string };
  return {
    url,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** The Chromium version string (e.g. "Chromium 156.0.8078.79 ..."). */
export function chromiumVersion(): string {
  const result = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' });
  return (result.stdout || '').trim();
}
