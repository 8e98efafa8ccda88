/**
 * NVTXT decode benchmark: generates files of about one million event lines in memory (nested
 * push/pop on 4 threads, marks, start/end ranges; nanosecond and FileTime time bases) and prints
 * how long `loadModel` takes (decode + build). Run: `node scripts/run-ts.mjs bench/run.ts nvtxt-decode [lines]`.
 */
import { loadModel, memorySource } from '../../src/import/pipeline.ts';

function generate(lines: number, fileTime: boolean): Uint8Array {
  const parts: string[] = ['# generated benchmark input', '@RangePop, Time, ThreadId', 'ProcessId = 4242', `TimeBase = ${fileTime ? 'FileTime' : 'ns'}`];
  parts.push('@RangePop, Time, TimeBase, ProcessId, ThreadId');
  const names = ['forward', 'backward', 'optimizer.step', 'allreduce', 'data.load', 'conv2d', 'matmul', 'softmax'];
  const colors = ['Blue', '0xFF00AA44', 'DarkOrange', '4278190335'];
  const base = fileTime ? 133_500_000_000_000_000n : 1_000_000_000n;
  const clock = [0, 0, 0, 0];
  let written = 0;
  let k = 0;
  while (written < lines) {
    const tid = k % 4;
    const depth = 1 + (k % 5);
    const start = clock[tid];
    // A nested stack: `depth` pushes, then the pops, innermost first.
    for (let d = 0; d < depth; d++) {
      parts.push(`RangePush, ${base + BigInt(start + d * 10)}, $TimeBase, 4242, ${tid}, ${d % 3}, ${colors[(k + d) % 4]}, "${names[(k + d) % 8]}", ${k}`);
    }
    for (let d = depth - 1; d >= 0; d--) parts.push(`RangePop, ${base + BigInt(start + 1000 - d * 10)}, $TimeBase, 4242, ${tid}`);
    parts.push(`Marker, ${base + BigInt(start + 500)}, $TimeBase, 4242, ${tid}, 0, Red, "iteration ${k}", ${k}`);
    parts.push(`RangeStartEnd, ${base + BigInt(start + 100)}, ${base + BigInt(start + 2100)}, $TimeBase, 4242, ${tid}, 7, 0, "io request", ${k}`);
    written += depth * 2 + 2;
    clock[tid] += 1100;
    k++;
  }
  return new TextEncoder().encode(parts.join('\n') + '\n');
}

const lineCount = Number(process.argv[2] ?? 1_000_000);
for (const fileTime of [false, true]) {
  const bytes = generate(lineCount, fileTime);
  // One warm-up run so that the figure is steady-state code, then the measured runs.
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const model = await loadModel(memorySource('bench.nvtxt', bytes));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (run === 0) continue;
    const events = model.ranges.startNs.length + model.marks.timeNs.length;
    console.log(
      `${fileTime ? 'FileTime' : 'ns      '}  ${(bytes.length / 1e6).toFixed(1)} MB  ${lineCount} lines  ${events} events  ` +
        `${ms.toFixed(0)} ms wall (${cpuMs.toFixed(0)} ms CPU)  ${((bytes.length / 1e6 / ms) * 1000).toFixed(0)} MB/s  issues ${model.issues.length}`,
    );
  }
}
