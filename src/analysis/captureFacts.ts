/**
 * What the page's Capture tab and `nvtxview info` say about a loaded file: what it is (format, size, clock, span), what it
 * holds (NVTX ranges and marks, API calls and GPU work apart, counter samples), how loading it went, and the facts the file itself records (`CaptureInfo.properties`:
 * the command line, the tool and its versions, GPUs, session start...), in the order the importer gave them.
 */
import { formatBytes, formatCount } from '../format/numbers.ts';
import { formatDuration } from '../format/time.ts';
import { isGpuWorkRow } from '../model/cudaRows.ts';
import { countIssues } from '../model/issueList.ts';
import type { Model } from '../model/types.ts';

export interface CaptureFacts {
  title: string;
  /** What nvtxview knows of the file, as [label, value]. */
  facts: [string, string][];
  /** What the file records about itself, as [key, value]. */
  properties: [string, string][];
}

/** `formatLabel`: the importer's name of the format; `decodeMs`: how long the load took, when known. */
export function captureFacts(m: Model, options: { formatLabel: string; decodeMs?: number }): CaptureFacts {
  const c = m.capture;
  const format = options.formatLabel;
  const severities = countIssues(m.issues);
  let nvtx = 0;
  let api = 0;
  let gpu = 0;
  for (const t of m.tracks) {
    const n = t.rangeEnd - t.rangeBegin;
    if (t.kind === 'pushpop' || t.kind === 'category') nvtx += n;
    else if (t.kind === 'api') api += n;
    else if (isGpuWorkRow(t)) gpu += n;
  }
  const facts: [string, string][] = [
    ['File', c.fileName],
    ['Format', format],
    ['Size', `${formatBytes(c.byteSize)} (${formatCount(c.byteSize)} bytes)`],
    ['Duration', formatDuration(m.durationNs)],
    ['Clock', c.clock],
    ['Time zero', timeZero(c.originNs, c.clock)],
    ['Processes', formatCount(m.processes.length)],
    ['Threads', formatCount(m.threads.length)],
    ['Ranges', formatCount(nvtx)],
    ...(api > 0 ? ([['API calls', formatCount(api)]] as [string, string][]) : []),
    ...(gpu > 0 ? ([['GPU work', formatCount(gpu)]] as [string, string][]) : []),
    ['Marks', formatCount(m.marks.timeNs.length)],
    ['Counter samples', formatCount(m.counters.timeNs.length)],
    ['Rows', formatCount(m.tracks.length)],
    ...(options.decodeMs !== undefined ? ([['Decoded in', formatDuration(Math.round(options.decodeMs * 1e6))]] as [string, string][]) : []),
    ['Load report', `${plural(severities.error, 'error')}, ${plural(severities.warning, 'warning')}, ${formatCount(severities.info)} info`],
  ];
  if (c.displayName !== c.fileName) facts.unshift(['Name', c.displayName]);
  return { title: c.displayName, facts, properties: Object.entries(c.properties) };
}

/** The model's zero: a date where the clock is UTC, else the clock's own count. */
export function timeZero(originNs: string, clock: string): string {
  if (clock === 'UTC' && /^\d+$/.test(originNs)) {
    const ns = BigInt(originNs);
    const date = new Date(Number(ns / 1_000_000n)).toISOString();
    // ISO date and time to the second, then all nine decimals of the second.
    return `${date.slice(0, 10)} ${date.slice(11, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')} UTC`;
  }
  return `${originNs} ns of ${clock}`;
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}
