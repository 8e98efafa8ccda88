/**
 * End-to-end tests: Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium, checked by
 * scripts/ensure-chromium.mjs) against the built dist/, served under a sub-path on a free port
 * to prove that the build works from any sub-path. Build first: `npx vite build`.
 */
import { execFileSync } from 'node:child_process';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

/** The site is served under this sub-path, never at the root. */
const BASE_PATH = '/nvtxview/';

/**
 * A free port, chosen once by the runner and inherited by its workers through the environment
 * (the config is evaluated again in each worker process).
 */
function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

process.env.NVTXVIEW_E2E_PORT ||= String(freePort());
const port = Number(process.env.NVTXVIEW_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}${BASE_PATH}`;

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 720 },
    actionTimeout: 5_000,
    navigationTimeout: 10_000,
    screenshot: 'only-on-failure',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `node scripts/serve-dist.mjs --port ${port} --base ${BASE_PATH}`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 15_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
