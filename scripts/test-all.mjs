#!/usr/bin/env node
// `npm test`: every check, in order, stopping at the first failure: type-check, unit tests (which
// also build and run the collector's C tests), then the production build and the end-to-end tests
// in Debian Chromium.
import { spawnSync } from 'node:child_process';

const steps = [
  ['type-check', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit tests', 'npx', ['vitest', 'run']],
  ['chromium', 'node', ['scripts/ensure-chromium.mjs']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['end-to-end tests', 'npx', ['playwright', 'test']],
];

const env = { ...process.env, TZ: 'UTC' };
for (const [label, cmd, args] of steps) {
  const t0 = Date.now();
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n=== ${label} FAILED after ${seconds} s (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`=== ${label} passed in ${seconds} s`);
}
