import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { formatPayload, payloadJson, payloadNumber } from './payload.ts';
import { modelTransferables } from './transfer.ts';
import { effectiveAttributes } from '../payload/attributes.ts';
import { eventPayloadsJson } from '../payload/payloadText.ts';
import { decodeModelPayload, modelPayloadBlobs, modelPayloadJson, modelPayloadSummary } from './extPayloadReader.ts';
import { EntryFlag as F, EntryType as T, SchemaType, type PayloadRegistry } from '../payload/schema.ts';
import { w } from '../../testkit/payload/payloadBytes.ts';

const S = 1 << 24;

function registry(domain: number): PayloadRegistry {
  return {
    schemas: [
      {
        domain,
        id: S,
        type: SchemaType.Static,
        flags: 0,
        entries: [
          { flags: F.EventMessage | F.Pointer | F.ArrayZeroTerminated, type: T.CString, name: 'msg', arrayOrUnionDetail: 0, offset: 0 },
          { flags: 0, type: T.UInt32, name: 'n', arrayOrUnionDetail: 0, offset: 0 },
        ],
      },
    ],
    enums: [],
  };
}

describe('extended payloads in the model', () => {
  it('stores begin and pop/end payloads per event and decodes them with the registry', () => {
    const b = new ModelBuilder({ fileName: 'x.nvtxcap', format: 'test', byteSize: 0 });
    const t = b.thread(1, 10, 'main');
    const d = b.domain(1, 'app');
    b.setPayloadRegistry(registry(d));
    const blob = (n: number, address: number) => ({ schemaId: S, bytes: w().u64(address).u32(n).pad(4).done() });
    const text = (s: string, address: number) => ({ address, bytes: w().utf8(s).u8(0).done() });

    b.push(t, 100, { name: 'work', domain: d, payload: b.extPayload(d, [blob(1, 0x1000)], [text('pushed', 0x1000)]) });
    b.pop(t, 200, d, undefined, b.extPayload(d, [blob(2, 0x2000)], [text('popped', 0x2000)]));
    b.rangeStart(7, t, 120, { name: 'job', domain: d });
    b.rangeEnd(7, t, 180, undefined, b.extPayload(d, [blob(3, 0)]));
    b.mark(t, 150, { name: 'm', domain: d, payload: b.extPayload(d, [blob(4, 0), blob(5, 0)]) });
    expect(b.extPayload(d, [])).toBeUndefined();
    const m = b.finish();

    expect(m.extPayloads?.schema.length).toBe(7);
    expect(m.payloadRegistry?.schemas).toHaveLength(1);
    const pushPop = m.tracks.find((x) => x.kind === 'pushpop')!;
    const range = pushPop.rangeBegin;
    const decoded = decodeModelPayload(m, m.ranges.payload[range])!;
    expect(decoded.domain).toBe(d);
    expect(decoded.decodedBegin.map((p) => p.attributes.message)).toEqual(['pushed']);
    expect(decoded.decodedEnd.map((p) => p.attributes.message)).toEqual(['popped']);
    expect(effectiveAttributes({ message: 'work' }, decoded.decodedBegin, decoded.decodedEnd).message).toBe('popped');
    expect(eventPayloadsJson(decoded.decodedBegin, decoded.decodedEnd)).toEqual({ msg: 'pushed', n: 1, '@end': { msg: 'popped', n: 2 } });

    // A start/end range with only an end payload.
    const cat = m.tracks.find((x) => x.kind === 'category')!;
    const se = decodeModelPayload(m, m.ranges.payload[cat.rangeBegin])!;
    expect(se.begin).toHaveLength(0);
    expect(se.decodedEnd[0].fields[1].value).toBe(3);
    // The pointer is shown as an unresolved address when nothing was copied.
    expect(se.decodedEnd[0].fields[0].pointer).toEqual({ address: '0x0', resolved: true });

    const mark = modelPayloadBlobs(m, m.marks.payload[0])!;
    expect(mark.begin.map((x) => x.bytes[8])).toEqual([4, 5]);

    // Model-level helpers do not mistake the row index for a value.
    expect(payloadNumber(m, m.marks.payload[0])).toBeNaN();
    expect(formatPayload(m, m.marks.payload[0])).toBe('extended payload');
    expect(payloadJson(m, m.marks.payload[0])).toBeNull();
    expect(decodeModelPayload(m, -1)).toBeUndefined();

    expect(modelPayloadJson(m, m.ranges.payload[range])).toEqual({ msg: 'pushed', n: 1, '@end': { msg: 'popped', n: 2 } });
    expect(modelPayloadSummary(m, m.ranges.payload[range])).toBe('msg="pushed", n=1, msg="popped", n=2');
    expect(modelPayloadJson(m, -1)).toBeNull();

    const buffers = modelTransferables(m);
    expect(buffers).toContain(m.extPayloads!.bytes.buffer);
  });

  it('keeps a core payload and reports a pop payload it cannot merge', () => {
    const b = new ModelBuilder({ fileName: 'x', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    b.setPayloadRegistry(registry(0));
    b.push(t, 0, { name: 'r', payload: { type: 1, value: 5n } });
    b.pop(t, 10, 0, { offset: 64 }, b.extPayload(0, [{ schemaId: S, bytes: new Uint8Array(16) }]));
    const m = b.finish();
    expect(payloadNumber(m, m.ranges.payload[0])).toBe(5);
    expect(modelPayloadJson(m, m.ranges.payload[0])).toBe(5);
    expect(modelPayloadSummary(m, m.ranges.payload[0])).toBe('5');
    expect(m.issues.some((i) => i.offset === 64 && /only the first is kept/.test(i.message))).toBe(true);
  });
});
