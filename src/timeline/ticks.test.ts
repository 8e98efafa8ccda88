import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../testkit/gen/random.ts';
import { axisTicks } from './ticks.ts';
import { TimeScale } from './timeScale.ts';

const UNIT: Record<string, number> = { ns: 1, 'µs': 1e3, ms: 1e6, s: 1e9 };

/** Reads a tick label back into nanoseconds ("+12.4 µs" -> 12400). */
function parseLabel(label: string): number {
  if (label === '0' || label === '+0') return 0;
  const m = /^\+?(-?[\d.]+) (ns|µs|ms|s)$/.exec(label);
  if (!m) throw new Error(`unreadable tick label ${label}`);
  return Number(m[1]) * UNIT[m[2]];
}

describe('axisTicks', () => {
  it('labels a millisecond window in ms with one decimal', () => {
    const axis = axisTicks(new TimeScale(1_000_000, 2_000_000, 1000), 100);
    expect(axis.baseLabel).toBeNull();
    expect(axis.ticks.map((t) => t.label)).toContain('1.5 ms');
    expect(axis.stepNs).toBe(100_000);
    expect(axis.minorStepNs).toBe(20_000);
    expect(axisTicks(new TimeScale(0, 2_000_000, 1000), 100).minorStepNs).toBe(50_000);
  });

  it('labels small windows near zero in ns and µs', () => {
    expect(axisTicks(new TimeScale(0, 500, 1000), 100).ticks.map((t) => t.label)).toEqual([
      '0', '50 ns', '100 ns', '150 ns', '200 ns', '250 ns', '300 ns', '350 ns', '400 ns', '450 ns', '500 ns',
    ]);
    expect(axisTicks(new TimeScale(0, 20_000, 400), 100).ticks.map((t) => t.label)).toEqual(['0', '5 µs', '10 µs', '15 µs', '20 µs']);
  });

  it('switches to a base time plus offsets when zoomed deep far from zero', () => {
    const start = 3_214_512_345;
    const axis = axisTicks(new TimeScale(start, start + 4000, 1000), 100);
    expect(axis.baseLabel).toBe('3.2145 s');
    expect(axis.ticks[0].label).toMatch(/^\+12\.\d µs$/);
  });

  it('prints no "-0" around zero and uses negative labels before the capture start', () => {
    const labels = axisTicks(new TimeScale(-0.3e6, 0.7e6, 1000), 100).ticks.map((t) => t.label);
    expect(labels).toContain('0');
    expect(labels).toContain('-200 µs');
    expect(labels.some((l) => /^-0(\.0+)? /.test(l))).toBe(false);
  });

  it('gives distinct labels that read back to their tick time, for any window (property)', () => {
    const random = seededRandom(11);
    for (let k = 0; k < 1000; k++) {
      const span = 10 * 10 ** (random() * 12);
      const start = (random() - 0.05) * 10 ** (random() * 13);
      const width = 300 + random() * 3500;
      const axis = axisTicks(new TimeScale(start, start + span, width));
      const labels = axis.ticks.map((t) => t.label);
      expect(new Set(labels).size).toBe(labels.length);
      for (const tick of axis.ticks) {
        const read = axis.baseNs + parseLabel(tick.label);
        expect(Math.abs(read - tick.tNs)).toBeLessThanOrEqual(axis.stepNs * 1e-3 + Math.abs(tick.tNs) * 1e-12);
        expect(tick.label.length).toBeLessThanOrEqual(12);
      }
    }
  });

  it('places ticks inside the window, at least the minimum spacing apart', () => {
    const scale = new TimeScale(123, 98_765_432, 1280);
    const axis = axisTicks(scale, 90);
    for (const t of axis.ticks) {
      expect(t.xCss).toBeGreaterThanOrEqual(-1e-6);
      expect(t.xCss).toBeLessThanOrEqual(1280 + 1e-6);
    }
    expect(axis.ticks[1].xCss - axis.ticks[0].xCss).toBeGreaterThanOrEqual(45);
  });
});
