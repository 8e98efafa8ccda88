import { describe, expect, it } from 'vitest';
import { decodeViewHash, encodeViewHash, HASH_VERSION, type ViewHashState } from './hashState.ts';

const full: ViewHashState = {
  captures: ['run 1.sqlite', 'a&b=c.json', 'run 1.sqlite'],
  window: { startNs: -1200, endNs: 98_765_432_100 },
  span: { startNs: 5, endNs: 9 },
  selection: { kind: 'range', capture: 2, track: 14, level: 3, startNs: 123456789.25 },
  panel: 'report',
  search: { text: 'gemm kernel', regex: true, matchCase: false },
  filter: 'd:CUDA,n::step%2C 1',
  offsets: [
    { capture: 1, offsetNs: -5000 },
    { capture: 2, offsetNs: 70 },
  ],
  flags: [
    { timeNs: 1500, note: 'slow_step & retry' },
    { timeNs: -20, note: '' },
  ],
  tracks: {
    pinned: [
      { capture: 2, path: 'app (7)/main (1)/Push%2FPop' },
      { capture: 0, path: 'app (7)/Counters/a | b_c' },
    ],
    hidden: [{ capture: 1, path: 'app (7)/io (2)' }, { capture: 1, path: '' }],
    order: [
      { parent: { capture: 0, path: 'app (7)' }, children: ['io (2)', 'x | %257C y', 'main (1)'] },
      { parent: { capture: 2, path: '' }, children: ['b (8)', 'a (7)'] },
    ],
    heights: [{ row: { capture: 0, path: 'app (7)/Counters/mem_used' }, heightCss: 120 }],
    nameFilter: 'loader & co',
  },
  extra: [['future', 'x_y'], ['future', 'second']],
};

describe('view hash codec', () => {
  it('round-trips every field, unknown keys included, in order', () => {
    const text = encodeViewHash(full);
    expect(text.startsWith(`v=${HASH_VERSION}&`)).toBe(true);
    expect(decodeViewHash(`#${text}`)).toEqual({ state: full, problems: [] });
    expect(decodeViewHash(text).state).toEqual(full);
  });

  it('writes the arrangement of the track list readably, by capture position and row path', () => {
    const text = encodeViewHash({
      captures: ['run.nvtxc'],
      tracks: {
        pinned: [{ capture: 0, path: 'train.py (42)/main (42)/Push%2FPop' }],
        hidden: [{ capture: 0, path: 'train.py (42)/loader (43)' }],
        order: [{ parent: { capture: 0, path: 'train.py (42)' }, children: ['loader (43)', 'main (42)'] }],
        heights: [],
        nameFilter: '',
      },
      extra: [],
    });
    expect(decodeURIComponent(text.replace(/\+/g, ' '))).toBe(
      'v=1&c=run.nvtxc&pin=0/train.py (42)/main (42)/Push%2FPop&hide=0/train.py (42)/loader (43)&ord=0/train.py (42)|loader (43)|main (42)',
    );
  });

  it('drops rows of captures the link does not list, and malformed rows, naming them', () => {
    const decoded = decodeViewHash('#v=1&c=a&pin=1/x&pin=0/ok&hide=0/&ord=0/p&rh=abc_0/q&rh=40_0/q&tf=');
    expect(decoded.state!.tracks).toEqual({
      pinned: [{ capture: 0, path: 'ok' }],
      hidden: [],
      order: [],
      heights: [{ row: { capture: 0, path: 'q' }, heightCss: 40 }],
      nameFilter: '',
    });
    expect(decoded.problems).toEqual([
      'ignored the pinned row "1/x"',
      'ignored the hidden row "0/"',
      'ignored the row order "0/p"',
      'ignored the row height "abc_0/q"',
    ]);
    expect(decodeViewHash('#v=1&c=a').state!.tracks).toBeUndefined();
  });

  it('writes a readable hash', () => {
    const text = encodeViewHash({
      captures: ['trace.json'],
      window: { startNs: 1000.4, endNs: 2000.6 },
      selection: { kind: 'mark', capture: 0, track: 2, timeNs: 1500 },
      extra: [],
    });
    // The window is rounded to whole nanoseconds; a selection keeps its exact time.
    expect(text).toBe('v=1&c=trace.json&t=1000_2001&sel=m_0_2_1500');
  });

  it('leaves out absent fields and reads a minimal hash', () => {
    expect(encodeViewHash({ captures: [], extra: [] })).toBe('v=1');
    expect(decodeViewHash('#v=1')).toEqual({ state: { captures: [], extra: [] }, problems: [] });
  });

  it('ignores hashes that are not view state', () => {
    expect(decodeViewHash('')).toEqual({ state: null, problems: [] });
    expect(decodeViewHash('#')).toEqual({ state: null, problems: [] });
    expect(decodeViewHash('#section-2')).toEqual({ state: null, problems: [] });
  });

  it('refuses another schema version with a message', () => {
    const decoded = decodeViewHash('#v=2&t=1_2');
    expect(decoded.state).toBeNull();
    expect(decoded.problems).toEqual(['the link\'s view state has version 2; this build reads version 1']);
  });

  it('drops malformed fields, names them and keeps the rest', () => {
    const decoded = decodeViewHash('#v=1&c=a&t=9_1&span=x_2&sel=r_0_1_2&panel=report');
    expect(decoded.state).toEqual({ captures: ['a'], panel: 'report', extra: [] });
    expect(decoded.problems).toEqual([
      'ignored the time window "9_1"',
      'ignored the time span "x_2"',
      'ignored the selection "r_0_1_2"',
    ]);
  });

  it('refuses a selection naming a capture the link does not list', () => {
    const decoded = decodeViewHash('#v=1&c=a&sel=r_1_0_0_5');
    expect(decoded.state?.selection).toBeUndefined();
    expect(decoded.problems).toHaveLength(1);
  });

  it('reads negative and exponent times', () => {
    const decoded = decodeViewHash('#v=1&t=-5_1e21&sel=r_0_0_0_-7.5&c=x');
    expect(decoded.state?.window).toEqual({ startNs: -5, endNs: 1e21 });
    expect(decoded.state?.selection).toEqual({ kind: 'range', capture: 0, track: 0, level: 0, startNs: -7.5 });
  });
});

describe('search options', () => {
  it('are written only when set, and malformed ones are named', () => {
    expect(encodeViewHash({ captures: [], search: { text: 'a b', regex: false, matchCase: false }, extra: [] })).toBe('v=1&q=a+b');
    expect(encodeViewHash({ captures: [], search: { text: '', regex: true, matchCase: true }, extra: [] })).toBe('v=1');
    const decoded = decodeViewHash('v=1&q=x&qo=rz');
    expect(decoded.state?.search).toEqual({ text: 'x', regex: false, matchCase: false });
    expect(decoded.problems).toEqual(['ignored the search options "rz"']);
  });

  it('drops a capture placement that names capture 0 or no capture', () => {
    const { state, problems } = decodeViewHash('v=1&c=a&c=b&o=0_5&o=2_5&o=1_x&o=1_-40');
    expect(state!.offsets).toEqual([{ capture: 1, offsetNs: -40 }]);
    expect(problems).toHaveLength(3);
  });
});
