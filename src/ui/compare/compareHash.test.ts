import { describe, expect, it } from 'vitest';
import { buildCapturePair } from '../../../testkit/gen/comparePair.ts';
import { createViewerStore } from '../../state/viewerStore.ts';
import { decodeViewHash, encodeViewHash } from '../share/hashState.ts';
import { resolveViewHash, viewHashState } from '../share/viewState.ts';
import { resolveCompareHash } from './compareHash.ts';

const spec = { name: 'step', base: { count: 20, medianNs: 1000, sigma: 0.1 }, candidate: { count: 20, medianNs: 1200, sigma: 0.1 } };

function loaded() {
  const { base, candidate } = buildCapturePair({ ranges: [spec], seed: 1 });
  const store = createViewerStore();
  const a = store.getState().addCapture({ model: base, decodeMs: 1 });
  const b = store.getState().addCapture({ model: candidate, decodeMs: 1 });
  return { store, a, b };
}

describe('the comparison in the URL hash', () => {
  it('round-trips baseline, candidate, grouping and open row through a link', () => {
    const { store, a, b } = loaded();
    store.getState().setCompare({ base: b, candidate: a, groupBy: 'thread', row: 'PushPop|step' });
    const hash = encodeViewHash(viewHashState(store.getState())!);
    expect(hash).toContain('cmp=1_0_thread');
    expect(hash).toContain('cmprow=PushPop%7Cstep');
    const { store: other } = loaded();
    const view = resolveViewHash(decodeViewHash(hash).state!, other.getState().captures);
    const ids = other.getState().captures.map((c) => c.id);
    expect(view.compare).toEqual({ base: ids[1], candidate: ids[0], groupBy: 'thread', row: 'PushPop|step' });
    expect(view.missing).toEqual([]);
  });

  it('names what it cannot apply', () => {
    expect(resolveCompareHash('0_1_colour', undefined, []).problem).toMatch(/ignored the comparison/);
    expect(resolveCompareHash('0_3_name', undefined, []).problem).toMatch(/not both loaded/);
    expect(resolveCompareHash(undefined, undefined, [])).toEqual({ view: null });
  });

  it('drops the comparison when one of its captures is closed', () => {
    const { store, a, b } = loaded();
    store.getState().setCompare({ base: a, candidate: b, groupBy: 'name', row: null });
    store.getState().removeCapture(b);
    expect(store.getState().compare).toBeNull();
  });
});
