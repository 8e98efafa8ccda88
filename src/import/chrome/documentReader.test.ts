import { describe, expect, it } from 'vitest';
import { TraceDocumentReader, type IssueLocation, type TraceDocumentSink } from './documentReader.ts';
import { INCOMPLETE, decodeText, skipValue } from './jsonBytes.ts';

interface Recorded {
  events: { value: unknown; offset: number }[];
  top: { key: string; json: string | undefined; bytes: number; offset: number }[];
  issues: { severity: string; message: string; offset?: number; line?: number }[];
}

/** A sink that records each event's JSON value and its file offset. */
function recordingSink(): TraceDocumentSink & { out: Recorded } {
  const out: Recorded = { events: [], top: [], issues: [] };
  return {
    out,
    event(buf, pos, limit, base) {
      const end = skipValue(buf, pos, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      out.events.push({ value: JSON.parse(decodeText(buf, pos, end)), offset: base + pos });
      return end;
    },
    topLevelValue(key, json, bytes, where) {
      out.top.push({ key, json, bytes, offset: where.offset });
    },
    report(severity, message, where?: IssueLocation) {
      out.issues.push({ severity, message, ...where });
    },
  };
}

const encode = (s: string) => new TextEncoder().encode(s);

function read(chunks: Uint8Array[], keptKeys: string[] = ['otherData'], maxCarryBytes?: number): Recorded {
  const sink = recordingSink();
  const reader = new TraceDocumentReader(sink, { keptKeys: new Set(keptKeys), maxCarryBytes });
  for (const c of chunks) reader.push(c);
  reader.end();
  return sink.out;
}

function readText(text: string, keptKeys?: string[]): Recorded {
  return read([encode(text)], keptKeys);
}

/** Every way of cutting `bytes` into two chunks, plus one byte per chunk. */
function chunkings(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [];
  for (let k = 0; k <= bytes.length; k++) out.push([bytes.subarray(0, k), bytes.subarray(k)]);
  out.push(Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)));
  return out;
}

describe('TraceDocumentReader forms', () => {
  it('reads the array form', () => {
    const r = readText('[{"a":1},\n{"b":[2,{"c":"}"}]}]');
    expect(r.events.map((e) => e.value)).toEqual([{ a: 1 }, { b: [2, { c: '}' }] }]);
    expect(r.events[1].offset).toBe(10);
    expect(r.issues).toEqual([]);
  });

  it('accepts the unterminated array with a trailing comma, as Chrome writes it', () => {
    const r = readText('[{"a":1},\n{"a":2},\n');
    expect(r.events.length).toBe(2);
    expect(r.issues).toEqual([]);
    expect(readText('[{"a":1},]').issues).toEqual([]);
  });

  it('reads the object form, keeping small keys and skipping the rest', () => {
    const text = '\ufeff{"systemTraceEvents":"x\\"y","traceEvents":[{"a":1}],"otherData":{"v":"1"},"n":[1,2]}';
    const r = readText(text);
    expect(r.events.map((e) => e.value)).toEqual([{ a: 1 }]);
    expect(r.top).toEqual([
      { key: 'systemTraceEvents', json: undefined, bytes: 6, offset: 24 },
      { key: 'otherData', json: '{"v":"1"}', bytes: 9, offset: expect.any(Number) },
      { key: 'n', json: undefined, bytes: 5, offset: expect.any(Number) },
    ]);
    expect(r.issues).toEqual([]);
  });

  it('reports an object form without traceEvents, and a truncated one', () => {
    expect(readText('{"otherData":{}}').issues.map((i) => i.message)).toEqual(['not a Chrome trace: a JSON object without a "traceEvents" array (keys "otherData")']);
    const keys = Array.from({ length: 10 }, (_, i) => `"k${i}":${i}`).join(',');
    expect(readText(`{${keys}}`).issues[0]).toMatchObject({ severity: 'error', message: expect.stringMatching(/keys "k0", .*"k7" and 2 more\)$/) });
    expect(readText('{}').issues[0].message).toMatch(/\(no keys\)$/);
    expect(readText('{"systemTraceEvents":"# tracer: nop\\n"}').issues[0].message).toMatch(/^the trace holds only "systemTraceEvents" \(ftrace text/);
    const cut = readText('{"traceEvents":[{"a":1},{"a":2}');
    expect(cut.events.length).toBe(2);
    expect(cut.issues.map((i) => i.message)).toEqual([expect.stringContaining('ends inside the traceEvents array')]);
  });

  it('skips (and reports) array elements that are not objects', () => {
    const r = readText('[{"a":1}, 5, "x", {"a":2}]');
    expect(r.events.length).toBe(2);
    expect(r.issues.filter((i) => i.severity === 'warning').length).toBe(2);
    expect(r.issues[0].offset).toBe(10);
  });

  it('refuses what is not JSON and says where', () => {
    const r = readText('  hello');
    expect(r.issues[0]).toMatchObject({ severity: 'error', offset: 2, line: 1 });
    expect(readText('').issues[0].message).toMatch(/empty/);
  });

  it('warns about data after the document', () => {
    const r = readText('[{"a":1}] x');
    expect(r.events.length).toBe(1);
    expect(r.issues[0]).toMatchObject({ severity: 'warning', offset: 10 });
  });
});

describe('TraceDocumentReader chunk boundaries', () => {
  const samples = [
    '[{"name":"a\\"b\\\\","ts":1.5,"args":{"k":[1,2,{"z":null}],"s":"\\u00e9"}},\n{"ph":"X"} ,{"x":true,"y":false}\n]',
    '\ufeff {"traceEvents":[{"a":-1.5e3},{"b":"}]"}],"otherData":{"k":"v"},"skip":{"deep":[[[]]]},"last":12}',
    '[{"ok":1},{"bad" 1},{"ok":2},{"ok":3}',
    '[{"a":1},{"b":2',
  ];
  for (const [n, text] of samples.entries()) {
    it(`gives the same result for every cut of sample ${n}`, () => {
      const bytes = encode(text);
      const whole = read([bytes]);
      expect(whole.events.length).toBeGreaterThan(0);
      for (const chunks of chunkings(bytes)) expect(read(chunks)).toEqual(whole);
    });
  }

  it('carries one event across many chunks', () => {
    const big = 'x'.repeat(100_000);
    const bytes = encode(`[{"a":1},{"big":"${big}","n":2},{"a":3}]`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 997) chunks.push(bytes.subarray(i, i + 997));
    const r = read(chunks);
    expect(r.events.map((e) => (e.value as Record<string, unknown>).n ?? (e.value as Record<string, unknown>).a)).toEqual([1, 2, 3]);
    expect(r.events[2].offset).toBe(bytes.length - 8);
  });

  it('skips a huge top-level value without keeping it', () => {
    const bytes = encode(`{"systemTraceEvents":"${'y'.repeat(50_000)}","traceEvents":[{"a":1}]}`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 1000) chunks.push(bytes.subarray(i, i + 1000));
    const r = read(chunks, [], 1000);
    expect(r.top[0]).toMatchObject({ key: 'systemTraceEvents', json: undefined, bytes: 50_002 });
    expect(r.events.length).toBe(1);
    expect(r.issues).toEqual([]);
  });

  it('gives up on an event larger than the carry limit and goes on', () => {
    const bytes = encode(`[{"a":1},{"big":"${'z'.repeat(5000)}"},{"a":3}]`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 100) chunks.push(bytes.subarray(i, i + 100));
    const r = read(chunks, [], 1000);
    expect(r.events.map((e) => e.value)).toEqual([{ a: 1 }, { a: 3 }]);
    expect(r.issues).toEqual([expect.objectContaining({ severity: 'error', offset: 9, message: expect.stringContaining('larger than') })]);
  });
});

describe('TraceDocumentReader malformed JSON', () => {
  it('reports bad JSON in the middle with byte offset and line, keeping events on both sides', () => {
    const lines = ['[', '{"i":0},', '{"i":1},', '{"i":2 "oops":1},', '{"i":3},', '{"i":4}', ']'];
    const text = lines.join('\n');
    const r = readText(text);
    expect(r.events.map((e) => (e.value as { i: number }).i)).toEqual([0, 1, 3, 4]);
    const error = r.issues.find((i) => i.severity === 'error')!;
    expect(error.line).toBe(4);
    expect(error.offset).toBe(text.indexOf('"oops"'));
    expect(error.message).toMatch(/expected ',' or '}'/);
    expect(r.issues.some((i) => i.severity === 'info' && /resumes/.test(i.message))).toBe(true);
  });

  it('finds the line of an error deep in a chunked stream', () => {
    const rows: string[] = [];
    for (let i = 0; i < 2000; i++) rows.push(i === 1500 ? '{"i":1500,}' : `{"i":${i}}`);
    const bytes = encode(`[\n${rows.join(',\n')}\n]`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 4096) chunks.push(bytes.subarray(i, i + 4096));
    const r = read(chunks);
    expect(r.events.length).toBe(1999);
    const error = r.issues.find((i) => i.severity === 'error')!;
    expect(error.line).toBe(1502);
    expect(error.offset).toBe(new TextDecoder().decode(bytes).indexOf('{"i":1500,}') + 10);
  });

  it('reports a file that ends inside an event', () => {
    const r = readText('[{"a":1},{"b":"tru');
    expect(r.events.length).toBe(1);
    expect(r.issues).toEqual([expect.objectContaining({ severity: 'error', offset: 9, message: expect.stringContaining('truncated') })]);
  });

  it('stops at bad JSON outside the events array', () => {
    const r = readText('{"traceEvents":[{"a":1}], "x" 5, "y":1}');
    expect(r.events.length).toBe(1);
    expect(r.issues).toEqual([expect.objectContaining({ severity: 'error', offset: 30 })]);
  });
});

describe('TraceDocumentReader line counting work', () => {
  /** Reads `bytes` in chunks of `chunkBytes`; returns what was recorded and the line search work. */
  function readCounting(bytes: Uint8Array, chunkBytes: number): { r: Recorded; work: number } {
    const sink = recordingSink();
    const reader = new TraceDocumentReader(sink, { keptKeys: new Set() });
    for (let i = 0; i < bytes.length; i += chunkBytes) reader.push(bytes.subarray(i, i + chunkBytes));
    reader.end();
    return { r: sink.out, work: reader.lineSearchWork };
  }

  // Events with nested args: the sink cannot count their line breaks, so the reader does.
  const event = (i: number) => `{"ph":"X","name":"n${i}","ts":${i},"dur":1,"args":{"data":{"frame":[${i},{"url":"u"}]}}}`;

  it('searches each byte about once on one line as on many, in one chunk or many', () => {
    const n = 20_000;
    const rows = Array.from({ length: n }, (_, i) => event(i));
    for (const [layout, text] of [
      ['one line', `{"traceEvents":[${rows.join(',')}]}`],
      ['one event per line', `{"traceEvents":[\n${rows.join(',\n')}\n]}\n`],
    ] as const) {
      const bytes = encode(text);
      for (const chunkBytes of [bytes.length, 64 * 1024, 4096]) {
        const { r, work } = readCounting(bytes, chunkBytes);
        expect(r.events.length, layout).toBe(n);
        // Each byte once (a line break that ended a search is looked at again by the next one);
        // the quadratic search (each event searching to the end of its chunk) is ~n/2 times that.
        const breaks = bytes.filter((b) => b === 0x0a).length;
        expect(work, `${layout}, chunks of ${chunkBytes}`).toBeLessThanOrEqual(bytes.length + breaks);
      }
    }
  });

  it('keeps error positions cheap and right on one line with many bad events', () => {
    const n = 8_000;
    // Every other event is bad JSON (a trailing comma): each error resyncs and asks for its line.
    const rows = Array.from({ length: n }, (_, i) => (i % 2 ? `{"i":${i},}` : event(i)));
    const bytes = encode(`[${rows.join(',')}]`);
    const { r, work } = readCounting(bytes, 64 * 1024);
    expect(r.events.length).toBe(n / 2);
    const errors = r.issues.filter((i) => i.severity === 'error');
    expect(errors[0]).toMatchObject({ line: 1, offset: new TextDecoder().decode(bytes).indexOf('{"i":1,}') + 7 });
    expect(errors.at(-1)?.message).toMatch(/more JSON syntax errors/);
    expect(work).toBeLessThanOrEqual(bytes.length);
  });

  it('counts lines the same way after the search ran ahead', () => {
    // The first search runs to the break after event 2; the error on line 3 must still say 3.
    const text = `[${event(0)},${event(1)},\n${event(2)},\n{"i":3,},\n${event(4)}]`;
    const r = readText(text);
    const error = r.issues.find((i) => i.severity === 'error')!;
    expect(error.line).toBe(3);
    expect(r.events.length).toBe(4);
  });
});

describe('TraceDocumentReader first chunk', () => {
  it('reads a first chunk larger than the early cut as it reads it in small pieces: events, offsets, lines, issues', () => {
    // 40 kB of events one per line, with a bad one and a top-level key around the 16 KiB cut.
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 40_000; i++) {
      lines.push(i === 180 ? '{"name":"bad" "ph":"X"},' : `{"name":"ev${i}","ph":"X","ts":${i},"args":{"k":[${i},{"s":"a\\nb"}]}},`);
    }
    const text = `{"traceEvents":[\n${lines.join('\n')}\n{"last":1}],\n"otherData":{"x":1}}`;
    const bytes = encode(text);
    for (const at of [16 * 1024 - 40, 16 * 1024 - 7, 16 * 1024, 16 * 1024 + 3]) {
      // A bad event or a cut event right at the cut, as well as the cut anywhere in an event.
      const shifted = encode(' '.repeat(Math.max(0, 16 * 1024 - at)) + text);
      const whole = read([shifted]);
      const pieces = read(Array.from({ length: Math.ceil(shifted.length / 997) }, (_, k) => shifted.subarray(k * 997, (k + 1) * 997)));
      expect(whole).toEqual(pieces);
    }
    const whole = read([bytes]);
    expect(whole.events.length).toBe(lines.length);
    expect(whole.issues.length).toBeGreaterThan(0);
    expect(whole.issues[0].line).toBe(182);
    expect(whole.top.map((t) => t.key)).toEqual(['otherData']);
  });
});
