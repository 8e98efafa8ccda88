import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import { EntryFlag, EntryType, SchemaType, type PayloadRegistry } from '../payload/schema.ts';
import { hexDump, PayloadTree } from './PayloadTree.tsx';

function modelWithPayload() {
  const b = new ModelBuilder({ fileName: 't.nvtxc', format: 'nvtxc', byteSize: 0 });
  const t = b.thread(1, 1);
  const registry: PayloadRegistry = {
    schemas: [
      { domain: 0, id: 2 ** 24, name: 'point', type: SchemaType.Static, flags: 0, entries: [{ flags: 0, type: EntryType.Int32, name: 'x', arrayOrUnionDetail: 0, offset: 0 }, { flags: 0, type: EntryType.Int32, name: 'y', arrayOrUnionDetail: 0, offset: 0 }] },
      {
        domain: 0,
        id: 2 ** 24 + 1,
        name: 'job',
        type: SchemaType.Static,
        flags: 0,
        entries: [
          { flags: 0, type: 2 ** 24 + 2, name: 'mode', arrayOrUnionDetail: 0, offset: 0 },
          { flags: 0, type: 2 ** 24, name: 'at', arrayOrUnionDetail: 0, offset: 0 },
          { flags: EntryFlag.Hide, type: EntryType.UInt8, name: 'secret', arrayOrUnionDetail: 0, offset: 0 },
          { flags: 0, type: EntryType.ColorArgb, name: 'tint', arrayOrUnionDetail: 0, offset: 0 },
        ],
      },
    ],
    enums: [{ domain: 0, id: 2 ** 24 + 2, name: 'mode', size: 4, entries: [{ name: 'FAST', value: 1, isFlag: false }] }],
  };
  b.setPayloadRegistry(registry);
  const bytes = new Uint8Array(20);
  const v = new DataView(bytes.buffer);
  v.setInt32(0, 1, true);
  v.setInt32(4, -3, true);
  v.setInt32(8, 4, true);
  v.setUint8(12, 9);
  v.setUint32(16, 0xff336699, true);
  const payload = b.extPayload(0, [{ schemaId: 2 ** 24 + 1, bytes, address: 0x1000n }, { schemaId: 99999, bytes: Uint8Array.of(1, 2, 3) }]);
  b.mark(t, 0, { name: 'm', payload });
  return b.finish();
}

describe('PayloadTree', () => {
  const model = modelWithPayload();
  const html = renderToStaticMarkup(<PayloadTree model={model} payload={model.marks.payload[0]} />);

  it('shows each field with its type and value, nested structs as subtrees, enums by name', () => {
    expect(html).toContain('data-path="mode"');
    expect(html).toMatch(/FAST \(1\)/);
    expect(html).toContain('data-path="at.x"');
    expect(html).toMatch(/data-path="at.x".*?>-3</);
    expect(html).toMatch(/data-path="at.y".*?>4</);
    expect(html).toContain('struct point');
    expect(html).toContain('0xff336699');
  });

  it('keeps hidden fields behind a toggle', () => {
    expect(html).not.toContain('data-path="secret"');
    expect(html).toContain('show 1 hidden field');
  });

  it('says why a payload cannot be decoded and offers the raw bytes', () => {
    expect(html).toContain('unknown schema id 99999');
    expect(html).toContain('Raw bytes');
    expect(html).toContain('0000  01 02 03');
  });
});

describe('hexDump', () => {
  it('writes 16 bytes per line with offsets and cuts long blobs', () => {
    const bytes = Uint8Array.from({ length: 40 }, (_, i) => i);
    expect(hexDump(bytes, 32).split('\n')).toEqual([
      '0000  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f',
      '0010  10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f',
      '… 8 more bytes',
    ]);
  });
});
