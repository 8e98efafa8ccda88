import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import { filterChoices } from './filterChoices.ts';

function capture(file: string, pid: number, extraThread: boolean): Model {
  const b = new ModelBuilder({ fileName: file, format: 'test', byteSize: 0 });
  b.process(pid, 'app');
  const main = b.thread(pid, 1, 'main');
  const net = b.domain(pid, 'net');
  b.nameCategory(0, 1, 'Compute');
  b.nameCategory(0, 2, 'Kernels');
  b.addChildCategory(0, 1, 2);
  b.range(main, 0, 10, { name: 'gemm', category: 2 });
  b.range(main, 20, 30, { name: 'gemm', category: 2 });
  b.range(main, 40, 50, { name: 'send', domain: net });
  b.mark(main, 5, { name: 'tick' });
  if (extraThread) b.range(b.thread(pid, 2, 'io'), 0, 5, { name: 'read' });
  return b.finish();
}

describe('filterChoices', () => {
  it('merges captures by identity and counts events', () => {
    const choices = filterChoices([capture('a', 7, false), capture('b', 7, true)]);
    expect(choices.threads.map((c) => `${'  '.repeat(c.depth)}${c.label}:${c.count}`)).toEqual(['app (7):9', '  main (1):8', '  io (2):1']);
    expect(choices.names.map((c) => `${c.label}:${c.count}`)).toEqual(['gemm:4', 'net:send:2', 'read:1', 'tick:2']);
    expect(choices.domains.map((c) => c.label)).toEqual(['default domain', 'net']);
  });

  it('lists categories along their hierarchy, children after parents, counting what hiding them hides', () => {
    const { categories } = filterChoices([capture('a', 7, false)]);
    expect(categories.map((c) => `${c.depth}:${c.label}:${c.count}`)).toEqual(['0:Compute (1):2', '1:Kernels (2):2', '0:No category:1']);
    expect(categories[1].parentKey).toBe(categories[0].key);
  });
});
