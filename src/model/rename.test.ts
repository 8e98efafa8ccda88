/** Builder capabilities the payload extension needs: pop/end renames, marks rows of scopes, counter semantics on tracks. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';

const fresh = () => new ModelBuilder({ fileName: 't.nvtxc', format: 'test', byteSize: 0 });
const nameOf = (m: ReturnType<ModelBuilder['finish']>, style: number) => m.strings[m.styles.name[style]];

describe('ranges renamed at pop and end', () => {
  it('gives a push/pop range the message and color of its pop, keeping its category and domain', () => {
    const b = fresh();
    const t = b.thread(1, 10);
    const d = b.domain(1, 'lib');
    b.push(t, 10, { name: 'outer', category: 3, domain: d });
    b.push(t, 20, { name: 'inner', color: 0xff112233, domain: d });
    b.pop(t, 30, d, undefined, undefined, { name: 'inner renamed' });
    b.pop(t, 40, d, undefined, undefined, { color: 0xff00ff00 });
    const m = b.finish();
    const byStart = [0, 1].sort((x, y) => m.ranges.startNs[x] - m.ranges.startNs[y]);
    const [outer, inner] = byStart;
    expect(nameOf(m, m.ranges.style[outer])).toBe('outer');
    expect(m.styles.color[m.ranges.style[outer]]).toBe(0xff00ff00);
    expect(m.categories[m.styles.category[m.ranges.style[outer]]].id).toBe(3);
    expect(m.styles.domain[m.ranges.style[outer]]).toBe(d);
    expect(nameOf(m, m.ranges.style[inner])).toBe('inner renamed');
    expect(m.styles.color[m.ranges.style[inner]]).toBe(0xff112233);
    expect(m.ranges.parent[inner]).toBe(outer);
  });

  it('renames a start/end range at its end', () => {
    const b = fresh();
    const t = b.thread(1, 10);
    b.rangeStart(7, t, 10, { name: 'loading', category: 2 });
    b.rangeEnd(7, t, 50, undefined, undefined, { name: 'loaded' });
    const m = b.finish();
    expect(nameOf(m, m.ranges.style[0])).toBe('loaded');
    expect(m.categories[m.styles.category[m.ranges.style[0]]].id).toBe(2);
  });
});

describe('marks rows and counter tracks', () => {
  it('keeps marks of a process-level marks row under its path, sorted by time', () => {
    const b = fresh();
    const p = b.process(1, 'app');
    const row = b.markRow({ label: 'Marks', process: p, path: ['GPU 0', 'stream 1'] });
    b.rowMark(row, 30, { name: 'b' });
    b.rowMark(row, 10, { name: 'a' });
    const m = b.finish();
    const track = m.tracks.find((x) => x.kind === 'marks')!;
    expect(track.path).toEqual(['GPU 0', 'stream 1']);
    expect(track.thread).toBe(-1);
    expect(Array.from(m.marks.timeNs.subarray(track.markBegin, track.markEnd))).toEqual([0, 20]);
    expect(nameOf(m, m.marks.style[track.markBegin])).toBe('a');
    expect(m.marks.thread[track.markBegin]).toBe(-1);
  });

  it('carries counter semantics to the track', () => {
    const b = fresh();
    const p = b.process(1);
    const row = b.counterRow({ label: 'temp', process: p, unit: 'C', counter: { interpolation: 'linear', min: 0, max: 100 } });
    b.counter(row, 0, 20);
    const m = b.finish();
    expect(m.tracks[0].counter).toEqual({ interpolation: 'linear', min: 0, max: 100 });
  });
});
