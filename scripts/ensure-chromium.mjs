#!/usr/bin/env node
/**
 * The end-to-end tests drive Debian's Chromium (not a browser Playwright downloads). This checks
 * that it is there: CHROMIUM_PATH, else /usr/bin/chromium. When it is missing and we are root on
 * a machine with apt-get, it installs the `chromium` package; otherwise it says exactly what to
 * install and exits non-zero.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH, DEFAULT_CHROMIUM_PATH } from './chromium.mjs';

const wanted = CHROMIUM_PATH;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function run(command, args) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

if (executable(wanted)) {
  console.log(`chromium: ${wanted}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (wanted === DEFAULT_CHROMIUM_PATH && isRoot && hasCommand('apt-get')) {
  console.log(`chromium: ${wanted} is missing; installing Debian's chromium package`);
  if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium']) && executable(wanted)) {
    console.log(`chromium: installed at ${wanted}`);
    process.exit(0);
  }
  console.error(`chromium: installing with apt-get failed; see the output above`);
  process.exit(1);
}

const lines = [`chromium: no Chromium at ${wanted}${process.env.CHROMIUM_PATH ? ' (from CHROMIUM_PATH)' : ''}.`];
if (process.env.CHROMIUM_PATH) {
  lines.push('  Point CHROMIUM_PATH at a Chromium or Chrome executable, or unset it to use /usr/bin/chromium.');
} else {
  lines.push(
    '  Install Debian/Ubuntu Chromium as root:',
    '    sudo apt-get update && sudo apt-get install -y chromium',
    '  or point CHROMIUM_PATH at another Chromium or Chrome executable:',
    '    CHROMIUM_PATH=/path/to/chrome npm test',
  );
}
console.error(lines.join('\n'));
process.exit(1);
