import { describe, expect, it } from 'vitest';
import { detectFormat } from '../formats.ts';
import { looksLikeNvtxt } from './sniff.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('NVTXT sniffing', () => {
  it.each([
    ['a command call', 'Marker, 1, ns, 1, 2, 0, 0, x, 0\n'],
    ['comments, assignments, then a definition', '# captured by app\n\nTimeBase = Qpc\nProcessId = 1844\n@RangeStartEnd, Start, End, Message\n'],
    ['the guide example (CRLF)', '@RangeStartEnd, Start, End, Message\r\nProcessId = 1844\r\nColor = Blue\r\nRangeStartEnd, 8236719005, 8236928073, "My Message"\r\n'],
    ['a BOM and indentation', '\ufeff  # x\n  NameProcess, 1, app\n'],
    ['a call with no values', '@SetFileDisplayName\nName = x\nSetFileDisplayName\n'],
    ['a head cut mid-line', '@Marker, Time\nMarker, 12'],
  ])('recognises %s', (_, text) => {
    expect(looksLikeNvtxt(bytes(text))).toBe(true);
  });

  it.each([
    ['empty input', ''],
    ['JSON', '{"traceEvents": []}'],
    ['a JSON array', '[{"name": "Marker"}]'],
    ['SQLite', 'SQLite format 3\u0000\u0010\u0000'],
    ['binary with NUL bytes', 'Marker, 1\u0000\u0001\u0002'],
    ['only comments', '# Marker, 1, ns\n# nothing else\n'],
    ['only assignments', 'a = 1\nb = "x"\n'],
    ['a shell script', '#!/bin/sh\nset -e\nMarker, 1\n'],
    ['CSV with another header', 'name,start,end\nMarker,1,2\n'],
    ['a wrongly cased command', 'marker, 1, ns, 1, 2, 0, 0, x, 0\n'],
    ['a Python file', '# tool\nimport os\nx = 1\n'],
  ])('rejects %s', (_, text) => {
    expect(looksLikeNvtxt(bytes(text))).toBe(false);
  });

  it('is found by format detection from bytes, whatever the file name', () => {
    expect(detectFormat(bytes('RangePush, 1, ns, 1, 2, 0, 0, x, 0\n'), 'capture.log')?.id).toBe('nvtxt');
    expect(detectFormat(bytes('garbage\n'), 'capture.nvtxt')?.id).toBe('nvtxt');
    expect(detectFormat(bytes('{"a": 1}'), 'capture.json')?.id).not.toBe('nvtxt');
  });
});

describe('NVTXT sniffing: UTF-16', () => {
  const utf16le = (s: string) => {
    const out = new Uint8Array(2 + s.length * 2);
    out[0] = 0xff;
    out[1] = 0xfe;
    for (let i = 0; i < s.length; i++) {
      out[2 + 2 * i] = s.charCodeAt(i) & 0xff;
      out[3 + 2 * i] = s.charCodeAt(i) >> 8;
    }
    return out;
  };

  it('recognises UTF-16LE NVTXT with a BOM, and not other UTF-16 text', () => {
    expect(looksLikeNvtxt(utf16le('# from PowerShell\r\nMarker, 1, ns, 1, 2, 0, 0, x, 0\r\n'))).toBe(true);
    expect(looksLikeNvtxt(utf16le('Hello world\r\n'))).toBe(false);
  });
});
