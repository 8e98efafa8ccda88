import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../testkit/gen/random.ts';
import { TimeScale } from './timeScale.ts';

describe('TimeScale', () => {
  it('round-trips px -> t -> px within the precision a double allows (property)', () => {
    const random = seededRandom(7);
    for (let k = 0; k < 5000; k++) {
      // Windows from 10 ns to a day, placed anywhere in the first day of a capture.
      const span = 10 * 10 ** (random() * 12.9);
      const start = (random() - 0.1) * 8.64e13;
      const width = 100 + random() * 3800;
      const scale = new TimeScale(start, start + span, width);
      const x = random() * width;
      const back = scale.toX(scale.toNs(x));
      // A double near |t| resolves 2^-52 * |t| ns; that error, in pixels, bounds the round trip.
      const ulpNs = Math.max(Math.abs(start), Math.abs(start + span)) * 2 ** -52;
      expect(Math.abs(back - x)).toBeLessThanOrEqual(4 * ulpNs * scale.pxPerNs + 1e-9);
    }
  });

  it('keeps the round-trip error under a tenth of a pixel at the deepest zoom within an hour', () => {
    const scale = new TimeScale(3.6e12, 3.6e12 + 10, 1000);
    for (let x = 0; x <= 1000; x += 37) expect(Math.abs(scale.toX(scale.toNs(x)) - x)).toBeLessThan(0.1);
  });

  it('agrees with d3 scaleLinear', () => {
    const random = seededRandom(3);
    for (let k = 0; k < 200; k++) {
      const start = random() * 1e9;
      const scale = new TimeScale(start, start + 1 + random() * 1e9, 1920);
      const d3 = scale.d3();
      const t = start + random() * 1e9;
      expect(scale.toX(t)).toBeCloseTo(d3(t), 6);
      expect(scale.toNs(500)).toBeCloseTo(d3.invert(500), 3);
    }
  });

  it('maps capture-local times to the shared axis', () => {
    const scale = new TimeScale(1000, 2000, 100);
    const local = scale.forCapture(300);
    expect(local.toX(700)).toBeCloseTo(scale.toX(1000));
    expect(local.toNs(50)).toBeCloseTo(scale.toNs(50) - 300);
  });

  it('survives an empty window', () => {
    const scale = new TimeScale(5, 5, 0);
    expect(Number.isFinite(scale.toX(6))).toBe(true);
    expect(scale.widthCss).toBe(1);
  });
});
