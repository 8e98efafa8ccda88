import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel, memorySource } from '../src/import/pipeline.ts';
import { demoNvtxt } from './make-demo-nvtxt.ts';

const committedPath = new URL('../public/demo/demo.nvtxt', import.meta.url);

describe('demo capture', () => {
  const text = demoNvtxt();

  it('is what the committed public/demo/demo.nvtxt holds (regenerate it after changing the script)', () => {
    expect(readFileSync(committedPath, 'utf8') === text).toBe(true);
    expect(demoNvtxt()).toBe(text);
    expect(Buffer.byteLength(text)).toBeLessThan(300 * 1024);
  });

  it('loads without any issue and shows what the format can do', async () => {
    const m = await loadModel(memorySource('demo.nvtxt', new TextEncoder().encode(text)));
    expect(m.issues).toEqual([]);
    expect(m.capture.format).toBe('nvtxt');
    expect(m.capture.displayName).toBe('ResNet training (demo)');
    expect(m.capture.clock).toBe('CLOCK_MONOTONIC_RAW');
    expect(m.processes.map((p) => p.name)).toEqual(['train.py']);
    expect(m.threads.map((t) => t.name)).toEqual(['main', 'data loader 0', 'data loader 1', 'data loader 2']);
    const child = m.categories.find((c) => c.name === 'Checkpoint I/O')!;
    expect(m.categories[child.parent].name).toBe('I/O');

    const pushpop = m.tracks.filter((t) => t.kind === 'pushpop');
    expect(pushpop).toHaveLength(4);
    expect(Math.max(...pushpop.map((t) => t.levelBegin.length - 1))).toBeGreaterThanOrEqual(5);
    // Overlapping asynchronous reads need several lanes.
    const io = m.tracks.find((t) => t.kind === 'category' && t.label.startsWith('I/O'))!;
    expect(io.levelBegin.length - 1).toBeGreaterThan(1);
    expect(m.marks.timeNs.length).toBeGreaterThan(40);
    // Every range is colored (by name, hex string or ARGB integer); marks take the default palette.
    expect(Array.from(m.ranges.style).filter((s) => m.styles.color[s] === 0)).toEqual([]);

    // Step durations vary, with slow outliers (autotuning, loader stalls, a slow all-reduce).
    const steps: number[] = [];
    for (let r = 0; r < m.ranges.startNs.length; r++) {
      if (/^step \d+$/.test(m.strings[m.styles.name[m.ranges.style[r]]])) steps.push(m.ranges.endNs[r] - m.ranges.startNs[r]);
    }
    const sorted = [...steps].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1];
    expect(steps.length).toBe(40);
    expect(steps.filter((d) => d > median * 1.25).length).toBeGreaterThanOrEqual(2);
  });
});
