/**
 * Writes a generated capture to a file:
 *   node scripts/run-ts.mjs testkit/gen/main.ts --format nvtxt --events 1000000 --seed 1 --out FILE
 * Formats are listed in FORMATS; each writer module consumes the shared event stream (events.ts).
 * `--padding BYTES` (nvtxc, chrome-json) pads the capture with what a reader skips (unknown chunks,
 * whitespace) up to that file size; `--one-line` and `--nested-args` (chrome-json) write the trace
 * on one line and with nested `args`, as Chrome and Python's `json.dump` do.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { writeChromeJson, type ChromeJsonOptions } from './chromeJson.ts';
import { writeNative, type NativeOptions } from './native.ts';
import { writeNsys } from './nsys.ts';
import { writeNvtxt } from './nvtxt.ts';
import { FileSink, type Sink } from './sink.ts';
import type { GenOptions } from './events.ts';

/** Options any writer accepts (each reads the ones it knows). */
export type WriterOptions = GenOptions & NativeOptions & ChromeJsonOptions;

/** Format id (the importer id) -> writer; a writer returns the number of ranges + marks written. */
export const FORMATS: Record<string, (sink: Sink, options: WriterOptions) => number | Promise<number>> = {
  nvtxt: writeNvtxt,
  'chrome-json': writeChromeJson,
  nvtxc: writeNative,
  'nsys-sqlite': writeNsys,
};

/** Usual file name ending per format. */
export const EXTENSIONS: Record<string, string> = { nvtxt: 'nvtxt', 'chrome-json': 'json', nvtxc: 'nvtxc', 'nsys-sqlite': 'sqlite' };

/** Generates `format` into `path`; returns events written and bytes. */
export async function generateFile(path: string, format: string, options: WriterOptions): Promise<{ events: number; bytes: number }> {
  const writer = FORMATS[format];
  if (!writer) throw new Error(`unknown format "${format}" (known: ${Object.keys(FORMATS).join(', ')})`);
  const sink = new FileSink(path);
  try {
    const events = await writer(sink, options);
    sink.flush();
    return { events, bytes: sink.size };
  } finally {
    sink.close();
  }
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      format: { type: 'string', default: 'nvtxt' },
      events: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '1' },
      threads: { type: 'string' },
      padding: { type: 'string' },
      'one-line': { type: 'boolean', default: false },
      'nested-args': { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  if (!values.out) throw new Error('--out FILE is required');
  const result = await generateFile(values.out, values.format!, {
    events: Number(values.events),
    seed: Number(values.seed),
    threads: values.threads === undefined ? undefined : Number(values.threads),
    padding: values.padding === undefined ? undefined : Number(values.padding),
    oneLine: values['one-line'],
    nestedArgs: values['nested-args'],
  });
  process.stdout.write(`${values.out}: ${result.events} events, ${result.bytes} bytes\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  run().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
