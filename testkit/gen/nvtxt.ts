/**
 * Writes the generated event stream as NVTXT (nvtx-guide-and-nvtxt-format.txt section 4). The
 * file exercises the format the way real emitters do: static variables (TimeBase, ProcessId) with
 * custom command definitions, `$var` expansion, colors as decimal and hex integers, hex strings
 * and System.Drawing names, quoted and bare-identifier messages, a category hierarchy, and lines
 * in per-thread bursts rather than global time order.
 */
import { NAMED_COLORS, generateEvents, makeHeader, type GenOptions } from './events.ts';
import type { Sink } from './sink.ts';

export interface NvtxtOptions extends GenOptions {
  /** TimeBase of the timestamps, which are integer nanoseconds (default 'ClockMonotonicRaw'). */
  timeBase?: string;
}

const COLOR_NAMES = new Map(Object.entries(NAMED_COLORS).map(([name, argb]) => [argb, name]));
/** The most frequent names go through variables N0..N4. */
const NAME_VARIABLES = 5;

function colorText(argb: number, nameId: number): string {
  if (argb === 0) return '0';
  const named = COLOR_NAMES.get(argb);
  if (named !== undefined && nameId % 2 === 0) return named;
  const hex = argb.toString(16).toUpperCase().padStart(8, '0');
  switch (nameId % 3) {
    case 0:
      return String(argb);
    case 1:
      return `0x${hex}`;
    default:
      return `"0x${hex}"`;
  }
}

function messageText(name: string, nameId: number): string {
  if (nameId < NAME_VARIABLES) return `$N${nameId}`;
  return nameId % 5 === 1 ? name : `"${name}"`;
}

/** Writes an NVTXT capture; returns the number of ranges + marks written. */
export function writeNvtxt(sink: Sink, options: NvtxtOptions): number {
  const header = makeHeader(options);
  const lines: string[] = [];
  lines.push(`# nvtxview generated capture: seed ${header.seed}, ${options.events} events, ${header.threads.length} threads`);
  lines.push(`SetFileDisplayName, "${header.displayName}"`);
  lines.push(`TimeBase = ${options.timeBase ?? 'ClockMonotonicRaw'}`);
  lines.push(`ProcessId = ${header.process.pid}`);
  lines.push(`NameProcess, $ProcessId, "${header.process.name}"`);
  for (const t of header.threads) lines.push(`NameOsThread, $ProcessId, ${t.tid}, "${t.name}"`);
  for (const c of header.categories) lines.push(`NameCategory, ${c.id}, "${c.name}"`);
  for (const c of header.categories) if (c.parent !== 0) lines.push(`AddChildCategory, ${c.parent}, ${c.id}`);
  for (let i = 0; i < Math.min(NAME_VARIABLES, header.names.length); i++) lines.push(`N${i} = "${header.names[i]}"`);
  lines.push('@RangePush, Time, ThreadId, CategoryId, Color, Message');
  lines.push('@RangePop, Time, ThreadId');
  lines.push('@Marker, Time, ThreadId, CategoryId, Color, Message, Payload');
  lines.push('@RangeStartEnd, Start, End, ThreadId, CategoryId, Color, Message, Payload');
  sink.text(lines.join('\n') + '\n');

  const tid = header.threads.map((t) => t.tid);
  const color = header.colors.map((c, i) => colorText(c, i));
  const message = header.names.map((n, i) => messageText(n, i));
  let count = 0;
  for (const e of generateEvents(header, { ...options, pushPop: 'split' })) {
    switch (e.kind) {
      case 'push':
        sink.text(`RangePush, ${e.t}, ${tid[e.thread]}, ${e.category}, ${color[e.name]}, ${message[e.name]}\n`);
        count++;
        break;
      case 'pop':
        sink.text(`RangePop, ${e.t}, ${tid[e.thread]}\n`);
        break;
      case 'mark':
        sink.text(`Marker, ${e.t}, ${tid[e.thread]}, ${e.category}, ${color[e.name]}, ${message[e.name]}, ${e.payload ?? 0}\n`);
        count++;
        break;
      case 'startEnd':
        sink.text(
          `RangeStartEnd, ${e.start}, ${e.end}, ${tid[e.thread]}, ${e.category}, ${color[e.name]}, ${message[e.name]}, ${e.payload ?? 0}\n`,
        );
        count++;
        break;
      case 'range':
        throw new Error('NVTXT writes push/pop ranges as separate lines');
    }
  }
  return count;
}
