/**
 * Debian's Chromium as every browser test and benchmark launches it: CHROMIUM_PATH or
 * /usr/bin/chromium, headless, without sandbox (CI runs as root), GPU or background network
 * traffic (the machine's network is closed; those connections only fail).
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
