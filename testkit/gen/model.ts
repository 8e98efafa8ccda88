/**
 * Feeds the generated event stream straight into a `ModelBuilder` (no file, no decoder): for
 * benchmarks of the statistics on models larger than a text file could comfortably hold, and for
 * tests that want a realistic model quickly. Same seed, same capture as the file writers.
 */
import { ModelBuilder } from '../../src/model/builder.ts';
import { PayloadType, type Model } from '../../src/model/types.ts';
import { generateEvents, makeHeader, type GenOptions } from './events.ts';

export function buildGeneratedModel(options: GenOptions): Model {
  const header = makeHeader(options);
  const b = new ModelBuilder({ fileName: `generated-${header.seed}`, format: 'generated', byteSize: 0 });
  b.setClock('CLOCK_MONOTONIC_RAW', BigInt(header.originNs));
  b.setDisplayName(header.displayName);
  b.process(header.process.pid, header.process.name);
  const threads = header.threads.map((t) => b.thread(header.process.pid, t.tid, t.name));
  for (const c of header.categories) b.nameCategory(0, c.id, c.name);
  for (const c of header.categories) if (c.parent !== 0) b.addChildCategory(0, c.parent, c.id);
  const nameIds = header.names.map((n) => b.intern(n));
  // Times relative to the origin keep every value small and exact.
  const origin = header.originNs;
  for (const e of generateEvents(header, { pushPop: 'complete', ...options })) {
    switch (e.kind) {
      case 'push':
        b.push(threads[e.thread], e.t - origin, { nameId: nameIds[e.name], color: header.colors[e.name], category: e.category });
        break;
      case 'pop':
        b.pop(threads[e.thread], e.t - origin);
        break;
      case 'range':
        b.range(threads[e.thread], e.start - origin, e.end - origin, {
          nameId: nameIds[e.name],
          color: header.colors[e.name],
          category: e.category,
        });
        break;
      case 'mark':
        b.mark(threads[e.thread], e.t - origin, {
          nameId: nameIds[e.name],
          color: header.colors[e.name],
          category: e.category,
          payload: e.payload === undefined ? undefined : { type: PayloadType.I64, value: e.payload },
        });
        break;
      case 'startEnd':
        b.startEnd(threads[e.thread], e.start - origin, e.end - origin, {
          nameId: nameIds[e.name],
          color: header.colors[e.name],
          category: e.category,
          payload: e.payload === undefined ? undefined : { type: PayloadType.I64, value: e.payload },
        });
        break;
    }
  }
  return b.finish();
}
