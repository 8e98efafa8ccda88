/**
 * The two halves of a Chrome trace load split across two workers (src/import/chromeSplit.ts runs
 * them): the parse side runs the document reader and the event parsers only, and records each
 * slice of the content as its bytes plus a columnar record of what the reader found
 * (eventRecord.ts); the build side gives the record to `ChromeTraceDecoder` over the same bytes, in
 * file order. All decoder state (names, async and flow pairing, origin, Kineto roles, the issue
 * budget) lives on the build side, so the model is the one-thread model.
 *
 * One thing the parse side must know of the decoder: the decoder throws a JsonSyntaxError for an
 * event whose kept string holds a bad escape (`\x`), which the reader reports and resynchronises
 * after. For such an event (only bad JSON has one) the parse side asks a probe decoder of its own
 * whether, and where, the decoder throws; the throw depends on the event's own fields only (the
 * decoder caches only strings it could decode). The build side then runs the event for its side
 * effects and drops the throw, which the reader has reported already.
 */
import { ModelBuilder, type BuilderOptions } from '../../model/builder.ts';
import { ChromeTraceDecoder, KEPT_KEYS, type DocumentSummary } from './chrome.ts';
import { TraceDocumentReader, type IssueLocation, type TraceDocumentSink } from './documentReader.ts';
import { EventFields, FieldKind, parseEvent, type SpanField } from './eventFields.ts';
import { EventRecordReader, EventRecordWriter, TAG_CALL, TAG_CHUNK, TAG_EVENT, TAG_VIEW, type DocumentCall } from './eventRecord.ts';
import { FALLBACK, parseEventFast } from './fastEvent.ts';
import { decodeStringToken, INCOMPLETE, JsonSyntaxError } from './jsonBytes.ts';

/** One slice of the content as the parse side hands it over. */
export interface RecordedSlice {
  /** The bytes the events lie in (chunks of the file, events joined across a chunk boundary). */
  buffers: ArrayBuffer[];
  /** Three numbers per view the record names: buffer index, byte offset, length. */
  views: number[];
  ints: Int32Array;
  intCount: number;
  nums: Float64Array;
  calls: DocumentCall[];
}

/** What a slice's message transfers (moves, not copies): its bytes and its record arrays. */
export function sliceTransferables(slice: RecordedSlice): ArrayBuffer[] {
  return [...slice.buffers, slice.ints.buffer as ArrayBuffer, slice.nums.buffer as ArrayBuffer];
}

/** Parses events into records; a slice is handed to `send` at a chunk whose buffer is not the last one's, once `minSliceBytes` are recorded. */
export class ChromeParseSide implements TraceDocumentSink {
  lastEventLineBreaks = -1;
  private readonly f = new EventFields();
  private readonly reader: TraceDocumentReader;
  private readonly writer = new EventRecordWriter();
  private buffers: ArrayBuffer[] = [];
  private readonly bufferIndex = new Map<ArrayBufferLike, number>();
  private views: number[] = [];
  private lastView: Uint8Array | undefined;
  private calls: DocumentCall[] = [];
  private pendingBytes = 0;
  private chunkBuffer: ArrayBufferLike | undefined;
  private probe: ChromeTraceDecoder | undefined;
  private readonly pool: { ints: Int32Array; nums: Float64Array }[] = [];

  constructor(
    private readonly send: (slice: RecordedSlice) => void,
    /** For the probe decoder's builder (bad escapes only). */
    private readonly builderOptions: BuilderOptions,
    private readonly minSliceBytes: number,
  ) {
    this.reader = new TraceDocumentReader(this, { keptKeys: KEPT_KEYS });
  }

  /** What the decoder's `finish` needs of the reader (after `end`). */
  get document(): DocumentSummary {
    const r = this.reader;
    return { documentForm: r.documentForm, nonObjectElements: r.nonObjectElements, foundEvents: r.foundEvents };
  }

  /** The next content chunk: `reached` content bytes came before it, `gzipProblems` are known so far. */
  chunk(chunk: Uint8Array, reached: number, gzipProblems: number): void {
    // A chunk's buffer is handed over whole, so a slice ends only where the next chunk is in another one.
    if (chunk.buffer !== this.chunkBuffer && this.pendingBytes >= this.minSliceBytes) this.flush();
    this.chunkBuffer = chunk.buffer;
    this.pendingBytes += chunk.length;
    this.writer.chunk(reached, chunk.length, gzipProblems);
    this.reader.push(chunk);
  }

  /**
   * After the last chunk (not after a stop), `reached` content bytes in all: the reader's end, and
   * the last slice. The end is marked as a chunk of no bytes and no gzip problem count (-1).
   */
  end(reached: number): void {
    this.writer.chunk(reached, 0, -1);
    this.reader.end();
    this.flush();
  }

  /** Hands the slice recorded so far to `send`. */
  flush(): void {
    if (this.writer.intCount === 0) return;
    this.reader.ownCarry();
    // Sizes read before `send`: a transfer leaves the arrays empty.
    const intLength = this.writer.ints.length;
    const numLength = this.writer.nums.length;
    this.send({ buffers: this.buffers, views: this.views, ints: this.writer.ints, intCount: this.writer.intCount, nums: this.writer.nums, calls: this.calls });
    this.buffers = [];
    this.bufferIndex.clear();
    this.views = [];
    this.lastView = undefined;
    this.calls = [];
    this.pendingBytes = 0;
    const reused = this.pool.pop();
    if (reused) this.writer.reset(reused.ints, reused.nums);
    else this.writer.reset(new Int32Array(intLength), new Float64Array(numLength));
  }

  /** A slice the build side is done with: its record arrays are reused. */
  recycle(slice: RecordedSlice): void {
    this.pool.push({ ints: slice.ints, nums: slice.nums });
  }

  // ---------------------------------------------------------------- TraceDocumentSink

  event(buf: Uint8Array, pos: number, limit: number, base: number): number {
    const f = this.f;
    let end = parseEventFast(buf, pos, limit, f);
    if (end === FALLBACK) end = parseEvent(buf, pos, limit, f);
    this.lastEventLineBreaks = f.lineBreaks;
    if (end === INCOMPLETE) return INCOMPLETE;
    if (buf !== this.lastView) this.useView(buf, base);
    // Escapes are rare: only then is it worth asking whether one makes the decoder throw.
    if (this.writer.event(f, pos, false) && hasBadEscape(buf, f)) {
      const thrown = this.dispatchError(buf, pos, limit, base);
      if (thrown) {
        this.writer.markThrows();
        throw thrown;
      }
    }
    return end;
  }

  topLevelValue(key: string, json: string | undefined, bytes: number, where: IssueLocation): void {
    this.call({ kind: 'top', key, json, bytes, where });
  }

  report(severity: 'error' | 'warning' | 'info', message: string, where?: IssueLocation): void {
    this.call({ kind: 'report', severity, message, where });
  }

  private call(call: DocumentCall): void {
    this.writer.call(this.calls.length);
    this.calls.push(call);
  }

  private useView(buf: Uint8Array, base: number): void {
    let b = this.bufferIndex.get(buf.buffer);
    if (b === undefined) {
      b = this.buffers.length;
      this.buffers.push(buf.buffer as ArrayBuffer);
      this.bufferIndex.set(buf.buffer, b);
    }
    this.writer.view(this.views.length / 3, base);
    this.views.push(b, buf.byteOffset, buf.length);
    this.lastView = buf;
  }

  /** The JsonSyntaxError the decoder throws for the event just parsed, if any (a probe decoder finds out). */
  private dispatchError(buf: Uint8Array, pos: number, limit: number, base: number): JsonSyntaxError | undefined {
    this.probe ??= new ChromeTraceDecoder(new ModelBuilder(this.builderOptions));
    try {
      this.probe.event(buf, pos, limit, base);
    } catch (e) {
      if (e instanceof JsonSyntaxError) return e;
      throw e;
    }
    return undefined;
  }
}

/** Whether a kept string field of `f` holds an escape that does not decode (what makes the decoder throw). */
function hasBadEscape(buf: Uint8Array, f: EventFields): boolean {
  return (
    badEscape(buf, f.name) ||
    badEscape(buf, f.cat) ||
    badEscape(buf, f.pid) ||
    badEscape(buf, f.tid) ||
    badEscape(buf, f.id) ||
    badEscape(buf, f.scope) ||
    badEscape(buf, f.cname) ||
    badEscape(buf, f.bindId)
  );
}

function badEscape(buf: Uint8Array, s: SpanField): boolean {
  if (s.kind !== FieldKind.String || !s.escaped) return false;
  try {
    decodeStringToken(buf, s.start - 1, s.end + 1, true);
    return false;
  } catch {
    return true;
  }
}

/** Where a chunk of the content starts, as the build side is told it. */
export interface ChunkStart {
  /** Content bytes before the chunk. */
  reached: number;
  length: number;
  /** Gzip problems known when the chunk was read; -1 marks the end of the content (no chunk, no budget check). */
  gzipProblems: number;
}

/** Runs the decoder over recorded slices, in order. */
export class ChromeBuildSide {
  readonly decoder: ChromeTraceDecoder;
  private readonly chunkStart: ChunkStart = { reached: 0, length: 0, gzipProblems: 0 };
  private static readonly noBytes: Uint8Array = new Uint8Array(0);

  constructor(builder: ModelBuilder) {
    this.decoder = new ChromeTraceDecoder(builder);
  }

  /**
   * Decodes one slice; `onChunk` is called where each chunk starts (before its events), and a
   * false answer stops the slice there. Returns false when stopped.
   */
  replay(slice: RecordedSlice, onChunk: (chunk: ChunkStart) => boolean): boolean {
    const decoder = this.decoder;
    const f = decoder.fields;
    const views: Uint8Array[] = [];
    for (let v = 0; v < slice.views.length; v += 3) views.push(new Uint8Array(slice.buffers[slice.views[v]], slice.views[v + 1], slice.views[v + 2]));
    const r = new EventRecordReader(slice.ints, slice.intCount, slice.nums);
    let buf = ChromeBuildSide.noBytes;
    let base = 0;
    while (!r.done) {
      switch (r.tag()) {
        case TAG_EVENT: {
          const pos = r.event(f);
          if (!r.dispatchThrows) decoder.recordedEvent(buf, base + pos);
          else expectSyntaxError(() => decoder.recordedEvent(buf, base + pos), base + pos);
          break;
        }
        case TAG_VIEW:
          buf = views[r.index()];
          base = r.num();
          break;
        case TAG_CHUNK:
          r.chunk(this.chunkStart);
          if (!onChunk(this.chunkStart)) return false;
          break;
        case TAG_CALL: {
          const call = slice.calls[r.index()];
          if (call.kind === 'top') decoder.topLevelValue(call.key, call.json, call.bytes, call.where);
          else decoder.report(call.severity, call.message, call.where);
          break;
        }
      }
    }
    return true;
  }

  finish(document: DocumentSummary): void {
    this.decoder.finish(document);
  }
}

/** Runs an event that the parse side found the decoder throws for (the reader reported it there). */
function expectSyntaxError(run: () => void, offset: number): void {
  try {
    run();
  } catch (e) {
    if (e instanceof JsonSyntaxError) return;
    throw e;
  }
  throw new Error(`chrome split: the event at byte ${offset} did not throw on the build side as it did on the parse side`);
}
