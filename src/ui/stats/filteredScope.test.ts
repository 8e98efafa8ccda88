/** The event filters reach every statistic of the panel through its capture scope. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import { NO_FILTERS, withHidden } from '../../analysis/eventFilters.ts';
import { computeStats } from './compute.ts';
import { captureScope, scopeKey, type PanelScope } from './panelScope.ts';

function capture() {
  const b = new ModelBuilder({ fileName: 'f.test', format: 'test', byteSize: 0 });
  const main = b.thread(1, 1, 'main');
  const io = b.thread(1, 2, 'io');
  b.nameCategory(0, 5, 'IO');
  b.range(main, 0, 10, { name: 'compute' });
  b.range(io, 0, 20, { name: 'read', category: 5 });
  b.mark(io, 3, { name: 'tick', category: 5 });
  b.mark(main, 4, { name: 'frame' });
  return { id: 1, model: b.finish(), offsetNs: 0, decodeMs: 0 };
}

describe('filtered statistics scope', () => {
  it('leaves hidden categories out of ranges and marks, and changes the scope key', () => {
    const c = capture();
    const base: PanelScope = { kind: 'capture', span: null, mode: 'clip', tracks: null };
    const filtered: PanelScope = { ...base, filters: withHidden(NO_FILTERS, [{ kind: 'category', domain: '', id: 5 }], true) };
    const names = (scope: PanelScope) => {
      const r = computeStats(c.model, { kind: 'ranges', scope: captureScope(scope, c), grouping: { by: 'name' } });
      const m = computeStats(c.model, { kind: 'marks', scope: captureScope(scope, c) });
      if (r.kind !== 'ranges' || m.kind !== 'marks') throw new Error('unexpected result');
      return [...r.result.rows.map((row) => row.label), ...m.result.rows.map((row) => row.label)].sort();
    };
    expect(names(base)).toEqual(['compute', 'frame', 'read', 'tick']);
    expect(names(filtered)).toEqual(['compute', 'frame']);
    expect(names({ ...base, filters: NO_FILTERS })).toEqual(['compute', 'frame', 'read', 'tick']);
    expect(scopeKey(filtered)).not.toBe(scopeKey(base));
  });
});
