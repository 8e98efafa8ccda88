/**
 * Decoding throughput of the payload and counters extension records:
 * `node scripts/run-ts.mjs bench/run.ts native-decode [events]`. Builds a capture with the test writer (payload
 * marks named by a `char *` message, push/pop payload ranges, int64 counter samples, a counter
 * batch) and loads it through the real pipeline; prints events per second for each kind.
 */
import { EntryFlag, EntryType, SchemaType } from '../../src/payload/schema.ts';
import { PayloadEventKind } from '../../src/import/native/format.ts';
import { loadBytes } from '../../testkit/load/nativeCapture.ts';
import { CaptureWriter, MetaRecords, StreamRecords } from '../../testkit/writers/nvtxcWriter.ts';

const N = Number(process.argv[2] ?? 200_000);
const T0 = 1_000_000n;
const N0 = 5_000_000_000n;
const S = 2 ** 24;

function capture(meta: MetaRecords, fill: (s: StreamRecords) => void): Uint8Array {
  const s = new StreamRecords().thread(1, 'main');
  fill(s);
  const end = BigInt(4 * N + 1000);
  return new CaptureWriter()
    .process({ pid: 1, name: 'bench', t0: T0, n0: N0, tickRate: 1_000_000_000, clockKind: 3 })
    .meta([T0, N0], meta)
    .events(1, [T0 + end, N0 + end], s.bytes())
    .bytes();
}

const meta = new MetaRecords()
  .schema(0, S + 1, {
    name: 'step',
    type: SchemaType.Static,
    entries: [
      { flags: EntryFlag.EventMessage, type: EntryType.CString, name: 'name' },
      { type: EntryType.UInt64, name: 'bytes' },
      { type: EntryType.Double, name: 'loss' },
    ],
  })
  .counter(0, S + 2, { schemaId: EntryType.Int64, name: 'depth' })
  .counter(0, S + 3, { schemaId: EntryType.Int32, name: 'batched' });

const payload = new Uint8Array(24);
new DataView(payload.buffer).setBigUint64(0, 0x1000n, true);
const name = new TextEncoder().encode('training step\0');

const cases: [string, (s: StreamRecords) => void][] = [
  ['payload marks', (s) => {
    for (let i = 0; i < N; i++) s.payloadEvent(i * 4, PayloadEventKind.Mark, 0, [{ schemaId: S + 1, data: payload }], { memory: [{ address: 0x1000n, data: name }] });
  }],
  ['push/pop payload ranges (2 records each)', (s) => {
    for (let i = 0; i < N / 2; i++) {
      s.payloadEvent(i * 8, PayloadEventKind.Push, 0, [{ schemaId: S + 1, data: payload }], { memory: [{ address: 0x1000n, data: name }] });
      s.payloadEvent(i * 8 + 4, PayloadEventKind.Pop, 0, []);
    }
  }],
  ['counter samples', (s) => {
    for (let i = 0; i < N; i++) s.counterSample(i * 4, 0, S + 2, { int64: i % 1000 });
  }],
  ['batched counter samples (one record)', (s) => {
    const samples = new Uint8Array(4 * N);
    s.counterBatch(0, 0, S + 3, samples, Array.from({ length: N }, (_, i) => T0 + BigInt(i * 4)));
  }],
];

for (const [label, fill] of cases) {
  const bytes = capture(meta, fill);
  await loadBytes(bytes); // warm up
  const t0 = performance.now();
  const model = await loadBytes(bytes);
  const ms = performance.now() - t0;
  const count = model.marks.timeNs.length + model.ranges.startNs.length * 2 + model.counters.value.length;
  console.log(`${label}: ${count} in ${ms.toFixed(0)} ms, ${((count / ms) * 1000).toFixed(0)} events/s (${((ms * 1e6) / count).toFixed(0)} ns each), ${(bytes.length / 1e6).toFixed(1)} MB`);
}
