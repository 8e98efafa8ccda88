/**
 * A `ModelBuilder` that records instead of building: decoders run against it unchanged, and
 * `replayTape` later makes the same calls, in the same order, on a real builder (in another
 * worker: parsing and building then run on two cores at once).
 *
 * Calls that return something the decoder keeps (`intern`, `thread`, `style`, `markRow`,
 * `extPayload`...) run on the real builder this class extends (the shadow), which then holds the
 * names, processes, styles and rows those calls create, but never an event: the cheap front of
 * the build. Their results are handles that the replay maps to what the real builder returns for
 * the same call (the two can differ: events create names, styles and rows on the real side only).
 * Per-event calls only write a row of typed-array columns (tape.ts).
 */
import { ModelBuilder, MAX_STRING_CHARS } from '../builder.ts';
import type { BuilderOptions, CounterRowOptions, CustomRowOptions, EventAttrs, PayloadValue, RangeRename, SourceLocation, StringKind, StringPlace } from '../builder.ts';
import type { ExtMemoryInput, ExtPayloadInput } from '../extPayloads.ts';
import type { PayloadRegistry } from '../../payload/schema.ts';
import { type LoadIssue, type Model, type ResourceInfo, type StringId } from '../types.ts';
import { Has, newBatch, Op, type RowExtras, type TapeBatch, type TapeCall } from './tape.ts';

/** Rows per batch unless told. */
export const TAPE_BATCH_ROWS = 32768;

/** Thrown on the tape side once the replay side asked it to stop (the model went over its memory budget). */
export class TapeStopped extends Error {
  constructor() {
    super('the builder side stopped the decode');
    this.name = 'TapeStopped';
  }
}

export class TapeBuilder extends ModelBuilder {
  private batch: TapeBatch;
  private arena = new Uint8Array(1 << 16);
  private arenaUsed = 0;
  /** Shadow handles the tape already recorded a call for (the replay knows their real ids). */
  private readonly knownNames = new Set<number>();
  private readonly knownStyles = new Set<number>();
  private readonly knownThreads = new Set<number>();
  private readonly knownProcesses = new Set<number>();
  private readonly knownCategories = new Set<string>();
  private stopRequested = false;

  /**
   * `sink` receives each full batch (and the rest at `flush`); it may replay it at once (tests, one
   * thread) or post it with `batchTransferables`.
   */
  constructor(
    options: BuilderOptions,
    private readonly sink: (batch: TapeBatch) => void,
    private readonly batchRows = TAPE_BATCH_ROWS,
  ) {
    super(options);
    this.batch = newBatch(batchRows);
  }

  /** Asks the decode to stop at its next budget check (`checkBudget` then throws `TapeStopped`). */
  requestStop(): void {
    this.stopRequested = true;
    this.wake();
  }

  get stopped(): boolean {
    return this.stopRequested;
  }

  /** Hands the rows recorded so far to the sink. */
  flush(): void {
    const b = this.batch;
    if (b.count === 0 && b.side.length === 0) return;
    b.arena = this.arena.slice(0, this.arenaUsed);
    this.arenaUsed = 0;
    this.batch = this.pool.pop() ?? newBatch(this.batchRows);
    this.sent++;
    this.sink(b);
  }

  /** Batches handed to the sink, and those the replay side gave back (`recycle`): the difference is in flight. */
  private sent = 0;
  private returned = 0;
  private drained: { limit: number; resolve: () => void } | undefined;

  /**
   * Resolves once at most `limit` batches are with the replay side (or the decode is asked to stop):
   * the decode side waits here between chunks, so a replay slower than the decode holds back the
   * decode instead of queueing the rest of the file's tape in memory.
   */
  inFlightAtMost(limit: number): Promise<void> | undefined {
    if (this.sent - this.returned <= limit || this.stopRequested) return undefined;
    return new Promise((resolve) => (this.drained = { limit, resolve }));
  }

  private wake(): void {
    const d = this.drained;
    if (d && (this.sent - this.returned <= d.limit || this.stopRequested)) {
      this.drained = undefined;
      d.resolve();
    }
  }

  /** Batches the replay side is done with, for reuse: a fresh one costs its allocation and zeroing (about 3 MB). */
  private readonly pool: TapeBatch[] = [];

  /** Takes back a batch the replay side has replayed. */
  recycle(batch: TapeBatch): void {
    this.returned++;
    this.wake();
    if (batch.op.length !== this.batchRows || this.pool.length >= 4) return;
    batch.count = 0;
    batch.side = [];
    batch.arena = new Uint8Array(0);
    this.pool.push(batch);
  }

  // ---------------------------------------------------------------- recording

  private row(op: number): number {
    if (this.batch.count === this.batchRows) this.flush();
    const b = this.batch;
    const i = b.count++;
    b.op[i] = op;
    b.has[i] = 0;
    b.sideRef[i] = -1;
    return i;
  }

  private call(method: string, args: unknown[], result?: unknown): void {
    const i = this.row(Op.Call);
    const b = this.batch;
    b.i0[i] = b.side.length;
    b.side.push({ method, args, result } satisfies TapeCall);
  }

  private extras(i: number): RowExtras {
    const b = this.batch;
    if (b.sideRef[i] < 0) {
      b.sideRef[i] = b.side.length;
      b.side.push({});
    }
    return b.side[b.sideRef[i]] as RowExtras;
  }

  private where(i: number, where: SourceLocation | undefined): void {
    if (where === undefined) return;
    const b = this.batch;
    let has = Has.Where;
    if (where.line !== undefined) {
      has |= Has.Line;
      b.line[i] = where.line;
    }
    if (where.offset !== undefined) {
      has |= Has.Offset;
      b.offset[i] = where.offset;
    }
    b.has[i] |= has;
  }

  private payload(i: number, p: PayloadValue | undefined): void {
    if (p === undefined) return;
    const b = this.batch;
    if ('bytes' in p && p.bytes !== undefined) {
      const n = p.end - p.start;
      if (this.arenaUsed + n > this.arena.length) {
        const grown = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + n));
        grown.set(this.arena.subarray(0, this.arenaUsed));
        this.arena = grown;
      }
      this.arena.set(p.bytes.subarray(p.start, p.end), this.arenaUsed);
      b.payloadValue[i] = this.arenaUsed;
      b.payloadEnd[i] = this.arenaUsed + n;
      this.arenaUsed += n;
      b.has[i] |= Has.PayloadJsonBytes;
    } else if (typeof p.value === 'number') {
      b.payloadType[i] = p.type;
      b.payloadValue[i] = p.value;
      b.has[i] |= Has.PayloadNumber;
    } else {
      this.extras(i).payload = p;
      b.has[i] |= Has.PayloadSide;
    }
  }

  /**
   * The style of an event's attrs, resolved here on the shadow so that the replay side skips the
   * lookup (a share of the per-event work moves to this thread), or -1 where the replay side must
   * resolve it: a style already given, or a name over the string bound (whose cut report names
   * where the first cut string was). Called before the event's row is made, so that a new style's
   * `style` call comes before the event on the tape.
   */
  private preStyle(a: EventAttrs): number {
    if (a.style !== undefined || (a.name !== undefined && a.name.length > MAX_STRING_CHARS)) return -1;
    const s = super.style(a);
    if (!this.knownStyles.has(s)) {
      this.knownStyles.add(s);
      const { name, nameId, color, category, domain } = a;
      this.call('style', [{ name, nameId, color, category, domain }], s);
    }
    return s;
  }

  /** The attrs of an event with its style from `preStyle` (-1: recorded as given). Category and domain stay: they choose rows. */
  private styledAttrs(i: number, a: EventAttrs, style: number): void {
    if (style < 0) return this.attrs(i, a);
    const b = this.batch;
    b.style[i] = style;
    b.has[i] |= Has.Attrs | Has.Style | this.rowChoice(i, a);
    this.payload(i, a.payload);
  }

  /** Category and domain of an event's attrs (they choose the row of a start/end range); returns their `Has` bits. */
  private rowChoice(i: number, a: EventAttrs): number {
    const b = this.batch;
    let has = 0;
    if (a.category !== undefined) {
      has |= Has.Category;
      b.category[i] = a.category;
    }
    if (a.domain !== undefined) {
      has |= Has.Domain;
      b.domain[i] = a.domain;
    }
    return has;
  }

  private attrs(i: number, a: EventAttrs): void {
    const b = this.batch;
    let has = Has.Attrs;
    if (a.nameId !== undefined) {
      has |= Has.NameId;
      b.nameId[i] = a.nameId;
    }
    if (a.style !== undefined) {
      has |= Has.Style;
      b.style[i] = a.style;
    }
    if (a.color !== undefined) {
      has |= Has.Color;
      b.color[i] = a.color;
    }
    b.has[i] |= has | this.rowChoice(i, a);
    if (a.name !== undefined) {
      this.extras(i).name = a.name;
      b.has[i] |= Has.Name;
    }
    this.payload(i, a.payload);
  }

  private timed(op: number, thread: number, tNs: number): number {
    const i = this.row(op);
    this.batch.i0[i] = thread;
    this.batch.f0[i] = tNs;
    return i;
  }

  // ---------------------------------------------------------------- capture facts and reports

  override report(severity: LoadIssue['severity'], message: string, where?: SourceLocation & Pick<LoadIssue, 'kind' | 'timeNs' | 'thread'>): void {
    this.call('report', [severity, message, where && { ...where }]);
  }

  override nameResource(resource: ResourceInfo): void {
    this.call('nameResource', [{ ...resource }]);
  }

  override get issueCount(): number {
    throw new Error('TapeBuilder: the issue count is known on the replay side only');
  }

  override setClock(clock: string, originNs: bigint): void {
    this.call('setClock', [clock, originNs]);
  }

  override setCaptureSpan(startNs: number, endNs: number): void {
    this.call('setCaptureSpan', [startNs, endNs]);
  }

  override setDisplayName(name: string): void {
    this.call('setDisplayName', [name]);
  }

  override setProperty(key: string, value: string): void {
    this.call('setProperty', [key, value]);
  }

  // ---------------------------------------------------------------- names (shadow + call)

  override intern(s: string, kind: StringKind = 'name', where?: StringPlace): StringId {
    const id = super.intern(s, kind, where);
    // A long string is counted by the cut report on every call, not once.
    if (!this.knownNames.has(id) || s.length > MAX_STRING_CHARS) {
      this.knownNames.add(id);
      this.call('intern', [s, kind, where && { ...where }], id);
    }
    return id;
  }

  override process(pid: number, name?: string, where?: StringPlace): number {
    const p = super.process(pid, name, where);
    if (name !== undefined || !this.knownProcesses.has(p)) {
      this.knownProcesses.add(p);
      this.call('process', [pid, name, where && { ...where }], p);
    }
    return p;
  }

  override thread(pid: number, tid: number, name?: string, where?: StringPlace): number {
    const t = super.thread(pid, tid, name, where);
    if (name !== undefined || !this.knownThreads.has(t)) {
      this.knownThreads.add(t);
      this.call('thread', [pid, tid, name, where && { ...where }], t);
    }
    return t;
  }

  override processSortIndex(pid: number, sortIndex: number): void {
    super.processSortIndex(pid, sortIndex);
    this.call('processSortIndex', [pid, sortIndex]);
  }

  override threadSortIndex(pid: number, tid: number, sortIndex: number): void {
    super.threadSortIndex(pid, tid, sortIndex);
    this.call('threadSortIndex', [pid, tid, sortIndex]);
  }

  override domain(pid: number, name: string, where?: StringPlace): number {
    const d = super.domain(pid, name, where);
    this.call('domain', [pid, name, where && { ...where }], d);
    return d;
  }

  override category(domain: number, id: number): number {
    const c = super.category(domain, id);
    const key = `${domain}:${id}`;
    if (!this.knownCategories.has(key)) {
      this.knownCategories.add(key);
      this.call('category', [domain, id], c);
    }
    return c;
  }

  override nameCategory(domain: number, id: number, name: string, where?: StringPlace): void {
    super.nameCategory(domain, id, name, where);
    this.call('nameCategory', [domain, id, name, where && { ...where }]);
  }

  override addChildCategory(domain: number, parentId: number, childId: number, where?: SourceLocation): boolean {
    const ok = super.addChildCategory(domain, parentId, childId, where);
    this.call('addChildCategory', [domain, parentId, childId, where && { ...where }], ok);
    return ok;
  }

  override style(attrs: EventAttrs): number {
    const { name, nameId, color, category, domain, style } = attrs;
    const plain: EventAttrs = { name, nameId, color, category, domain, style };
    const s = super.style(plain);
    if (!this.knownStyles.has(s) || (name !== undefined && name.length > MAX_STRING_CHARS) || attrs.payload !== undefined) {
      this.knownStyles.add(s);
      this.call('style', [{ ...attrs, payload: attrs.payload && copyPayload(attrs.payload) }], s);
    }
    return s;
  }

  // ---------------------------------------------------------------- events (columns only)

  override push(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.Push, thread, tNs);
    this.styledAttrs(i, attrs, style);
    this.where(i, where);
  }

  /** Recorded as the `push` it stands for (the replay side makes the same range either way). */
  override pushStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined, offset: number): void {
    this.push(thread, tNs, { style, domain: domain === 0 ? undefined : domain, payload }, { offset });
  }

  /** None: the decoder then makes each push and pop a call, which the tape records. */
  override directStack(): undefined {
    return undefined;
  }

  /** Only for events written through `directStack`, which gives none here. */
  override sawTimes(): void {
    throw new Error('TapeBuilder.sawTimes: no events are written directly into a recording builder (directStack gives no stack)');
  }

  /** Only for ranges written through `directStack`, which gives none here. */
  override directPayloadRow(): number {
    throw new Error('TapeBuilder.directPayloadRow: no events are written directly into a recording builder (directStack gives no stack)');
  }

  override popAt(thread: number, tNs: number, domain: number, offset: number): void {
    this.pop(thread, tNs, domain, { offset });
  }

  override markStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined): void {
    this.mark(thread, tNs, { style, domain: domain === 0 ? undefined : domain, payload });
  }

  override pop(thread: number, tNs: number, domain = 0, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    const i = this.timed(Op.Pop, thread, tNs);
    this.batch.i1[i] = domain;
    this.where(i, where);
    this.payload(i, payload);
    if (rename !== undefined) {
      this.extras(i).rename = { ...rename };
      this.batch.has[i] |= Has.Extras;
    }
  }

  override range(thread: number, startNs: number, endNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.Range, thread, startNs);
    this.batch.f1[i] = endNs;
    this.styledAttrs(i, attrs, style);
    this.where(i, where);
  }

  override startEnd(thread: number, startNs: number, endNs: number, attrs: EventAttrs, endThread?: number, where?: SourceLocation): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.StartEnd, thread, startNs);
    this.batch.f1[i] = endNs;
    if (endThread !== undefined) {
      this.batch.i1[i] = endThread;
      this.batch.has[i] |= Has.I1;
    }
    this.styledAttrs(i, attrs, style);
    this.where(i, where);
  }

  override rangeStart(key: string | number, thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const i = this.timed(Op.RangeStart, thread, tNs);
    this.key(i, key);
    this.attrs(i, attrs);
    this.where(i, where);
  }

  override rangeEnd(key: string | number, thread: number, tNs: number, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    const i = this.timed(Op.RangeEnd, thread, tNs);
    this.key(i, key);
    this.where(i, where);
    this.payload(i, payload);
    if (rename !== undefined) {
      this.extras(i).rename = { ...rename };
      this.batch.has[i] |= Has.Extras;
    }
  }

  /** A number key in `f2`; a string key (or -0, NaN: kept exact) in the side list. */
  private key(i: number, key: string | number): void {
    if (typeof key === 'number' && !Object.is(key, -0)) this.batch.f2[i] = key;
    else {
      this.extras(i).key = key;
      this.batch.has[i] |= Has.Extras;
    }
  }

  override mark(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.Mark, thread, tNs);
    this.styledAttrs(i, attrs, style);
    this.where(i, where);
  }

  override markRow(options: { label: string; process: number; thread?: number; path?: string[] }): number {
    const row = super.markRow(options);
    this.call('markRow', [structuredCloneable(options)], row);
    return row;
  }

  override rowMark(row: number, tNs: number, attrs: EventAttrs): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.RowMark, row, tNs);
    this.styledAttrs(i, attrs, style);
  }

  override counterRow(options: CounterRowOptions): number {
    const row = super.counterRow(options);
    this.call('counterRow', [structuredCloneable(options)], row);
    return row;
  }

  override counter(row: number, tNs: number, value: number): void {
    const i = this.timed(Op.Counter, row, tNs);
    this.batch.f1[i] = value;
  }

  override customRow(options: CustomRowOptions): number {
    const row = super.customRow(options);
    this.call('customRow', [structuredCloneable(options)], row);
    return row;
  }

  override rowRange(row: number, startNs: number, endNs: number, attrs: EventAttrs, thread = -1, correlation?: number): void {
    const style = this.preStyle(attrs);
    const i = this.timed(Op.RowRange, row, startNs);
    const b = this.batch;
    b.f1[i] = endNs;
    b.i1[i] = thread;
    b.has[i] |= Has.I1;
    if (correlation !== undefined) {
      b.f2[i] = correlation;
      b.has[i] |= Has.F2;
    }
    this.styledAttrs(i, attrs, style);
  }

  override flow(fromThread: number, fromNs: number, toThread: number, toNs: number): void {
    const i = this.timed(Op.Flow, fromThread, fromNs);
    this.batch.i1[i] = toThread;
    this.batch.f1[i] = toNs;
  }

  // ---------------------------------------------------------------- extended payloads

  override extPayload(
    domain: number,
    blobs: readonly ExtPayloadInput[],
    memory?: readonly ExtMemoryInput[],
    offsetBase?: ExtMemoryInput | number,
  ): PayloadValue | undefined {
    const blobCopies = blobs.map((b) => ({ ...b, bytes: b.bytes.slice() }));
    const memoryCopies = memory?.map((m) => ({ ...m, bytes: m.bytes.slice() }));
    const baseCopy = typeof offsetBase === 'object' ? { ...offsetBase, bytes: offsetBase.bytes.slice() } : offsetBase;
    const p = super.extPayload(domain, blobCopies, memoryCopies, baseCopy);
    this.call('extPayload', [domain, blobCopies, memoryCopies, baseCopy], p && { ...p });
    return p;
  }

  override extSharedOffsetBase(domain: number, base: ExtMemoryInput): number {
    const copy = { ...base, bytes: base.bytes.slice() };
    const row = super.extSharedOffsetBase(domain, copy);
    this.call('extSharedOffsetBase', [domain, copy], row);
    return row;
  }

  override setPayloadRegistry(registry: PayloadRegistry): void {
    super.setPayloadRegistry(registry);
    this.call('setPayloadRegistry', [registry]);
  }

  // ---------------------------------------------------------------- budget, progress, end

  /** The shadow holds no events: the replay side's builder knows the model's size and checks its budget. */
  override setBudget(): void {}

  override heldBytes(): number {
    throw new Error('TapeBuilder: the model\'s size is known on the replay side only');
  }

  /**
   * Marks a chunk boundary (the pipeline checks the budget before each chunk; `reachedBytes`:
   * content bytes handed to the decoder so far), hands the rows so far on, and stops the decode
   * if the replay side asked.
   */
  override checkBudget(reachedBytes = NaN): void {
    const i = this.row(Op.Budget);
    this.batch.f0[i] = reachedBytes;
    this.flush();
    if (this.stopRequested) throw new TapeStopped();
  }

  /** The replay side's builder sizes its columns from this; the shadow holds no events to size. */
  override inputRead(bytes: number): void {
    const i = this.row(Op.InputRead);
    this.batch.f0[i] = bytes;
  }

  /** Load progress, replayed in order with the rows (the replay side reports it). */
  progress(bytesDone: number, bytesTotal: number): void {
    const i = this.row(Op.Progress);
    this.batch.f0[i] = bytesDone;
    this.batch.f1[i] = bytesTotal;
  }

  /** The decoder is done (or stopped): what follows are the pipeline's own reports. */
  decodeEnd(): void {
    this.row(Op.DecodeEnd);
  }

  override finish(): Model {
    throw new Error('TapeBuilder: replay the tape into a ModelBuilder to finish the model');
  }
}

/** A payload with its bytes copied (the decoder may reuse its buffers). */
function copyPayload(p: PayloadValue): PayloadValue {
  if ('bytes' in p && p.bytes !== undefined) return { type: p.type, bytes: p.bytes.slice(p.start, p.end), start: 0, end: p.end - p.start };
  return { ...p };
}

/** Row options as plain data (copied: the decoder may change its object later). */
function structuredCloneable<T extends object>(options: T): T {
  return { ...options, path: (options as { path?: string[] }).path?.slice() };
}
