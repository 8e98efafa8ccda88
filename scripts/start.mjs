#!/usr/bin/env node
// `npm start`: the viewer on localhost with the bundled demo capture open. Uses Vite's dev server
// (no build step, so it is up in seconds) and prints the URL to open.
import { createServer } from 'vite';

const port = Number(process.env.PORT ?? 5173);
const server = await createServer({ server: { port, host: '127.0.0.1' }, logLevel: 'warn' });
await server.listen();
const address = server.httpServer?.address();
const actualPort = typeof address === 'object' && address ? address.port : port;
console.log(`\n  nvtxview is running with the demo capture:\n\n    http://localhost:${actualPort}/?demo\n\n  (Ctrl+C to stop)\n`);
