import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { JsonTextStore, jsonTextAt } from './jsonText.ts';
import { payloadJson, payloadValue } from './payload.ts';
import { modelTransferables } from './transfer.ts';
import { PayloadType } from './types.ts';

const encode = (s: string) => new TextEncoder().encode(s);

describe('JsonTextStore', () => {
  it('keeps spans of many buffers, short and long, and decodes them as UTF-8', () => {
    const store = new JsonTextStore();
    const texts = ['{"a":1}', '{}', `{"long":"${'x'.repeat(300)}"}`, '{"é":"日本"}', ''];
    for (let round = 0; round < 400; round++) {
      for (const t of texts) {
        const buf = encode(`  ${t}, `);
        expect(store.add(buf, 2, buf.length - 2)).toBe(store.size - 1);
      }
    }
    const columns = store.finish();
    expect(columns.start.length).toBe(store.size + 1);
    for (let k = 0; k < store.size; k++) expect(jsonTextAt(columns, k)).toBe(texts[k % texts.length]);
  });
});

describe('JSON payloads given as bytes', () => {
  it('read back like string JSON payloads, next to them, and travel as buffers', () => {
    const b = new ModelBuilder({ fileName: 't.json', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    const buf = encode('xx{"k":"v","n":[1,2]}yy{"é":1}');
    const bytesValue = { type: PayloadType.Json, bytes: buf, start: 2, end: 21 } as const;
    b.range(t, 0, 10, { name: 'bytes', payload: bytesValue });
    b.range(t, 20, 30, { name: 'string', payload: { type: PayloadType.Json, value: '{"s":true}' } });
    b.mark(t, 5, { name: 'mark', payload: { type: PayloadType.Json, bytes: buf, start: 23, end: buf.length } });
    const m = b.finish();
    const byName = (name: string) => [...m.ranges.style].findIndex((s) => m.strings[m.styles.name[s]] === name);
    expect(payloadValue(m, m.ranges.payload[byName('bytes')])).toEqual({ type: PayloadType.Json, value: '{"k":"v","n":[1,2]}' });
    expect(payloadJson(m, m.ranges.payload[byName('bytes')])).toEqual({ k: 'v', n: [1, 2] });
    expect(payloadValue(m, m.ranges.payload[byName('string')])).toEqual({ type: PayloadType.Json, value: '{"s":true}' });
    expect(payloadValue(m, m.marks.payload[0])).toEqual({ type: PayloadType.Json, value: '{"é":1}' });
    // No string per bytes payload; the texts' buffers are in the transfer list.
    expect(m.strings).not.toContain('{"k":"v","n":[1,2]}');
    const buffers = modelTransferables(m);
    expect(buffers).toContain(m.jsonText!.bytes.buffer);
    expect(buffers).toContain(m.jsonText!.start.buffer);
  });

  it('leaves models without them unchanged', () => {
    const b = new ModelBuilder({ fileName: 't.json', format: 'test', byteSize: 0 });
    b.range(b.thread(1, 1), 0, 10, { name: 'a', payload: { type: PayloadType.Json, value: '{}' } });
    expect(b.finish().jsonText).toBeUndefined();
  });
});
