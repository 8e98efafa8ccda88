import { describe, expect, it } from 'vitest';
import { buildCapturePair } from '../../../testkit/gen/comparePair.ts';
import { compareCaptures } from '../../analysis/compare/index.ts';
import { createViewerStore } from '../../state/viewerStore.ts';
import { StatsService } from '../stats/statsService.ts';
import { alignmentOffset, applyOffset, findNthInstances, nthInstance } from './align.ts';

const side = (count: number, medianNs: number) => ({ count, medianNs, sigma: 0.1 });
const { base, candidate } = buildCapturePair({ seed: 3, ranges: [{ name: 'step', base: side(30, 5000), candidate: side(30, 6000) }, { name: 'other', base: side(30, 800), candidate: side(30, 800) }] });
const result = compareCaptures(base, candidate);
const step = result.rows.find((r) => r.label === 'step')!;

describe('align at the N-th instance of a row', () => {
  it('finds the N-th instance by start time', () => {
    const starts = Array.from({ length: 30 }, (_, k) => base.ranges.startNs[nthInstance(result, step, 'base', k + 1)]);
    for (let k = 1; k < starts.length; k++) expect(starts[k]).toBeGreaterThan(starts[k - 1]);
    expect(nthInstance(result, step, 'base', 31)).toBe(-1);
    expect(nthInstance(result, step, 'base', 0)).toBe(-1);
  });

  it('shifts the candidate so both N-th instances start at one shared time', () => {
    const store = createViewerStore();
    const a = store.getState().addCapture({ model: base, decodeMs: 0 });
    const b = store.getState().addCapture({ model: candidate, decodeMs: 0 });
    const [ca, cb] = store.getState().captures;
    const aligned = alignmentOffset(result, step, 5, ca, cb)!;
    applyOffset(store, b, aligned.offsetNs);
    const [na, nb] = store.getState().captures;
    expect(na.id).toBe(a);
    expect(na.offsetNs + base.ranges.startNs[aligned.baseRange]).toBe(nb.offsetNs + candidate.ranges.startNs[aligned.candidateRange]);
    expect(base.strings[base.styles.name[base.ranges.style[aligned.baseRange]]]).toBe('step');
  });

  it('finds both N-th instances through the statistics service, -1 for a side with fewer', async () => {
    const service = new StatsService(() => {
      throw new Error('small captures never start the worker');
    });
    const found = await findNthInstances(service, result, step, 5, { base: 1, candidate: 2 });
    expect(found).toEqual({ baseRange: nthInstance(result, step, 'base', 5), candidateRange: nthInstance(result, step, 'candidate', 5) });
    expect(await findNthInstances(service, result, step, 31, { base: 1, candidate: 2 })).toEqual({ baseRange: -1, candidateRange: -1 });
  });
});
