import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../src/import/pipeline.ts';
import { modelPayloadJson } from '../src/model/extPayloadReader.ts';
import type { Model, Track } from '../src/model/types.ts';
import { modelViolations } from '../testkit/models/invariants.ts';
import { demoNvtxc } from './make-demo-nvtxc.ts';

const committedPath = new URL('../public/demo/demo.nvtxc', import.meta.url);

function counterSeries(m: Model, t: Track): { t: number; v: number }[] {
  return Array.from(m.counters.timeNs.subarray(t.counterBegin, t.counterEnd), (time, k) => ({ t: time, v: m.counters.value[t.counterBegin + k] }));
}

function rangesNamed(m: Model, re: RegExp): number[] {
  const out: number[] = [];
  for (let r = 0; r < m.ranges.startNs.length; r++) if (re.test(m.strings[m.styles.name[m.ranges.style[r]]])) out.push(r);
  return out;
}

describe('demo capture', () => {
  const bytes = demoNvtxc();

  it('is what the committed public/demo/demo.nvtxc holds (regenerate it after changing the script)', () => {
    expect(Buffer.compare(readFileSync(committedPath), bytes)).toBe(0);
    expect(Buffer.compare(demoNvtxc(), bytes)).toBe(0);
    expect(bytes.length).toBeLessThan(300 * 1024);
  });

  it('loads without any issue, with named threads, categories, payloads and marks', async () => {
    const m = await loadModel(memorySource('demo.nvtxc', bytes));
    expect(m.issues).toEqual([]);
    expect(modelViolations(m)).toEqual([]);
    expect(m.capture.format).toBe('nvtxc');
    expect(m.capture.clock).toBe('CLOCK_MONOTONIC_RAW');
    expect(m.processes.map((p) => p.name)).toEqual(['train.py']);
    expect(m.threads.map((t) => t.name)).toEqual(['main', 'data loader 0', 'data loader 1', 'data loader 2']);
    expect(m.categories.map((c) => c.name)).toEqual(['Compute', 'Data loading', 'I/O', 'Communication', 'Checkpoint I/O']);

    const pushpop = m.tracks.filter((t) => t.kind === 'pushpop');
    expect(pushpop).toHaveLength(4);
    expect(Math.max(...pushpop.map((t) => t.levelBegin.length - 1))).toBeGreaterThanOrEqual(6);
    // Overlapping asynchronous reads need several lanes.
    const io = m.tracks.find((t) => t.kind === 'category' && t.label.startsWith('I/O'))!;
    expect(io.levelBegin.length - 1).toBeGreaterThan(1);
    expect(m.marks.timeNs.length).toBeGreaterThan(80);
    // Every range is colored.
    expect(Array.from(m.ranges.style).filter((s) => m.styles.color[s] === 0)).toEqual([]);
    // Each step carries its structured payload.
    const step3 = rangesNamed(m, /^step 3$/)[0];
    expect(modelPayloadJson(m, m.ranges.payload[step3])).toMatchObject({ step: 3, epoch: 1, 'learning rate': 0.4 });

    // Step durations vary, with slow outliers (autotuning, loader stalls, a slow all-reduce).
    const steps = rangesNamed(m, /^step \d+$/).map((r) => m.ranges.endNs[r] - m.ranges.startNs[r]);
    const sorted = [...steps].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1];
    expect(steps.length).toBe(40);
    expect(steps.filter((d) => d > median * 1.25).length).toBeGreaterThanOrEqual(2);
  });

  it('has counters a first look shows: a loss curve, memory in use, a queue, a counter of changes and its running total', async () => {
    const m = await loadModel(memorySource('demo.nvtxc', bytes));
    const counters = new Map(m.tracks.filter((t) => t.kind === 'counter').map((t) => [t.label, t]));
    expect([...counters.keys()].sort()).toEqual(['GPU memory in use', 'batches ready', 'bytes read', 'bytes read (running total)', 'learning rate', 'loss']);
    // The training loop's counters sit under the main thread (in view when the demo opens).
    for (const name of ['loss', 'learning rate', 'GPU memory in use']) expect(m.threads[counters.get(name)!.thread].name).toBe('main');

    const loss = counterSeries(m, counters.get('loss')!);
    expect(loss).toHaveLength(40);
    expect(loss[loss.length - 1].v).toBeLessThan(loss[0].v / 3);

    const memory = counterSeries(m, counters.get('GPU memory in use')!);
    expect(counters.get('GPU memory in use')!.unit).toBe('bytes');
    const values = memory.map((s) => s.v);
    // Rises through each forward pass and falls back: a sawtooth between ~3 GiB and ~9 GiB.
    expect(Math.min(...values)).toBeGreaterThan(3 * 1024 ** 3);
    expect(Math.max(...values)).toBeGreaterThan(2 * Math.min(...values));
    expect(memory.length).toBeGreaterThan(40 * 10);

    // The queue runs dry while slow reads stall a loader.
    const queue = counterSeries(m, counters.get('batches ready')!).map((s) => s.v);
    expect(Math.min(...queue)).toBe(0);
    expect(Math.max(...queue)).toBeGreaterThanOrEqual(2);

    const read = counterSeries(m, counters.get('bytes read')!);
    const total = counterSeries(m, counters.get('bytes read (running total)')!);
    expect(counters.get('bytes read')!.counter).toMatchObject({ valueType: 'delta' });
    expect(total[total.length - 1].v).toBe(read.reduce((sum, s) => sum + s.v, 0));
  });
});
