#!/usr/bin/env node
// Runs a TypeScript file with tsx's ESM loader: node scripts/run-ts.mjs FILE.ts [ARGS...].
// process.argv is shifted so the script sees itself as argv[1] and its own arguments after it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node scripts/run-ts.mjs FILE.ts [ARGS...]\n');
  process.exit(2);
}
const path = resolve(file);
process.argv = [process.argv[0], path, ...args];
register();
await import(pathToFileURL(path).href);
