/** Generated NVTXT captures for the timeline's end-to-end tests (many threads, deep stacks). */
import type { TextFile } from './support.ts';

/**
 * `threads` threads of process 7 (tids from 51300; even ones named "worker<n>", odd ones unnamed),
 * each with `perThread` sequential 1 ms ranges named "work".
 */
export function manyThreads(threads: number, perThread = 4, name = 'threads.nvtxt'): TextFile {
  const lines = ['SetFileDisplayName, "Many threads"', 'NameProcess, 7, server'];
  for (let t = 0; t < threads; t++) {
    const tid = 51300 + t;
    if (t % 2 === 0) lines.push(`NameOsThread, 7, ${tid}, worker${t}`);
    for (let i = 0; i < perThread; i++) {
      lines.push(`RangePush, ${(i * 2 + 1) * 1_000_000}, ns, 7, ${tid}, 0, Blue, "work", 0`);
      lines.push(`RangePop, ${(i * 2 + 2) * 1_000_000}, ns, 7, ${tid}`);
    }
  }
  return { name, text: lines.join('\n') + '\n' };
}

/** One thread with a push/pop stack `depth` levels deep, named "level 0" .. "level depth-1". */
export function deepStack(depth: number, name = 'deep.nvtxt'): TextFile {
  const lines = ['SetFileDisplayName, "Deep recursion"', 'NameProcess, 9, solver', 'NameOsThread, 9, 16730, main'];
  for (let d = 0; d < depth; d++) lines.push(`RangePush, ${1_000_000 + d * 10_000}, ns, 9, 16730, 0, Green, "level ${d}", 0`);
  for (let d = depth - 1; d >= 0; d--) lines.push(`RangePop, ${9_000_000 - d * 10_000}, ns, 9, 16730`);
  lines.push('RangePush, 9500000, ns, 9, 16730, 0, Blue, "after", 0', 'RangePop, 9900000, ns, 9, 16730');
  return { name, text: lines.join('\n') + '\n' };
}

/** One thread with `count` ranges of 100 ns, one every 300 ns, then a 1 ms range "long": dense blocks when fitted. */
export function denseRanges(count: number, name = 'dense.nvtxt'): TextFile {
  const lines = ['SetFileDisplayName, "Dense"', 'NameProcess, 3, app', 'NameOsThread, 3, 30, main'];
  for (let k = 0; k < count; k++) {
    lines.push(`RangePush, ${k * 300}, ns, 3, 30, 0, Blue, "tiny", 0`, `RangePop, ${k * 300 + 100}, ns, 3, 30`);
  }
  const end = count * 300;
  lines.push(`RangePush, ${end + 1000}, ns, 3, 30, 0, Green, "long", 0`, `RangePop, ${end + 1_001_000}, ns, 3, 30`);
  return { name, text: lines.join('\n') + '\n' };
}
