/** Small models for timeline tests, built the only sanctioned way: through ModelBuilder. */
import { ModelBuilder } from '../../src/model/builder.ts';
import type { Model } from '../../src/model/types.ts';
import type { LoadedCapture } from '../../src/state/viewerStore.ts';

export function builder(fileName = 'test.nvtxt'): ModelBuilder {
  return new ModelBuilder({ fileName, format: 'test', byteSize: 0 });
}

/**
 * Process 100 "app" with threads 1 (main) and 2 (worker): nested push/pop ranges and marks on
 * both, start/end ranges in categories 1 ("io") and 2 ("net", a child of io).
 */
export function twoThreadModel(): Model {
  const b = builder();
  b.process(100, 'app');
  const main = b.thread(100, 1, 'main');
  const worker = b.thread(100, 2, 'worker');
  b.nameCategory(0, 1, 'io');
  b.nameCategory(0, 2, 'net');
  b.addChildCategory(0, 1, 2);
  b.range(main, 0, 1000, { name: 'frame' });
  b.range(main, 100, 400, { name: 'update' });
  b.range(main, 150, 200, { name: 'physics' });
  b.range(worker, 50, 900, { name: 'job' });
  b.mark(main, 500, { name: 'tick' });
  b.mark(worker, 600, { name: 'done', category: 1 });
  b.startEnd(main, 10, 300, { name: 'read', category: 1 });
  b.startEnd(worker, 200, 500, { name: 'write', category: 1 });
  b.startEnd(worker, 250, 700, { name: 'send', category: 2 });
  return b.finish();
}

/** A loaded capture around a model, as the store holds it. */
export function loaded(model: Model, id = 1, offsetNs = 0): LoadedCapture {
  return { id, model, offsetNs, decodeMs: 0 };
}
