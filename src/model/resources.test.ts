/** Names of program objects looked up where the objects appear. */
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { CUDA_STREAM } from './cudaRows.ts';
import { OS_THREAD, resourceName, rowObjects, threadName, unplacedResources } from './resources.ts';
import { threadLabel } from './trackTree.ts';

function model() {
  const b = new ModelBuilder({ fileName: 't.nvtxc', format: 'test', byteSize: 0 });
  const p = b.process(1, 'app');
  const q = b.process(2, 'other');
  const unnamed = b.thread(1, 11);
  const named = b.thread(1, 12, 'worker');
  b.range(unnamed, 0, 10, { name: 'r' });
  b.range(named, 0, 10, { name: 'r' });
  const row = b.customRow({ kind: 'gpu', label: 'Stream 7', process: p, objects: [{ kind: CUDA_STREAM, handle: '7' }] });
  b.rowRange(row, 0, 5, { name: 'k' });
  b.nameResource({ kind: OS_THREAD, handle: '11', name: 'loader', process: p, domain: 0 });
  b.nameResource({ kind: OS_THREAD, handle: '12', name: 'ignored: the thread has its own name', process: p, domain: 0 });
  b.nameResource({ kind: CUDA_STREAM, handle: '7', name: 'first', process: p, domain: 0 });
  b.nameResource({ kind: CUDA_STREAM, handle: '7', name: 'compute', process: p, domain: 0 });
  b.nameResource({ kind: CUDA_STREAM, handle: '0x7f00', name: 'copy stream', process: p, domain: 0 });
  b.nameResource({ kind: 'pthread mutex', handle: '0x5555', name: 'old lock name', process: p, domain: 0 });
  b.nameResource({ kind: 'pthread mutex', handle: '0x5555', name: 'big lock', process: p, domain: 0 });
  b.nameResource({ kind: CUDA_STREAM, handle: '7', name: 'in the other process', process: q, domain: 0 });
  return { m: b.finish(), p, q, unnamed, named };
}

describe('program object names', () => {
  const { m, p, q, unnamed, named } = model();

  it('name a row`s objects with the last name given in the row`s process', () => {
    expect(rowObjects(m, m.tracks.find((t) => t.kind === 'gpu')!)).toEqual([{ kind: CUDA_STREAM, handle: '7', name: 'compute' }]);
    expect(resourceName(m, CUDA_STREAM, '7', q)).toBe('in the other process');
    expect(resourceName(m, CUDA_STREAM, '9', p)).toBeUndefined();
  });

  it('name a thread without a name of its own from an OS-thread resource', () => {
    expect(threadName(m, unnamed)).toBe('loader');
    expect(threadLabel(m, unnamed)).toBe('loader (11)');
    expect(threadLabel(m, named)).toBe('worker (12)');
  });

  it('list the objects a process named that no row shows, each once with its last name', () => {
    expect(unplacedResources(m, p).map((r) => [r.kind, r.handle, r.name])).toEqual([
      [OS_THREAD, '12', 'ignored: the thread has its own name'],
      [CUDA_STREAM, '0x7f00', 'copy stream'],
      ['pthread mutex', '0x5555', 'big lock'],
    ]);
    expect(unplacedResources(m, q)).toHaveLength(1);
  });
});
