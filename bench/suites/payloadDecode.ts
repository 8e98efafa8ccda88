/**
 * Payload decoder throughput: `node scripts/run-ts.mjs bench/run.ts payload-decode`. Prints payloads per second for a
 * static struct (the common case: one per mark/range, or one per counter sample), a dynamic
 * schema with strings and arrays, and the JSON/summary formatting on top.
 */
import { counterReader } from '../../src/payload/counters.ts';
import { decodePayload } from '../../src/payload/decode.ts';
import { payloadJson, payloadSummary } from '../../src/payload/payloadText.ts';
import { EntryFlag as F, EntryType as T, SchemaFlag, SchemaType, type PayloadRegistry } from '../../src/payload/schema.ts';
import { ByteWriter } from '../../testkit/payload/payloadBytes.ts';

const S = 1 << 24;
const registry: PayloadRegistry = {
  schemas: [
    {
      domain: 0,
      id: S,
      name: 'Step',
      type: SchemaType.Static,
      flags: 0,
      entries: [
        { flags: F.EventMessage, type: T.CString, name: 'name', arrayOrUnionDetail: 16, offset: 0 },
        { flags: 0, type: T.UInt64, name: 'bytes', arrayOrUnionDetail: 0, offset: 0 },
        { flags: 0, type: T.Int32, name: 'rank', arrayOrUnionDetail: 0, offset: 0 },
        { flags: 0, type: T.Float, name: 'loss', arrayOrUnionDetail: 0, offset: 0 },
        { flags: 0, type: S + 10, name: 'phase', arrayOrUnionDetail: 0, offset: 0 },
        { flags: 0, type: T.Double, name: 'lr', arrayOrUnionDetail: 0, offset: 0 },
      ],
    },
    {
      domain: 0,
      id: S + 1,
      name: 'Batch',
      type: SchemaType.Dynamic,
      flags: 0,
      entries: [
        { flags: 0, type: T.UInt32, name: 'n', arrayOrUnionDetail: 0, offset: 0 },
        { flags: F.ArrayLengthIndex, type: T.Float, name: 'values', arrayOrUnionDetail: 0, offset: 0 },
        { flags: F.ArrayZeroTerminated, type: T.CString, name: 'tag', arrayOrUnionDetail: 0, offset: 0 },
      ],
    },
    {
      domain: 0,
      id: S + 2,
      name: 'Counters',
      type: SchemaType.Static,
      flags: SchemaFlag.CounterGroup,
      entries: [
        { flags: F.Counter, type: T.UInt64, name: 'mem', arrayOrUnionDetail: 0, offset: 0 },
        { flags: F.Counter, type: T.Double, name: 'util', arrayOrUnionDetail: 0, offset: 0 },
      ],
    },
  ],
  enums: [
    {
      domain: 0,
      id: S + 10,
      name: 'Phase',
      size: 4,
      entries: [
        { name: 'FORWARD', value: 0, isFlag: false },
        { name: 'BACKWARD', value: 1, isFlag: false },
      ],
    },
  ],
};

const staticBlob = new ByteWriter().utf8('train_step', 16).u64(123456789).i32(3).f32(0.25).u32(1).align(8).f64(1e-3).done();
const dynamicBlob = new ByteWriter().u32(8).f32(1).f32(2).f32(3).f32(4).f32(5).f32(6).f32(7).f32(8).utf8('layer.0').u8(0).done();
const counterBlob = new ByteWriter().u64(1 << 30).f64(0.75).done();

for (const [label, id, blob] of [['static', S, staticBlob], ['dynamic', S + 1, dynamicBlob], ['counters', S + 2, counterBlob]] as const) {
  const p = decodePayload(registry, id, blob);
  if (p.error || p.fields.some((f) => f.error)) throw new Error(`bench payload ${label} does not match its schema: ${p.error ?? ''}`);
}

/** Prints wall and CPU time: the machine may be shared, and CPU time is the steadier figure. */
function measure(label: string, n: number, fn: (i: number) => unknown): void {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i); // warm up
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let sink = 0;
  for (let i = 0; i < n; i++) if (fn(i)) sink++;
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rate = (t: number) => ((n / t) * 1000) / 1e3;
  console.log(
    `${label.padEnd(44)} ${String(sink).padStart(7)}  wall ${ms.toFixed(0).padStart(5)} ms (${rate(ms).toFixed(0).padStart(4)} k/s)  cpu ${cpuMs.toFixed(0).padStart(5)} ms (${rate(cpuMs).toFixed(0).padStart(4)} k/s)`,
  );
}

measure('static struct (6 fields, enum, fixed string)', 300_000, () => decodePayload(registry, S, staticBlob));
measure('dynamic (length-indexed array, C string)', 300_000, () => decodePayload(registry, S + 1, dynamicBlob));
measure('counter group sample (2 counters)', 300_000, () => decodePayload(registry, S + 2, counterBlob));
const reader = counterReader(registry, 0, S + 2);
if (typeof reader === 'string') throw new Error(reader);
const samples = new Uint8Array(reader.stride * 1024);
for (let k = 0; k < 1024; k++) samples.set(counterBlob, k * reader.stride);
const values = new Float64Array(reader.fields.length);
measure('counter group sample via counterReader', 3_000_000, (i) => {
  reader.read(samples, (i & 1023) * reader.stride, values);
  return values[0];
});
measure('predefined int64 payload', 300_000, () => decodePayload(registry, T.Int64, counterBlob.subarray(0, 8)));
measure('static struct + JSON', 100_000, () => JSON.stringify(payloadJson(decodePayload(registry, S, staticBlob))));
measure('static struct + summary line', 100_000, () => payloadSummary([decodePayload(registry, S, staticBlob)]));

