/** The event record (eventRecord.ts): every field the decoder reads comes back as written, on random events, mixed with the other items. */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { EventFields, FieldKind, type SpanField } from './eventFields.ts';
import { EventRecordReader, EventRecordWriter, TAG_CALL, TAG_CHUNK, TAG_EVENT, TAG_VIEW } from './eventRecord.ts';

const spans = (f: EventFields): SpanField[] => [f.name, f.cat, f.pid, f.tid, f.id, f.scope, f.cname, f.bindId];

/** What the decoder may read of `f`: absent fields' stale values are not part of it. */
function readable(f: EventFields, pos: number) {
  return {
    pos,
    ph: f.ph,
    ph2: f.phStart >= 0 ? [f.phStart, f.phEnd] : -1,
    scope: f.instantScope,
    flows: [f.flowIn, f.flowOut],
    ts: f.hasTs === FieldKind.Number ? [f.hasTs, f.ts.us, f.ts.ns] : f.hasTs,
    dur: f.hasDur === FieldKind.Number ? [f.hasDur, f.dur.us, f.dur.ns] : f.hasDur,
    spans: spans(f).map((s, k) =>
      s.kind === FieldKind.Absent
        ? 0
        : (k === 2 || k === 3) && s.kind === FieldKind.Number && !Number.isNaN(s.int)
          ? ['value only', s.int]
          : [s.kind, s.start, s.end, s.escaped, s.kind === FieldKind.Number ? s.int : NaN, k < 2 && s.kind === FieldKind.String && !s.escaped ? s.hash : 0],
    ),
    args: f.argsStart >= 0 ? [f.argsStart, f.argsEnd] : -1,
    argsEmpty: f.argsEmpty,
    id2: f.id2Start >= 0 ? [f.id2Start, f.id2End] : -1,
  };
}

function randomEvent(next: () => number, f: EventFields): number {
  const int = (n: number) => Math.floor(next() * n);
  f.reset();
  f.ph = int(256);
  f.instantScope = int(256);
  if (next() < 0.8) {
    f.phStart = int(1 << 24);
    f.phEnd = f.phStart + int(4);
  }
  f.flowIn = next() < 0.3;
  f.flowOut = next() < 0.3;
  f.hasTs = int(4) as typeof f.hasTs;
  f.ts.us = (next() - 0.5) * 2 ** 53;
  f.ts.ns = int(1000);
  f.hasDur = int(4) as typeof f.hasDur;
  f.dur.us = Math.round((next() - 0.5) * 1e12);
  f.dur.ns = int(1000);
  for (const s of spans(f)) {
    s.kind = int(4) as typeof s.kind;
    s.start = int(1 << 30);
    s.end = s.start + int(1000);
    // Only strings hold escapes (as the parsers set it).
    s.escaped = s.kind === FieldKind.String && next() < 0.2;
    s.int = next() < 0.2 ? NaN : Math.round((next() - 0.5) * 2e15);
    s.hash = int(2 ** 32) | 0;
  }
  if (next() < 0.6) {
    f.argsStart = int(1 << 30);
    f.argsEnd = f.argsStart + int(5000);
  }
  f.argsEmpty = next() < 0.5;
  if (next() < 0.1) {
    f.id2Start = int(1 << 30);
    f.id2End = f.id2Start + 10;
  }
  return int(1 << 30);
}

describe('event record', () => {
  it('gives back every event and item as written, in order', () => {
    for (const seed of [1, 2, 3]) {
      const next = seededRandom(seed);
      const writer = new EventRecordWriter(new Int32Array(4), new Float64Array(2));
      const f = new EventFields();
      const expected: unknown[] = [];
      for (let k = 0; k < 5000; k++) {
        const r = next();
        if (r < 0.05) {
          const base = Math.floor(next() * 2 ** 40);
          writer.view(k, base);
          expected.push(['view', k, base]);
        } else if (r < 0.1) {
          writer.chunk(k * 1000, 4096, k % 3);
          expected.push(['chunk', k * 1000, 4096, k % 3]);
        } else if (r < 0.12) {
          writer.call(k);
          expected.push(['call', k]);
        } else {
          const pos = randomEvent(next, f);
          const throws = next() < 0.1;
          // Said when written, or marked after (as the parse side does once it knows).
          const marked = next() < 0.5;
          writer.event(f, pos, throws && !marked);
          if (throws && marked) writer.markThrows();
          expected.push(['event', readable(f, pos), throws]);
        }
      }
      const reader = new EventRecordReader(writer.ints, writer.intCount, writer.nums);
      const back = new EventFields();
      const got: unknown[] = [];
      const chunk = { reached: 0, length: 0, gzipProblems: 0 };
      while (!reader.done) {
        switch (reader.tag()) {
          case TAG_VIEW: {
            const k = reader.index();
            got.push(['view', k, reader.num()]);
            break;
          }
          case TAG_CHUNK:
            reader.chunk(chunk);
            got.push(['chunk', chunk.reached, chunk.length, chunk.gzipProblems]);
            break;
          case TAG_CALL:
            got.push(['call', reader.index()]);
            break;
          case TAG_EVENT: {
            const pos = reader.event(back);
            got.push(['event', readable(back, pos), reader.dispatchThrows]);
            break;
          }
        }
      }
      expect(got).toEqual(expected);
    }
  });
});
