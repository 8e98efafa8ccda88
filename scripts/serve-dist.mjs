#!/usr/bin/env node
/**
 * A tiny static file server for the built `dist/`, with no dependencies, for the end-to-end tests
 * and for trying the production build. It serves the site under a sub-path (default /nvtxview/),
 * which proves that the build only uses relative asset paths.
 *
 *   node scripts/serve-dist.mjs [--port 4173] [--base /nvtxview/] [--dir dist] [--host 127.0.0.1]
 *
 * --port 0 picks a free port. Prints the URL once listening.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.nvtxt': 'text/plain; charset=utf-8',
  '.gz': 'application/gzip',
};

/** `/nvtxview` and `nvtxview/` both become `/nvtxview/`. */
function normalizeBase(base) {
  const trimmed = base.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/**
 * Starts the server; resolves with it and its URL once listening.
 * @param {{ dir?: string, base?: string, port?: number, host?: string }} options
 */
export async function serveDist({ dir = 'dist', base = '/nvtxview/', port = 4173, host = '127.0.0.1' } = {}) {
  const root = resolve(dir);
  const prefix = normalizeBase(base);
  const server = createServer(async (req, res) => {
    const send = (status, text, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed', { allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return send(400, 'bad path');
    }
    if (path === prefix.slice(0, -1) || (path === '/' && prefix !== '/')) {
      return send(302, `see ${prefix}`, { location: `${prefix}${url.search}` });
    }
    if (!path.startsWith(prefix)) return send(404, `not found: everything is under ${prefix}`);
    const relative = normalize(path.slice(prefix.length) || 'index.html');
    let file = join(root, relative);
    // Refuse anything that escapes the served folder (.., encoded or not).
    if (file !== root && !file.startsWith(root + sep)) return send(403, 'forbidden');
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      res.writeHead(200, {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': 'no-cache',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch {
      send(404, `not found: ${path}`);
    }
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return { server, url: `http://${host}:${actualPort}${prefix}` };
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--port') options.port = Number(value());
    else if (flag === '--base') options.base = value();
    else if (flag === '--dir') options.dir = value();
    else if (flag === '--host') options.host = value();
    else {
      console.error(`serve-dist: unknown argument ${argv[i]}\nusage: node scripts/serve-dist.mjs [--port N] [--base /path/] [--dir dist] [--host 127.0.0.1]`);
      process.exit(2);
    }
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0)) {
    console.error(`serve-dist: --port needs a port number`);
    process.exit(2);
  }
  return options;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const options = parseArgs(process.argv.slice(2));
  try {
    await stat(join(resolve(options.dir ?? 'dist'), 'index.html'));
  } catch {
    console.error(`serve-dist: ${resolve(options.dir ?? 'dist')}/index.html is missing: run \`npm run build\` first`);
    process.exit(1);
  }
  const { url } = await serveDist(options);
  console.log(`serving ${options.dir ?? 'dist'}/ at ${url}`);
}
