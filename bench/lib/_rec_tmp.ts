import { EventFields, FieldKind } from '../../src/import/chrome/eventFields.ts';
import { EventRecordReader, EventRecordWriter } from '../../src/import/chrome/eventRecord.ts';
const f = new EventFields();
f.ph = 0x58; f.phStart = 10; f.phEnd = 11; f.hasTs = FieldKind.Number; f.ts.us = 123456789; f.ts.ns = 500; f.hasDur = FieldKind.Number; f.dur.us = 12; f.dur.ns = 0;
for (const s of [f.name, f.cat]) { s.kind = FieldKind.String; s.start = 20; s.end = 30; s.hash = 12345; }
for (const s of [f.pid, f.tid]) { s.kind = FieldKind.Number; s.start = 40; s.end = 44; s.int = 1234; }
f.argsStart = 50; f.argsEnd = 90; f.argsEmpty = false;
const w = new EventRecordWriter();
const g = new EventFields();
for (let r = 0; r < 5; r++) {
  w.reset(w.ints, w.nums);
  let t0 = performance.now();
  for (let k = 0; k < 140_000; k++) w.event(f, k, false);
  const tw = performance.now() - t0;
  t0 = performance.now();
  const rd = new EventRecordReader(w.ints, w.intCount, w.nums);
  let s = 0;
  while (!rd.done) s += rd.event(g);
  const tr = performance.now() - t0;
  console.log('140k events: write', tw.toFixed(1), 'ms, read', tr.toFixed(1), 'ms', s > 0);
}
