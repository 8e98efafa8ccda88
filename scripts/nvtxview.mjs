#!/usr/bin/env node
// The `nvtxview` command: runs src/cli/main.ts in Node through tsx (no build step).
import { tsImport } from 'tsx/esm/api';

const { main } = await tsImport('../src/cli/main.ts', import.meta.url);
// A closed pipe (e.g. `nvtxview events ... | head`) ends the output quietly.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`nvtxview: internal error: ${e?.stack ?? e}\n`);
  process.exitCode = 70;
}
