/**
 * The only way to make a `Model`. Decoders feed events in any order (real emitters often write a
 * range when it ends); `finish()` sorts each row, rebuilds push/pop stacks, packs start/end ranges
 * into the fewest lanes, rebases time to the capture start and lays out the columnar tables.
 *
 * Times given to the builder are integer nanoseconds relative to an origin the decoder chose
 * (`setClock`), small enough to be exact in a double; the builder rebases them so that the
 * earliest event (or the declared capture start) is zero.
 */
import type { PayloadRegistry } from '../payload/schema.ts';
import { ExtPayloadTable, type ExtMemoryInput, type ExtPayloadInput } from './extPayloads.ts';
import { buildFlaggedRanges } from './flagged.ts';
import { JsonTextStore } from './jsonText.ts';
import { f64, i32, u16, u32, u8, type Growable } from './growable.ts';
import { packLanes } from './lanes.ts';
import { buildRangeLod } from './lod.ts';
import { orderByStart } from './orderByStart.ts';
import { buildTrackTree, categoryLabel } from './trackTree.ts';
import {
  PayloadType,
  RangeFlag,
  type CaptureInfo,
  type CategoryInfo,
  type CounterTrackInfo,
  type DomainInfo,
  type LoadIssue,
  type Model,
  type PayloadTypeCode,
  type ProcessInfo,
  type ResourceInfo,
  type StringId,
  type ThreadInfo,
  type Track,
  type TrackKind,
} from './types.ts';

/** A payload as decoders hand it to the builder. */
export type PayloadValue =
  | { type: typeof PayloadType.U64 | typeof PayloadType.I64; value: bigint | number }
  | {
      type: typeof PayloadType.F64 | typeof PayloadType.U32 | typeof PayloadType.I32 | typeof PayloadType.F32;
      value: number;
    }
  | { type: typeof PayloadType.String | typeof PayloadType.Json; value: string }
  | JsonBytesValue
  | { type: typeof PayloadType.Ext; value: number };

/**
 * JSON text given as its UTF-8 bytes buf[start, end): copied into `Model.jsonText`, no string made
 * (a decoder may reuse one such object for every event).
 */
export interface JsonBytesValue {
  type: typeof PayloadType.Json;
  value?: undefined;
  bytes: Uint8Array;
  start: number;
  end: number;
}

/** Attributes of a mark or range (NVTX event attributes). */
export interface EventAttrs {
  /** The message. Give `name` or a pre-interned `nameId` (faster in hot loops). */
  name?: string;
  nameId?: StringId;
  /** ARGB; 0 or absent = none. */
  color?: number;
  /** Category id as the capture gives it; 0 or absent = none. */
  category?: number;
  /** Domain index from `domain()`; absent = the default domain (index 0). */
  domain?: number;
  payload?: PayloadValue;
  /**
   * A style from `style()` for these name/color/category/domain: skips the style lookup (hot
   * loops cache styles by their own keys). `category` and `domain` must still be given: they
   * choose the row of start/end ranges.
   */
  style?: number;
}

/** Where an event came from, for messages about it. */
export interface SourceLocation {
  line?: number;
  offset?: number;
}

export interface BuilderOptions {
  fileName: string;
  format: string;
  byteSize: number;
}

/** Options of a counter row. */
export interface CounterRowOptions {
  label: string;
  /** Process index (from `process()`), or -1. */
  process: number;
  /** Thread index (from `thread()`), or -1 for a process-level counter. */
  thread?: number;
  unit?: string;
  /** Group labels between the process (or thread) node and the row. */
  path?: string[];
  /** Interpolation, value type and limits of the counter (`Track.counter`). */
  counter?: CounterTrackInfo;
}

/** Message and color given at pop/end (nvtxRangePopPayload, nvtxRangeEndPayload): they replace the push/start ones. */
export interface RangeRename {
  name?: string;
  color?: number;
}

/** Options of a custom range row (API calls, GPU work). */
export interface CustomRowOptions {
  kind: Extract<TrackKind, 'api' | 'gpu'>;
  label: string;
  process: number;
  thread?: number;
  /** Group labels between the process (or thread) node and the row, e.g. ['CUDA', 'GPU 0']. */
  path?: string[];
  /** 'stack' nests ranges by time, 'lanes' packs overlapping ones side by side; default by kind (gpu: lanes). */
  layout?: 'stack' | 'lanes';
}

const NO_LOC = -1;
/** Styles of one name compared one by one before the keyed lookup. */
const STYLE_CHAIN_WALK = 16;

/** Events of one row, in arrival order. */
class RowEvents {
  // Complete ranges.
  readonly start = f64();
  readonly end = f64();
  readonly style = u32();
  readonly payload = i32();
  readonly thread = i32();
  readonly flags = u8();
  readonly loc = f64();
  // Push/pop events (stack rows only): time, +1 push / 0 pop, style, payload, location.
  readonly evT = f64();
  readonly evPush = u8();
  readonly evStyle = u32();
  readonly evPayload = i32();
  readonly evLoc = f64();
  // Ranges made from push/pop events: where their push and pop sit in the time-sorted event
  // stream, which settles nesting when timestamps tie.
  readonly rankOpen = f64();
  readonly rankClose = f64();
  // Pop events that rename their range: event index -> new message/color.
  evRename?: Map<number, RangeRename>;
}

/**
 * A push/pop row whose events have all come in time order so far: each push becomes a range at
 * once (in `RowEvents`' complete columns, in push order, end NaN while open) with its depth and
 * parent, and each pop closes the innermost open one. That is what sorting the events and
 * replaying them would give, without keeping the events. The first event that breaks the order
 * (or a pop with nothing open, or with a payload, or a complete range on the row) turns the row
 * back into its events (`ModelBuilder.replayOnline`) and the general path takes over.
 */
class OnlineStack {
  lastT = -Infinity;
  /** Per range (push order): stack depth at its push. */
  readonly depth = u16();
  /** Per range: the enclosing range (row-local index), or -1. */
  readonly parent = i32();
  /** Per range: location of its pop. */
  readonly endLoc = f64();
  /** Row-local indices of the open ranges, innermost last. */
  readonly open: number[] = [];
}

interface RowMeta {
  kind: TrackKind;
  layout: 'stack' | 'lanes';
  label: string;
  process: number;
  thread: number;
  domain: number;
  category: number;
  path: string[];
  events: RowEvents;
  /** Set while a push/pop row is resolved on arrival. */
  online?: OnlineStack;
  unit?: string;
  counter?: CounterTrackInfo;
  // marks rows
  markT?: Growable<Float64Array>;
  markStyle?: Growable<Uint32Array>;
  markPayload?: Growable<Int32Array>;
  markRefs?: number[];
  // counter rows
  counterT?: Growable<Float64Array>;
  counterV?: Growable<Float64Array>;
  // correlation ids of custom-row ranges by position in the row (NaN = none); may be shorter than the row
  corr?: Growable<Float64Array>;
}

interface OpenStartEnd {
  thread: number;
  t: number;
  style: number;
  payload: number;
  loc: number;
  category: number;
  domain: number;
}

export class ModelBuilder {
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly styleName = u32();
  private readonly styleColor = u32();
  private readonly styleCategory = i32();
  private readonly styleDomain = u32();
  private readonly styleIds = new Map<string, number>();
  /** Category id as the event gave it, per style (for the per-name style cache). */
  private readonly styleCategoryId = f64();
  /** StringId -> 1 + the newest style with that name (0 = none): `styleOf`'s fast path. */
  private styleByName = new Uint32Array(0);
  /** Per style: the next older style with the same name, or -1. */
  private readonly styleSameName = i32();

  private readonly payloadType = u8();
  private readonly payloadBits = f64();
  private readonly scratch = new DataView(new ArrayBuffer(8));
  private ext: ExtPayloadTable | undefined;
  private jsonText: JsonTextStore | undefined;
  private payloadRegistry: PayloadRegistry | undefined;

  private readonly processes: ProcessInfo[] = [];
  private readonly processIds = new Map<number, number>();
  private readonly threads: ThreadInfo[] = [];
  private readonly threadIds = new Map<string, number>();
  private readonly domains: DomainInfo[] = [{ name: '', process: -1 }];
  private readonly domainIds = new Map<string, number>();
  private readonly categories: CategoryInfo[] = [];
  private readonly categoryIds = new Map<string, number>();

  private readonly rows: RowMeta[] = [];
  private readonly rowIds = new Map<string, number>();
  private readonly stackRowCache = new Map<number, RowMeta>();
  private readonly defaultStackRows: RowMeta[] = [];
  private readonly marksRowCache = new Map<number, number>();
  private readonly categoryRowCache = new Map<number, RowMeta>();
  private readonly categoryCache = new Map<number, number>();
  private readonly openStartEnd = new Map<string | number, OpenStartEnd>();

  private readonly issues: LoadIssue[] = [];
  private readonly resources: ResourceInfo[] = [];
  private readonly info: CaptureInfo;
  private originNs = 0n;
  private minT = Infinity;
  private maxT = -Infinity;
  private declaredStart: number | undefined;
  private declaredEnd: number | undefined;

  constructor(options: BuilderOptions) {
    this.info = {
      fileName: options.fileName,
      displayName: options.fileName,
      format: options.format,
      byteSize: options.byteSize,
      originNs: '0',
      clock: 'unknown',
      properties: {},
    };
  }

  // ---------------------------------------------------------------- capture facts and reports

  /**
   * Records a problem; `file` is filled in. Instrumentation problems also give their kind, time
   * (in the decoder's ns, shifted to the model's zero by `finish`) and thread (for the health list).
   */
  report(severity: LoadIssue['severity'], message: string, where?: SourceLocation & Pick<LoadIssue, 'kind' | 'timeNs' | 'thread'>): void {
    this.issues.push({ severity, file: this.info.fileName, message, ...where });
  }

  /** Records a name the program gave to one of its objects (CUDA stream, OpenCL queue, NVTX resource...). */
  nameResource(resource: ResourceInfo): void {
    this.resources.push(resource);
  }

  get issueCount(): number {
    return this.issues.length;
  }

  /** Names the clock and the absolute time (in that clock's ns) of the decoder's zero. */
  setClock(clock: string, originNs: bigint): void {
    this.info.clock = clock;
    this.originNs = originNs;
  }

  /** Declares the capture span when the file knows it (otherwise: first to last event). */
  setCaptureSpan(startNs: number, endNs: number): void {
    this.declaredStart = startNs;
    this.declaredEnd = endNs;
  }

  setDisplayName(name: string): void {
    this.info.displayName = name;
  }

  setProperty(key: string, value: string): void {
    this.info.properties[key] = value;
  }

  // ---------------------------------------------------------------- names

  intern(s: string): StringId {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  process(pid: number, name?: string): number {
    let p = this.processIds.get(pid);
    if (p === undefined) {
      p = this.processes.length;
      this.processes.push({ pid, name: '' });
      this.processIds.set(pid, p);
    }
    if (name !== undefined) this.processes[p].name = name;
    return p;
  }

  thread(pid: number, tid: number, name?: string): number {
    const process = this.process(pid);
    const key = `${pid}:${tid}`;
    let t = this.threadIds.get(key);
    if (t === undefined) {
      t = this.threads.length;
      this.threads.push({ tid, process, name: '' });
      this.threadIds.set(key, t);
    }
    if (name !== undefined) this.threads[t].name = name;
    return t;
  }

  /** Orders the process in the track tree (lower first; unset = 0), e.g. Chrome `process_sort_index`. */
  processSortIndex(pid: number, sortIndex: number): void {
    this.processes[this.process(pid)].sortIndex = sortIndex;
  }

  /** Orders the thread among its process's threads (lower first; unset = 0). */
  threadSortIndex(pid: number, tid: number, sortIndex: number): void {
    this.threads[this.thread(pid, tid)].sortIndex = sortIndex;
  }

  /** A domain of a process (pid -1: not tied to a process). '' is the default domain (index 0). */
  domain(pid: number, name: string): number {
    if (name === '' && pid === -1) return 0;
    const key = `${pid}\u0000${name}`;
    let d = this.domainIds.get(key);
    if (d === undefined) {
      d = this.domains.length;
      this.domains.push({ name, process: pid === -1 ? -1 : this.process(pid) });
      this.domainIds.set(key, d);
    }
    return d;
  }

  /** Index of category `id` of `domain`, created unnamed on first use; -1 for id 0 (none). */
  category(domain: number, id: number): number {
    if (id === 0) return -1;
    // Numeric cache in front of the string-keyed table (exact while domain < 2^21, ids are uint32).
    const cacheKey = domain < 0x200000 && id >= 0 && id <= 0xffffffff ? domain * 4294967296 + id : -1;
    if (cacheKey !== -1) {
      const cached = this.categoryCache.get(cacheKey);
      if (cached !== undefined) return cached;
    }
    const key = `${domain}:${id}`;
    let c = this.categoryIds.get(key);
    if (c === undefined) {
      c = this.categories.length;
      this.categories.push({ id, name: '', domain, parent: -1 });
      this.categoryIds.set(key, c);
    }
    if (cacheKey !== -1) this.categoryCache.set(cacheKey, c);
    return c;
  }

  nameCategory(domain: number, id: number, name: string, where?: SourceLocation): void {
    if (id === 0) {
      this.report('warning', `category 0 means "no category" and cannot be named ("${name}")`, where);
      return;
    }
    this.categories[this.category(domain, id)].name = name;
  }

  /** Makes `childId` a child of `parentId`; rejects (and reports) self-links and cycles. */
  addChildCategory(domain: number, parentId: number, childId: number, where?: SourceLocation): boolean {
    if (parentId === 0 || childId === 0) {
      this.report('error', 'AddChildCategory: category 0 means "no category" and cannot be linked', where);
      return false;
    }
    const parent = this.category(domain, parentId);
    const child = this.category(domain, childId);
    for (let c = parent; c !== -1; c = this.categories[c].parent) {
      if (c === child) {
        this.report(
          'error',
          `AddChildCategory ${parentId} -> ${childId} would make a cycle; ignored`,
          where,
        );
        return false;
      }
    }
    this.categories[child].parent = parent;
    return true;
  }

  // ---------------------------------------------------------------- events

  /** Opens a push/pop range on a thread's stack (per domain). */
  push(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const row = this.stackRow(thread, attrs.domain ?? 0);
    const ev = row.events;
    const on = row.online;
    if (on !== undefined) {
      if (tNs >= on.lastT) {
        on.lastT = tNs;
        const open = on.open;
        const i = ev.start.length;
        ev.start.push(tNs);
        ev.end.push(NaN);
        ev.style.push(this.styleOf(attrs));
        ev.payload.push(this.payloadOf(attrs.payload));
        ev.thread.push(thread);
        ev.flags.push(0);
        ev.loc.push(locCode(where));
        on.depth.push(Math.min(open.length, 0xffff));
        on.parent.push(open.length > 0 ? open[open.length - 1] : -1);
        on.endLoc.push(NO_LOC);
        open.push(i);
        this.seeTime(tNs);
        return;
      }
      this.replayOnline(row);
    }
    ev.evT.push(tNs);
    ev.evPush.push(1);
    ev.evStyle.push(this.styleOf(attrs));
    ev.evPayload.push(this.payloadOf(attrs.payload));
    ev.evLoc.push(locCode(where));
    this.seeTime(tNs);
  }

  /**
   * Closes the innermost open push/pop range of the thread's stack in `domain`. An extended
   * `payload` (nvtxRangePopPayload) joins the range's payloads as its pop/end payloads.
   */
  pop(thread: number, tNs: number, domain = 0, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    const row = this.stackRow(thread, domain);
    const ev = row.events;
    const on = row.online;
    if (on !== undefined) {
      if (tNs >= on.lastT && on.open.length > 0 && payload === undefined && rename === undefined) {
        on.lastT = tNs;
        const i = on.open.pop()!;
        ev.end.set(i, tNs);
        on.endLoc.set(i, locCode(where));
        this.seeTime(tNs);
        return;
      }
      this.replayOnline(row);
    }
    if (rename && (rename.name !== undefined || rename.color !== undefined)) (ev.evRename ??= new Map()).set(ev.evT.length, rename);
    ev.evT.push(tNs);
    ev.evPush.push(0);
    ev.evStyle.push(0);
    ev.evPayload.push(this.payloadOf(payload));
    ev.evLoc.push(locCode(where));
    this.seeTime(tNs);
  }

  /** A push/pop range known with both ends (e.g. an nsys row or a Chrome X event). */
  range(thread: number, startNs: number, endNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const row = this.stackRow(thread, attrs.domain ?? 0);
    this.addComplete(row, thread, startNs, endNs, attrs, where);
  }

  /** A start/end range known with both ends; it goes to its process's category row. */
  startEnd(
    thread: number,
    startNs: number,
    endNs: number,
    attrs: EventAttrs,
    endThread?: number,
    where?: SourceLocation,
  ): void {
    const domain = attrs.domain ?? 0;
    const category = this.category(domain, attrs.category ?? 0);
    const row = this.categoryRow(this.threads[thread].process, domain, category);
    const index = this.addComplete(row, thread, startNs, endNs, attrs, where);
    if (endThread !== undefined && endThread !== thread) {
      row.events.flags.set(index, row.events.flags.get(index) | RangeFlag.CrossThread);
      ((row as RowMetaWithCross).cross ??= []).push(index, endThread);
    }
  }

  /** Opens a start/end range identified by `key` (e.g. the nvtxRangeId_t of its domain). */
  rangeStart(key: string | number, thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    if (this.openStartEnd.has(key)) {
      this.report('warning', `range id ${String(key)} started again while still open; the first start is kept`, {
        ...where,
        kind: 'start-while-open',
        timeNs: tNs,
        thread,
      });
      return;
    }
    const domain = attrs.domain ?? 0;
    this.openStartEnd.set(key, {
      thread,
      t: tNs,
      style: this.styleOf(attrs),
      payload: this.payloadOf(attrs.payload),
      loc: locCode(where),
      category: this.category(domain, attrs.category ?? 0),
      domain,
    });
    this.seeTime(tNs);
  }

  /**
   * Closes the start/end range `key`; reports an end without a start (or a second end). An
   * extended `payload` (nvtxRangeEndPayload) joins the range's payloads as its end payloads.
   */
  rangeEnd(key: string | number, thread: number, tNs: number, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    const open = this.openStartEnd.get(key);
    this.seeTime(tNs);
    if (!open) {
      this.report('warning', `range id ${String(key)} ended but is not open (never started, or ended twice)`, {
        ...where,
        kind: 'end-without-start',
        timeNs: tNs,
        thread,
      });
      return;
    }
    this.openStartEnd.delete(key);
    if (payload) open.payload = this.joinEndPayload(open.payload, this.payloadOf(payload), where);
    if (rename) open.style = this.restyle(open.style, rename);
    this.closeStartEnd(open, tNs, thread, 0);
  }

  // ---------------------------------------------------------------- extended payloads

  /**
   * Stores the extended payloads of one event (its `nvtxPayloadData_t` array, plus memory deep-copied
   * for pointer entries) and returns the payload to give the event, or undefined when there is none.
   * `domain` is the model domain index the schemas were registered in; `offsetBase` is what
   * OFFSET_FROM_BASE entries count from when not the payload (an event batch's flex data): its bytes,
   * or a row from `extSharedOffsetBase` that many events share.
   */
  extPayload(
    domain: number,
    blobs: readonly ExtPayloadInput[],
    memory?: readonly ExtMemoryInput[],
    offsetBase?: ExtMemoryInput | number,
  ): PayloadValue | undefined {
    this.ext ??= new ExtPayloadTable();
    const head = this.ext.add(domain, blobs, memory, offsetBase);
    return head < 0 ? undefined : { type: PayloadType.Ext, value: head };
  }

  /**
   * Stores the data OFFSET_FROM_BASE entries of many events count from (an event batch's flex data)
   * once; pass the returned row as their `extPayload` offset base.
   */
  extSharedOffsetBase(domain: number, base: ExtMemoryInput): number {
    this.ext ??= new ExtPayloadTable();
    return this.ext.addShared(domain, base);
  }

  /** The schemas, enums, registered strings and scopes extended payloads are decoded with. */
  setPayloadRegistry(registry: PayloadRegistry): void {
    this.payloadRegistry = registry;
  }

  /** Payload row of a range after its pop/end payload `end` joined its begin payload `begin`. */
  private joinEndPayload(begin: number, end: number, where?: SourceLocation): number {
    if (end < 0) return begin;
    const endIsExt = this.payloadType.get(end) === PayloadType.Ext;
    if (endIsExt) this.ext!.markEnd(this.payloadBits.get(end));
    if (begin < 0) return end;
    if (endIsExt && this.payloadType.get(begin) === PayloadType.Ext) {
      this.ext!.link(this.payloadBits.get(begin), this.payloadBits.get(end));
      return begin;
    }
    this.report('warning', 'a range carries a core payload and an end/pop payload; only the first is kept', where);
    return begin;
  }

  mark(thread: number, tNs: number, attrs: EventAttrs): void {
    const rowIndex = this.marksRow(thread);
    const row = this.rows[rowIndex];
    const style = this.styleOf(attrs);
    row.markT!.push(tNs);
    row.markStyle!.push(style);
    row.markPayload!.push(this.payloadOf(attrs.payload));
    this.seeTime(tNs);
    const category = this.styleCategory.get(style);
    if (category !== -1) {
      const catRow = this.categoryRow(this.threads[thread].process, attrs.domain ?? 0, category);
      (catRow.markRefs ??= []).push(row.markT!.length - 1, rowIndex);
    }
  }

  /**
   * A marks row outside the per-thread ones (e.g. deferred events of an NVTX scope that is not a
   * thread): under `path` of the process (or thread) node; returns a key for `rowMark()`.
   */
  markRow(options: { label: string; process: number; thread?: number; path?: string[] }): number {
    const key = `marksrow\u0000${options.process}\u0000${options.thread ?? -1}\u0000${(options.path ?? []).join('\u0000')}\u0000${options.label}`;
    const row = this.row(key, {
      kind: 'marks',
      layout: 'stack',
      label: options.label,
      process: options.process,
      thread: options.thread ?? -1,
      domain: -1,
      category: -1,
      path: options.path ?? [],
    });
    row.markT ??= f64();
    row.markStyle ??= u32();
    row.markPayload ??= i32();
    return this.rowIds.get(key)!;
  }

  /** A mark on a row from `markRow()`. */
  rowMark(row: number, tNs: number, attrs: EventAttrs): void {
    const r = this.rows[row];
    r.markT!.push(tNs);
    r.markStyle!.push(this.styleOf(attrs));
    r.markPayload!.push(this.payloadOf(attrs.payload));
    this.seeTime(tNs);
  }

  /** A counter row; returns a key for `counter()`. */
  counterRow(options: CounterRowOptions): number {
    const key = `counter\u0000${options.process}\u0000${options.thread ?? -1}\u0000${(options.path ?? []).join('\u0000')}\u0000${options.label}`;
    const row = this.row(key, {
      kind: 'counter',
      layout: 'stack',
      label: options.label,
      process: options.process,
      thread: options.thread ?? -1,
      domain: -1,
      category: -1,
      path: options.path ?? [],
      unit: options.unit,
      counter: options.counter,
    });
    row.counterT ??= f64();
    row.counterV ??= f64();
    return this.rowIds.get(key)!;
  }

  counter(row: number, tNs: number, value: number): void {
    const r = this.rows[row];
    r.counterT!.push(tNs);
    r.counterV!.push(value);
    this.seeTime(tNs);
  }

  /** A custom range row (API calls stacked per thread, GPU work packed in lanes). */
  customRow(options: CustomRowOptions): number {
    const key = `${options.kind}\u0000${options.process}\u0000${options.thread ?? -1}\u0000${(options.path ?? []).join('\u0000')}\u0000${options.label}`;
    this.row(key, {
      kind: options.kind,
      layout: options.layout ?? (options.kind === 'gpu' ? 'lanes' : 'stack'),
      label: options.label,
      process: options.process,
      thread: options.thread ?? -1,
      domain: -1,
      category: -1,
      path: options.path ?? [],
    });
    return this.rowIds.get(key)!;
  }

  /**
   * Adds a range to a custom row. `correlation`, when given, links ranges that belong together (a
   * CUDA API call and the GPU work it launched share one); the links end up in `Model.correlation`.
   * The decoder keeps ids unique per capture (e.g. CUPTI ids are per process: combine them).
   */
  rowRange(row: number, startNs: number, endNs: number, attrs: EventAttrs, thread = -1, correlation?: number): void {
    const meta = this.rows[row];
    const index = this.addComplete(meta, thread, startNs, endNs, attrs);
    if (correlation === undefined || Number.isNaN(correlation)) return;
    const corr = (meta.corr ??= f64());
    while (corr.length < index) corr.push(NaN);
    corr.push(correlation);
  }

  /** A flow arrow from a point of one thread to a point of another (Chrome flow events); see `Model.flows`. */
  flow(fromThread: number, fromNs: number, toThread: number, toNs: number): void {
    const f = (this.flowPoints ??= { fromThread: i32(), fromNs: f64(), toThread: i32(), toNs: f64() });
    f.fromThread.push(fromThread);
    f.fromNs.push(fromNs);
    f.toThread.push(toThread);
    f.toNs.push(toNs);
    this.seeTime(fromNs);
    this.seeTime(toNs);
  }

  private flowPoints?: { fromThread: Growable<Int32Array>; fromNs: Growable<Float64Array>; toThread: Growable<Int32Array>; toNs: Growable<Float64Array> };

  // ---------------------------------------------------------------- finish

  finish(): Model {
    // Still-open start/end ranges end with the capture.
    const lastT = this.declaredEnd ?? (this.maxT === -Infinity ? 0 : this.maxT);
    for (const [key, open] of this.openStartEnd) {
      this.report('warning', `start/end range id ${String(key)} never ended; closed at the end of the capture`, {
        ...locOf(open.loc),
        kind: 'never-ended',
        timeNs: open.t,
        thread: open.thread,
      });
      this.closeStartEnd(open, Math.max(lastT, open.t), open.thread, RangeFlag.Unterminated);
    }
    this.openStartEnd.clear();

    const zero = this.declaredStart ?? (this.minT === Infinity ? 0 : Math.min(this.minT, lastT));
    const end = Math.max(lastT, this.maxT === -Infinity ? 0 : this.maxT);

    // Turn push/pop events into complete ranges first: that can extend nothing past `end`.
    for (const row of this.rows) if (row.layout === 'stack') this.resolveStack(row, end);

    let rangeCount = 0;
    let markCount = 0;
    let counterCount = 0;
    let markRefCount = 0;
    for (const row of this.rows) {
      rangeCount += row.events.start.length;
      markCount += row.markT?.length ?? 0;
      counterCount += row.counterT?.length ?? 0;
      markRefCount += (row.markRefs?.length ?? 0) / 2;
    }

    const ranges = {
      startNs: new Float64Array(rangeCount),
      endNs: new Float64Array(rangeCount),
      style: new Uint32Array(rangeCount),
      depth: new Uint16Array(rangeCount),
      parent: new Int32Array(rangeCount),
      thread: new Int32Array(rangeCount),
      payload: new Int32Array(rangeCount),
      flags: new Uint8Array(rangeCount),
    };
    const marks = {
      timeNs: new Float64Array(markCount),
      style: new Uint32Array(markCount),
      thread: new Int32Array(markCount),
      payload: new Int32Array(markCount),
    };
    const counters = { timeNs: new Float64Array(counterCount), value: new Float64Array(counterCount) };
    const markRefs = new Uint32Array(markRefCount);
    const crossRange: number[] = [];
    const crossThread: number[] = [];
    const corrRange = i32();
    const corrId = f64();

    // Where each marks row's marks land, for category-row references.
    const markRowBase = new Map<number, { base: number; order: Uint32Array }>();
    const tracks: Track[] = [];
    let r = 0;
    let m = 0;
    let c = 0;
    const rowOrder = this.rows.map((_, i) => i);
    for (const rowIndex of rowOrder) {
      const row = this.rows[rowIndex];
      const track: Track = {
        kind: row.kind,
        label: row.label,
        process: row.process,
        thread: row.thread,
        domain: row.domain,
        category: row.category,
        path: row.path,
        rangeBegin: r,
        rangeEnd: r,
        levelBegin: [r],
        markBegin: m,
        markEnd: m,
        markRefBegin: 0,
        markRefEnd: 0,
        counterBegin: c,
        counterEnd: c,
        unit: row.unit,
      };
      if (row.counter) track.counter = row.counter;
      if (row.events.start.length > 0) {
        const laid = row.layout === 'stack' ? this.layoutStack(row) : this.layoutLanes(row);
        const ev = row.events;
        const n = laid.order.length;
        const newIndex = new Int32Array(n);
        for (let k = 0; k < n; k++) newIndex[laid.order[k]] = r + k;
        placeRows(laid, ev, newIndex, r, zero, ranges);
        if (row.corr) {
          for (let k = 0; k < row.corr.length; k++) {
            const id = row.corr.get(k);
            if (Number.isNaN(id)) continue;
            corrRange.push(newIndex[k]);
            corrId.push(id);
          }
        }
        const cross = (row as RowMetaWithCross).cross;
        if (cross) {
          for (let k = 0; k < cross.length; k += 2) {
            crossRange.push(newIndex[cross[k]]);
            crossThread.push(cross[k + 1]);
          }
        }
        track.levelBegin = laid.levelCounts.reduce<number[]>(
          (acc, count) => {
            acc.push(acc[acc.length - 1] + count);
            return acc;
          },
          [r],
        );
        r += n;
        track.rangeEnd = r;
      }
      if (row.markT && row.markT.length > 0) {
        const order = sortedOrder(row.markT.view());
        const rank = new Uint32Array(order.length);
        for (let k = 0; k < order.length; k++) {
          const i = order[k];
          rank[i] = k;
          marks.timeNs[m + k] = row.markT.get(i) - zero;
          marks.style[m + k] = row.markStyle!.get(i);
          marks.thread[m + k] = row.thread;
          marks.payload[m + k] = row.markPayload!.get(i);
        }
        markRowBase.set(rowIndex, { base: m, order: rank });
        m += order.length;
        track.markEnd = m;
      }
      if (row.counterT && row.counterT.length > 0) {
        const order = sortedOrder(row.counterT.view());
        for (let k = 0; k < order.length; k++) {
          counters.timeNs[c + k] = row.counterT.get(order[k]) - zero;
          counters.value[c + k] = row.counterV!.get(order[k]);
        }
        c += order.length;
        track.counterEnd = c;
      }
      tracks.push(track);
    }

    // Category rows show their marks by reference, sorted by time.
    let refPos = 0;
    for (let t = 0; t < this.rows.length; t++) {
      const refs = this.rows[t].markRefs;
      if (!refs) continue;
      const begin = refPos;
      for (let k = 0; k < refs.length; k += 2) {
        const where = markRowBase.get(refs[k + 1])!;
        markRefs[refPos++] = where.base + where.order[refs[k]];
      }
      markRefs.subarray(begin, refPos).sort((a, b) => marks.timeNs[a] - marks.timeNs[b] || a - b);
      tracks[t].markRefBegin = begin;
      tracks[t].markRefEnd = refPos;
    }

    // Drop rows that ended up empty (e.g. a category row whose only events were rejected).
    const kept: Track[] = [];
    for (const t of tracks) {
      if (t.rangeEnd > t.rangeBegin || t.markEnd > t.markBegin || t.markRefEnd > t.markRefBegin || t.counterEnd > t.counterBegin) {
        kept.push(t);
      }
    }

    this.info.originNs = (this.originNs + BigInt(Math.round(zero))).toString();
    const payloadBits = this.payloadBits.toArray();
    // Issue times are on the model's axis, like every event time.
    for (const issue of this.issues) if (issue.timeNs !== undefined) issue.timeNs -= zero;
    const model: Model = {
      capture: this.info,
      durationNs: Math.max(0, end - zero),
      strings: this.strings,
      styles: {
        name: this.styleName.toArray(),
        color: this.styleColor.toArray(),
        category: this.styleCategory.toArray(),
        domain: this.styleDomain.toArray(),
      },
      ranges,
      marks,
      markRefs,
      counters,
      payloads: { type: this.payloadType.toArray(), bits: payloadBits },
      crossThreadEnds: { range: Int32Array.from(crossRange), thread: Int32Array.from(crossThread) },
      processes: this.processes,
      threads: this.threads,
      domains: this.domains,
      categories: this.categories,
      tracks: kept,
      trackTree: [],
      issues: this.issues,
    };
    // Category rows name their category and, for NVTXT (one file = one annotation source), the file.
    for (const t of kept) {
      if (t.kind !== 'category') continue;
      t.label = categoryLabel(model, t.category);
      if (this.info.format === 'nvtxt') t.label += ` · ${this.info.displayName}`;
    }
    if (this.resources.length > 0) model.resources = this.resources;
    if (corrRange.length > 0) model.correlation = correlationColumns(corrRange.view(), corrId.view());
    if (this.flowPoints && this.flowPoints.fromNs.length > 0) {
      const f = this.flowPoints;
      model.flows = {
        fromThread: f.fromThread.view().slice(),
        fromNs: f.fromNs.view().map((t) => t - zero),
        toThread: f.toThread.view().slice(),
        toNs: f.toNs.view().map((t) => t - zero),
      };
    }
    if (this.ext && this.ext.size > 0) model.extPayloads = this.ext.finish();
    if (this.jsonText) model.jsonText = this.jsonText.finish();
    if (this.payloadRegistry) model.payloadRegistry = this.payloadRegistry;
    model.trackTree = buildTrackTree(model);
    model.rangeLod = buildRangeLod(ranges);
    model.flaggedRanges = buildFlaggedRanges(ranges.flags);
    return model;
  }

  // ---------------------------------------------------------------- internals

  private seeTime(t: number): void {
    if (t < this.minT) this.minT = t;
    if (t > this.maxT) this.maxT = t;
  }

  /** The style index of these attributes (interned), for `EventAttrs.style`. */
  style(attrs: EventAttrs): number {
    return this.styleOf(attrs);
  }

  private styleOf(attrs: EventAttrs): number {
    if (attrs.style !== undefined) return attrs.style;
    const name = attrs.nameId ?? this.intern(attrs.name ?? '');
    const color = (attrs.color ?? 0) >>> 0;
    const domain = attrs.domain ?? 0;
    const categoryId = attrs.category ?? 0;
    // A name comes with few colors, categories and domains: walk the styles of the name before
    // building the string key of the full lookup (taken only for names with many variants).
    const head = name < this.styleByName.length ? this.styleByName[name] - 1 : -1;
    let s = head;
    for (let steps = 0; s >= 0 && steps < STYLE_CHAIN_WALK; steps++) {
      if (this.styleColor.get(s) === color && this.styleDomain.get(s) === domain && this.styleCategoryId.get(s) === categoryId) {
        return s;
      }
      s = this.styleSameName.get(s);
    }
    const category = this.category(domain, categoryId);
    const key = `${name}:${color}:${category}:${domain}`;
    if (s >= 0) {
      const found = this.styleIds.get(key);
      if (found !== undefined) return found;
    }
    s = this.styleName.length;
    this.styleName.push(name);
    this.styleColor.push(color);
    this.styleCategory.push(category);
    this.styleDomain.push(domain);
    this.styleCategoryId.push(categoryId);
    this.styleSameName.push(head);
    this.styleIds.set(key, s);
    if (name >= this.styleByName.length) {
      const grown = new Uint32Array(Math.max(64, 2 * name + 1));
      grown.set(this.styleByName);
      this.styleByName = grown;
    }
    this.styleByName[name] = s + 1;
    return s;
  }

  /** `style` with the message and/or color replaced (same category and domain: the row stays). */
  private restyle(style: number, rename: RangeRename): number {
    return this.styleOf({
      nameId: rename.name !== undefined ? this.intern(rename.name) : this.styleName.get(style),
      color: rename.color !== undefined ? rename.color : this.styleColor.get(style),
      domain: this.styleDomain.get(style),
      category: this.styleCategoryId.get(style),
    });
  }

  private payloadOf(p: PayloadValue | undefined): number {
    if (!p) return -1;
    if (p.type === PayloadType.Json && p.value === undefined) {
      // JSON bytes (one per Chrome event with args): the row is a plain negative number.
      this.jsonText ??= new JsonTextStore();
      const row = this.payloadType.length;
      this.payloadType.push(PayloadType.Json);
      this.payloadBits.push(-1 - this.jsonText.add(p.bytes, p.start, p.end));
      return row;
    }
    const v = this.scratch;
    switch (p.type) {
      case PayloadType.U64:
      case PayloadType.I64: {
        // The same 8 bytes either way: setBigInt64 wraps modulo 2^64, and integers below 2^53
        // are written as two halves without making a BigInt.
        const x = p.value;
        if (typeof x === 'bigint') v.setBigInt64(0, x, true);
        else if (Number.isSafeInteger(x)) {
          const hi = Math.floor(x / 4294967296);
          v.setUint32(0, x - hi * 4294967296, true);
          v.setInt32(4, hi, true);
        } else v.setBigInt64(0, BigInt(x), true);
        break;
      }
      case PayloadType.String:
        v.setFloat64(0, this.intern(p.value), true);
        break;
      case PayloadType.Json:
        // JSON payloads (Chrome args, nsys jsonText) are nearly always unique: not worth the intern map.
        v.setFloat64(0, this.strings.push(p.value) - 1, true);
        break;
      default:
        v.setFloat64(0, p.value, true);
    }
    const index = this.payloadType.length;
    this.payloadType.push(p.type as PayloadTypeCode);
    this.payloadBits.push(v.getFloat64(0, true));
    return index;
  }

  private row(key: string, meta: Omit<RowMeta, 'events'>): RowMeta {
    let id = this.rowIds.get(key);
    if (id === undefined) {
      id = this.rows.length;
      this.rows.push({ ...meta, events: new RowEvents() });
      this.rowIds.set(key, id);
    }
    return this.rows[id];
  }

  private stackRow(thread: number, domain: number): RowMeta {
    // Caches in front of the string-keyed row table, which this runs once per event: an array for
    // the default domain, a numeric map for the others.
    if (domain === 0) {
      const row = this.defaultStackRows[thread];
      if (row !== undefined) return row;
    }
    const cacheKey = domain * 4294967296 + thread;
    const cached = this.stackRowCache.get(cacheKey);
    if (cached) return cached;
    const t = this.threads[thread];
    const row = this.row(`pushpop:${thread}:${domain}`, {
      kind: 'pushpop',
      layout: 'stack',
      label: 'Push/Pop',
      process: t.process,
      thread,
      domain,
      category: -1,
      path: [],
    });
    if (row.events.start.length === 0 && row.events.evT.length === 0) row.online ??= new OnlineStack();
    this.stackRowCache.set(cacheKey, row);
    if (domain === 0) this.defaultStackRows[thread] = row;
    return row;
  }

  /** Index of the thread's marks row. */
  private marksRow(thread: number): number {
    const cached = this.marksRowCache.get(thread);
    if (cached !== undefined) return cached;
    const t = this.threads[thread];
    const key = `marks:${thread}`;
    const row = this.row(key, {
      kind: 'marks',
      layout: 'stack',
      label: 'Marks',
      process: t.process,
      thread,
      domain: -1,
      category: -1,
      path: [],
    });
    row.markT ??= f64();
    row.markStyle ??= u32();
    row.markPayload ??= i32();
    const id = this.rowIds.get(key)!;
    this.marksRowCache.set(thread, id);
    return id;
  }

  private categoryRow(process: number, domain: number, category: number): RowMeta {
    // Numeric cache as in stackRow (exact while process < 2^20 - 1, domain < 2^16, category < 2^16).
    const cacheKey =
      process >= -1 && process < 0xfffff && domain < 0x10000 && category < 0xffff
        ? (process + 1) * 8589934592 + domain * 131072 + (category + 1)
        : -1;
    if (cacheKey !== -1) {
      const cached = this.categoryRowCache.get(cacheKey);
      if (cached) return cached;
    }
    const row = this.row(`category:${process}:${domain}:${category}`, {
      kind: 'category',
      layout: 'lanes',
      label: '',
      process,
      thread: -1,
      domain,
      category,
      path: [],
    });
    if (cacheKey !== -1) this.categoryRowCache.set(cacheKey, row);
    return row;
  }

  private addComplete(
    row: RowMeta,
    thread: number,
    startNs: number,
    endNs: number,
    attrs: EventAttrs,
    where?: SourceLocation,
  ): number {
    let end = endNs;
    if (end < startNs) {
      this.report('warning', `range "${attrs.name ?? ''}" ends (${endNs}) before it starts (${startNs}); drawn with zero length`, where);
      end = startNs;
    }
    if (row.online) this.replayOnline(row);
    const ev = row.events;
    ev.start.push(startNs);
    ev.end.push(end);
    ev.style.push(this.styleOf(attrs));
    ev.payload.push(this.payloadOf(attrs.payload));
    ev.thread.push(thread);
    ev.flags.push(0);
    ev.loc.push(locCode(where));
    this.seeTime(startNs);
    this.seeTime(end);
    return ev.start.length - 1;
  }

  private closeStartEnd(open: OpenStartEnd, tNs: number, endThread: number, flags: number): void {
    const row = this.categoryRow(this.threads[open.thread].process, open.domain, open.category);
    const ev = row.events;
    let end = tNs;
    if (end < open.t) {
      this.report('warning', `start/end range ends before it starts; drawn with zero length`, locOf(open.loc));
      end = open.t;
    }
    ev.start.push(open.t);
    ev.end.push(end);
    ev.style.push(open.style);
    ev.payload.push(open.payload);
    ev.thread.push(open.thread);
    const cross = endThread !== open.thread && flags === 0;
    ev.flags.push(flags | (cross ? RangeFlag.CrossThread : 0));
    ev.loc.push(open.loc);
    if (cross) {
      (row as RowMetaWithCross).cross ??= [];
      (row as RowMetaWithCross).cross!.push(ev.start.length - 1, endThread);
    }
  }

  /** Matches the row's push/pop events (in time order) into complete ranges. */
  private resolveStack(row: RowMeta, captureEnd: number): void {
    const ev = row.events;
    const on = row.online;
    if (on) {
      // Resolved on arrival: only the ranges still open remain, closed after everything, innermost first.
      for (let s = on.open.length - 1; s >= 0; s--) {
        const i = on.open[s];
        const start = ev.start.get(i);
        this.reportNeverPopped(row.thread, start, ev.style.get(i), ev.loc.get(i));
        ev.end.set(i, Math.max(captureEnd, start));
        ev.flags.set(i, RangeFlag.Unterminated);
      }
      on.open.length = 0;
      return;
    }
    const n = ev.evT.length;
    if (n === 0) return;
    const order = sortedOrder(ev.evT.view());
    const stack: number[] = [];
    const stackRank: number[] = [];
    const thread = row.thread;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      const t = ev.evT.get(i);
      if (ev.evPush.get(i) === 1) {
        stack.push(i);
        stackRank.push(k);
        continue;
      }
      const open = stack.pop();
      const openRank = stackRank.pop();
      if (open === undefined || openRank === undefined) {
        this.report('warning', `pop with no open range on thread ${this.threadLabel(thread)} at ${t} ns; ignored`, {
          ...locOf(ev.evLoc.get(i)),
          kind: 'pop-without-push',
          timeNs: t,
          thread,
        });
        continue;
      }
      const popPayload = ev.evPayload.get(i);
      if (popPayload >= 0) {
        ev.evPayload.set(open, this.joinEndPayload(ev.evPayload.get(open), popPayload, locOf(ev.evLoc.get(i))));
      }
      const rename = ev.evRename?.get(i);
      if (rename) ev.evStyle.set(open, this.restyle(ev.evStyle.get(open), rename));
      this.pushComplete(ev, ev.evT.get(open), t, open, thread, 0);
      ev.rankOpen.push(openRank);
      ev.rankClose.push(k);
    }
    for (let s = stack.length - 1; s >= 0; s--) {
      const open = stack[s];
      this.reportNeverPopped(thread, ev.evT.get(open), ev.evStyle.get(open), ev.evLoc.get(open));
      this.pushComplete(ev, ev.evT.get(open), Math.max(captureEnd, ev.evT.get(open)), open, thread, RangeFlag.Unterminated);
      // Closed after everything, innermost first.
      ev.rankOpen.push(stackRank[s]);
      ev.rankClose.push(n + stack.length - s);
    }
  }

  private reportNeverPopped(thread: number, t: number, style: number, loc: number): void {
    const name = this.strings[this.styleName.get(style)];
    this.report(
      'warning',
      `range "${name}" pushed on thread ${this.threadLabel(thread)} at ${t} ns is never popped; closed at the end of the capture`,
      { ...locOf(loc), kind: 'never-popped', timeNs: t, thread },
    );
  }

  private pushComplete(ev: RowEvents, start: number, end: number, evIndex: number, thread: number, flags: number): void {
    ev.start.push(start);
    ev.end.push(end);
    ev.style.push(ev.evStyle.get(evIndex));
    ev.payload.push(ev.evPayload.get(evIndex));
    ev.thread.push(thread);
    ev.flags.push(flags);
    ev.loc.push(ev.evLoc.get(evIndex));
  }

  /**
   * Depth and parent by nesting: order by (start asc, end desc), keep a stack of open ends. Rows
   * made only of push/pop events nest exactly as their stack did (`layoutPushPop`).
   */
  private layoutStack(row: RowMeta): Layout {
    if (row.online) return layoutOnline(row.online);
    const ev = row.events;
    const n = ev.start.length;
    if (ev.rankOpen.length === n) return this.layoutPushPop(row);
    const start = ev.start.view();
    const end = ev.end.view();
    const order = orderByStart(start, end, true);
    const depth = new Uint16Array(n);
    const parent = new Int32Array(n).fill(-1);
    const extraFlags = new Uint8Array(n);
    const stack: number[] = [];
    const levelCounts: number[] = [];
    for (let k = 0; k < n; k++) {
      const i = order[k];
      while (stack.length > 0 && end[stack[stack.length - 1]] <= start[i]) stack.pop();
      if (stack.length > 0) {
        const p = stack[stack.length - 1];
        parent[i] = p;
        if (end[i] > end[p]) {
          extraFlags[i] = RangeFlag.BadNesting;
          this.report(
            'warning',
            `range "${this.strings[this.styleName.get(ev.style.get(i))]}" on ${row.label} of thread ${this.threadLabel(row.thread)} overlaps the end of its parent; drawn one level deeper`,
            locOf(ev.loc.get(i)),
          );
        }
      }
      const d = Math.min(stack.length, 0xffff);
      depth[i] = d;
      levelCounts[d] = (levelCounts[d] ?? 0) + 1;
      stack.push(i);
    }
    return { order: byLevel(order, depth, levelCounts), depth, parent, extraFlags, levelCounts };
  }

  /**
   * Nesting of push/pop ranges from the order of their events: a range's ancestors are the ranges
   * still open when it was pushed. Equal timestamps cannot swap a parent and its child, and a
   * zero-length range at its parent's end stays inside it.
   */
  private layoutPushPop(row: RowMeta): Layout {
    const ev = row.events;
    const n = ev.start.length;
    const open = ev.rankOpen.view();
    const close = ev.rankClose.view();
    // Ranks are distinct small integers: place ranges by push rank instead of sorting.
    let maxRank = 0;
    for (let i = 0; i < n; i++) if (open[i] > maxRank) maxRank = open[i];
    const byRank = new Int32Array(maxRank + 1).fill(-1);
    for (let i = 0; i < n; i++) byRank[open[i]] = i;
    const order = new Uint32Array(n);
    let k = 0;
    for (let r = 0; r <= maxRank; r++) if (byRank[r] >= 0) order[k++] = byRank[r];
    const depth = new Uint16Array(n);
    const parent = new Int32Array(n).fill(-1);
    const stack: number[] = [];
    const levelCounts: number[] = [];
    for (k = 0; k < n; k++) {
      const i = order[k];
      while (stack.length > 0 && close[stack[stack.length - 1]] < open[i]) stack.pop();
      if (stack.length > 0) parent[i] = stack[stack.length - 1];
      const d = Math.min(stack.length, 0xffff);
      depth[i] = d;
      levelCounts[d] = (levelCounts[d] ?? 0) + 1;
      stack.push(i);
    }
    return { order: byLevel(order, depth, levelCounts), depth, parent, extraFlags: new Uint8Array(n), levelCounts };
  }

  /**
   * Turns a row resolved on arrival back into its push and pop events, in arrival order: before
   * each push, pops close the innermost ranges down to that push's depth; after the last push,
   * the ranges closed since. Then the complete columns are emptied and the row takes the general
   * path, exactly as if it had never been resolved on arrival.
   */
  private replayOnline(row: RowMeta): void {
    const on = row.online!;
    row.online = undefined;
    const ev = row.events;
    const n = ev.start.length;
    const stack: number[] = [];
    const pop = (i: number) => {
      ev.evT.push(ev.end.get(i));
      ev.evPush.push(0);
      ev.evStyle.push(0);
      ev.evPayload.push(-1);
      ev.evLoc.push(on.endLoc.get(i));
    };
    for (let i = 0; i < n; i++) {
      const depth = on.depth.get(i);
      while (stack.length > depth) pop(stack.pop()!);
      ev.evT.push(ev.start.get(i));
      ev.evPush.push(1);
      ev.evStyle.push(ev.style.get(i));
      ev.evPayload.push(ev.payload.get(i));
      ev.evLoc.push(ev.loc.get(i));
      stack.push(i);
    }
    while (stack.length > on.open.length) pop(stack.pop()!);
    for (const column of [ev.start, ev.end, ev.style, ev.payload, ev.thread, ev.flags, ev.loc]) column.length = 0;
  }

  /** Fewest lanes for overlapping ranges (optimal interval partitioning). */
  private layoutLanes(row: RowMeta): Layout {
    const ev = row.events;
    const n = ev.start.length;
    const { order, lane, laneCount } = packLanes(ev.start.view(), ev.end.view());
    const levelCounts = new Array<number>(laneCount).fill(0);
    for (let i = 0; i < n; i++) levelCounts[lane[i]]++;
    return {
      order: byLevel(order, lane, levelCounts),
      depth: lane,
      parent: new Int32Array(n).fill(-1),
      extraFlags: new Uint8Array(n),
      levelCounts,
    };
  }

  private threadLabel(thread: number): string {
    if (thread < 0) return '?';
    const t = this.threads[thread];
    return t.name ? `"${t.name}" (${t.tid})` : String(t.tid);
  }
}

/** `Model.correlation` from (range, id) pairs in any order. */
function correlationColumns(ranges: Int32Array, ids: Float64Array): NonNullable<Model['correlation']> {
  const n = ranges.length;
  const byRange = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => ranges[a] - ranges[b]);
  const range = new Int32Array(n);
  const id = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    range[k] = ranges[byRange[k]];
    id[k] = ids[byRange[k]];
  }
  const byId = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => id[a] - id[b] || range[a] - range[b]);
  return { range, id, byId };
}

interface RowMetaWithCross extends RowMeta {
  /** Pairs (range position in row, end thread). */
  cross?: number[];
}

interface Layout {
  /** Row-local indices in final order: by level, then by start. */
  order: Uint32Array;
  depth: Uint16Array;
  parent: Int32Array;
  extraFlags: Uint8Array;
  levelCounts: number[];
}

/** Layout of a row resolved on arrival: depth and parent are known; levels keep push order. */
function layoutOnline(on: OnlineStack): Layout {
  const depth = on.depth.view();
  const n = depth.length;
  const levelCounts: number[] = [];
  for (let i = 0; i < n; i++) levelCounts[depth[i]] = (levelCounts[depth[i]] ?? 0) + 1;
  const offset: number[] = [];
  let acc = 0;
  for (let d = 0; d < levelCounts.length; d++) {
    offset[d] = acc;
    acc += levelCounts[d] ??= 0;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[offset[depth[i]]++] = i;
  return { order, depth, parent: on.parent.view(), extraFlags: new Uint8Array(n), levelCounts };
}

/**
 * Writes a row's ranges into the model's columns at [at, at + n) in layout order, one column at a
 * time (simple loops over typed arrays), times rebased by `zero`.
 */
function placeRows(laid: Layout, ev: RowEvents, newIndex: Int32Array, at: number, zero: number, ranges: Model['ranges']): void {
  const order = laid.order;
  const n = order.length;
  const start = ev.start.view();
  const end = ev.end.view();
  const startOut = ranges.startNs;
  const endOut = ranges.endNs;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    startOut[at + k] = start[i] - zero;
    endOut[at + k] = end[i] - zero;
  }
  const style = ev.style.view();
  const payload = ev.payload.view();
  const styleOut = ranges.style;
  const payloadOut = ranges.payload;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    styleOut[at + k] = style[i];
    payloadOut[at + k] = payload[i];
  }
  const thread = ev.thread.view();
  const parent = laid.parent;
  const threadOut = ranges.thread;
  const parentOut = ranges.parent;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    threadOut[at + k] = thread[i];
    const p = parent[i];
    parentOut[at + k] = p === -1 ? -1 : newIndex[p];
  }
  const depth = laid.depth;
  const flags = ev.flags.view();
  const extra = laid.extraFlags;
  const depthOut = ranges.depth;
  const flagsOut = ranges.flags;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    depthOut[at + k] = depth[i];
    flagsOut[at + k] = flags[i] | extra[i];
  }
}

/** Stable bucket of a start-ordered permutation by level. */
function byLevel(startOrder: Uint32Array, level: Uint16Array, levelCounts: number[]): Uint32Array {
  const offset: number[] = [];
  let acc = 0;
  for (let d = 0; d < levelCounts.length; d++) {
    offset[d] = acc;
    acc += levelCounts[d] ?? 0;
  }
  const out = new Uint32Array(startOrder.length);
  for (let k = 0; k < startOrder.length; k++) {
    const i = startOrder[k];
    out[offset[level[i]]++] = i;
  }
  return out;
}

/** Permutation sorting `t` ascending, stable (arrival order breaks ties); identity when already sorted. */
function sortedOrder(t: Float64Array): Uint32Array {
  const n = t.length;
  const order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && t[i] < t[i - 1]) sorted = false;
  }
  if (!sorted) order.sort((a, b) => t[a] - t[b] || a - b);
  return order;
}

function locCode(where: SourceLocation | undefined): number {
  if (!where) return NO_LOC;
  if (where.line !== undefined) return where.line;
  if (where.offset !== undefined) return -2 - where.offset;
  return NO_LOC;
}

function locOf(code: number): SourceLocation | undefined {
  if (code === NO_LOC) return undefined;
  return code >= 0 ? { line: code } : { offset: -2 - code };
}
