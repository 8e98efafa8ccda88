/**
 * The only way to make a `Model`. Decoders feed events in any order (real emitters often write a
 * range when it ends); `finish()` sorts each row, rebuilds push/pop stacks, packs start/end ranges
 * into the fewest lanes, rebases time to the capture start and lays out the columnar tables.
 *
 * Times given to the builder are integer nanoseconds relative to an origin the decoder chose
 * (`setClock`), small enough to be exact in a double; the builder rebases them so that the
 * earliest event (or the declared capture start) is zero.
 *
 * This class is the facade decoders call; the work is done by the modules of `build/`, each
 * owning its state: names (`NameTable`), processes/threads/domains/categories (`ProcessTree`),
 * styles (`StyleTable`), payloads (`PayloadStore`), rows (`RowTable`), events into rows with the
 * push/pop fast path (`EventRecorder`), and at finish the stacks, layouts and columns
 * (`assembleModel`).
 */
import type { PayloadRegistry } from '../payload/schema.ts';
import { assembleModel } from './build/assemble.ts';
import { EventRecorder } from './build/eventRecorder.ts';
import type { GrowthPlan } from './growable.ts';
import { ModelOverBudget, typedBytes } from './build/heldBytes.ts';
import type { BuilderOptions, CounterRowOptions, CustomRowOptions, EventAttrs, PayloadValue, RangeRename, SourceLocation } from './build/inputs.ts';
import { IssueLog, offsetLocCode } from './build/issues.ts';
import { NameTable } from './build/names.ts';
import { PayloadStore } from './build/payloads.ts';
import { ProcessTree } from './build/processTree.ts';
import { RowTable, type OnlineStack } from './build/rows.ts';
import { StyleTable } from './build/styles.ts';
import { boundEventAttrs, boundPayload, boundRename, boundRowOptions, type StringCuts, type StringKind, type StringPlace } from './build/stringCuts.ts';
import type { ExtMemoryInput, ExtPayloadInput } from './extPayloads.ts';
import { PayloadType, type CaptureInfo, type LoadIssue, type Model, type ResourceInfo, type StringId } from './types.ts';

export { isOutOfMemory, ModelOverBudget } from './build/heldBytes.ts';
export { offsetLocCode } from './build/issues.ts';
export { MAX_STRING_CHARS, cutString, type StringKind, type StringPlace } from './build/stringCuts.ts';
export type {
  BuilderOptions,
  CounterRowOptions,
  CustomRowOptions,
  EventAttrs,
  JsonBytesValue,
  PayloadValue,
  RangeRename,
  SourceLocation,
} from './build/inputs.ts';

export class ModelBuilder {
  private readonly issues: IssueLog;
  private readonly names = new NameTable();
  /** Strings cut to the bound, reported once per kind at `finish` (issue 16). */
  private readonly cuts = this.names.cuts;
  private readonly tree: ProcessTree;
  private readonly styles: StyleTable;
  private readonly payloads: PayloadStore;
  private readonly rows: RowTable;
  private readonly events: EventRecorder;
  private readonly resources: ResourceInfo[] = [];
  private readonly info: CaptureInfo;
  private originNs = 0n;
  private declaredStart: number | undefined;
  private declaredEnd: number | undefined;
  private budgetBytes = Infinity;
  /** Share of the file read so far, for sizing the columns (`inputRead`); 0 until told. */
  private readonly growth: GrowthPlan = { fraction: 0 };

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
    this.issues = new IssueLog(options.fileName);
    this.tree = new ProcessTree(this.issues);
    this.styles = new StyleTable(this.names, this.tree);
    this.payloads = new PayloadStore(this.names, this.issues, this.growth);
    this.rows = new RowTable(this.tree, this.growth);
    this.events = new EventRecorder(this.rows, this.tree, this.styles, this.payloads, this.issues);
  }

  // ---------------------------------------------------------------- capture facts and reports

  /**
   * Records a problem; `file` is filled in. Instrumentation problems also give their kind, time
   * (in the decoder's ns, shifted to the model's zero by `finish`) and thread (for the health list).
   */
  report(severity: LoadIssue['severity'], message: string, where?: SourceLocation & Pick<LoadIssue, 'kind' | 'timeNs' | 'thread'>): void {
    this.issues.report(severity, message, where);
  }

  /** Records a name the program gave to one of its objects (CUDA stream, OpenCL queue, NVTX resource...). */
  nameResource(resource: ResourceInfo): void {
    this.resources.push({ ...resource, name: this.cuts.bound(resource.name, 'name') });
  }

  get issueCount(): number {
    return this.issues.count;
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
    this.info.displayName = this.cuts.bound(name, 'property');
  }

  setProperty(key: string, value: string): void {
    this.info.properties[this.cuts.bound(key, 'property')] = this.cuts.bound(value, 'property');
  }

  // ---------------------------------------------------------------- names

  /**
   * The id of `s`. A string longer than the bound (`build/stringCuts.ts`) is cut and counted as a
   * `kind` (a name unless told) found at `where`: give both where the decoder knows them.
   */
  intern(s: string, kind: StringKind = 'name', where?: StringPlace): StringId {
    return this.names.intern(this.cuts.bound(s, kind, where));
  }

  process(pid: number, name?: string, where?: StringPlace): number {
    return this.tree.process(pid, name === undefined ? name : this.cuts.bound(name, 'process name', where));
  }

  thread(pid: number, tid: number, name?: string, where?: StringPlace): number {
    return this.tree.thread(pid, tid, name === undefined ? name : this.cuts.bound(name, 'thread name', where));
  }

  /** Orders the process in the track tree (lower first; unset = 0), e.g. Chrome `process_sort_index`. */
  processSortIndex(pid: number, sortIndex: number): void {
    this.tree.processSortIndex(pid, sortIndex);
  }

  /** Orders the thread among its process's threads (lower first; unset = 0). */
  threadSortIndex(pid: number, tid: number, sortIndex: number): void {
    this.tree.threadSortIndex(pid, tid, sortIndex);
  }

  /** A domain of a process (pid -1: not tied to a process). '' is the default domain (index 0). */
  domain(pid: number, name: string, where?: StringPlace): number {
    return this.tree.domain(pid, this.cuts.bound(name, 'domain', where));
  }

  /** Index of category `id` of `domain`, created unnamed on first use; -1 for id 0 (none). */
  category(domain: number, id: number): number {
    return this.tree.category(domain, id);
  }

  nameCategory(domain: number, id: number, name: string, where?: StringPlace): void {
    this.tree.nameCategory(domain, id, this.cuts.bound(name, 'category', where), where && { line: where.line, offset: where.offset });
  }

  /** Makes `childId` a child of `parentId`; rejects (and reports) self-links and cycles. */
  addChildCategory(domain: number, parentId: number, childId: number, where?: SourceLocation): boolean {
    return this.tree.addChildCategory(domain, parentId, childId, where);
  }

  /** The style index of these attributes (interned), for `EventAttrs.style`. */
  style(attrs: EventAttrs): number {
    return this.styles.styleOf(boundEventAttrs(attrs, this.cuts));
  }

  // ---------------------------------------------------------------- events

  /** Opens a push/pop range on a thread's stack (per domain). */
  push(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    this.events.push(thread, tNs, boundEventAttrs(attrs, this.cuts, where), where);
  }

  /**
   * Closes the innermost open push/pop range of the thread's stack in `domain`. An extended
   * `payload` (nvtxRangePopPayload) joins the range's payloads as its pop/end payloads.
   */
  pop(thread: number, tNs: number, domain = 0, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    this.events.pop(thread, tNs, domain, where, payload && boundPayload(payload, this.cuts, where), boundRename(rename, this.cuts, where));
  }

  /**
   * `push` for a decoder's hot path: the style already made (`style()`), the location a byte
   * offset, and no attributes object to read or bound (the style's strings were bound when it was
   * made). The same range as `push(thread, tNs, { style, domain, payload }, { offset })`.
   */
  pushStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined, offset: number): void {
    this.events.pushStyled(thread, tNs, domain, style, payload === undefined ? undefined : boundPayloadAt(payload, this.cuts, offset), offsetLocCode(offset));
  }

  /** `pop(thread, tNs, domain, { offset })` for a decoder's hot path: no payload, no rename. */
  popAt(thread: number, tNs: number, domain: number, offset: number): void {
    this.events.popPlain(thread, tNs, domain, offsetLocCode(offset));
  }

  /**
   * The online stack of the thread's default-domain push/pop row, for a decoder loop that writes
   * plain pushes and pops into it directly: what `pushStyled` and `popAt` (no payload) would write
   * while the row is online and its times do not go back. The caller then reports the times it
   * wrote (`sawTimes`). Undefined when the row is not made yet or is on the general path, and
   * always on a builder that records its calls (`TapeBuilder`), which must see every call.
   */
  directStack(thread: number): OnlineStack | undefined {
    return this.rows.madeDefaultStackRow(thread)?.online;
  }

  /**
   * The payload row of a number payload pushed with a range written through `directStack` (what
   * `pushStyled` stores for it): called where `pushStyled` would be, so rows keep their order.
   */
  directPayloadRow(payload: PayloadValue): number {
    return this.events.payloadRow(payload);
  }

  /** The earliest and latest times of events written through `directStack`. */
  sawTimes(firstNs: number, lastNs: number): void {
    this.events.sawTimes(firstNs, lastNs);
  }

  /** `mark(thread, tNs, { style, domain, payload })` for a decoder's hot path (see `pushStyled`). */
  markStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined): void {
    this.events.markStyled(thread, tNs, domain, style, payload === undefined ? undefined : boundPayload(payload, this.cuts));
  }

  /** A push/pop range known with both ends (e.g. an nsys row or a Chrome X event). */
  range(thread: number, startNs: number, endNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    this.events.range(thread, startNs, endNs, boundEventAttrs(attrs, this.cuts, where), where);
  }

  /** A start/end range known with both ends; it goes to its process's category row. */
  startEnd(thread: number, startNs: number, endNs: number, attrs: EventAttrs, endThread?: number, where?: SourceLocation): void {
    this.events.startEnd(thread, startNs, endNs, boundEventAttrs(attrs, this.cuts, where), endThread, where);
  }

  /** Opens a start/end range identified by `key` (e.g. the nvtxRangeId_t of its domain). */
  rangeStart(key: string | number, thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    this.events.rangeStart(key, thread, tNs, boundEventAttrs(attrs, this.cuts, where), where);
  }

  /**
   * Closes the start/end range `key`; reports an end without a start (or a second end). An
   * extended `payload` (nvtxRangeEndPayload) joins the range's payloads as its end payloads.
   */
  rangeEnd(key: string | number, thread: number, tNs: number, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    this.events.rangeEnd(key, thread, tNs, where, payload && boundPayload(payload, this.cuts, where), boundRename(rename, this.cuts, where));
  }

  mark(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    this.events.mark(thread, tNs, boundEventAttrs(attrs, this.cuts, where));
  }

  /**
   * A marks row outside the per-thread ones (e.g. deferred events of an NVTX scope that is not a
   * thread): under `path` of the process (or thread) node; returns a key for `rowMark()`.
   */
  markRow(options: { label: string; process: number; thread?: number; path?: string[] }): number {
    return this.rows.markRow(boundRowOptions(options, this.cuts));
  }

  /** A mark on a row from `markRow()`. */
  rowMark(row: number, tNs: number, attrs: EventAttrs): void {
    this.events.rowMark(row, tNs, boundEventAttrs(attrs, this.cuts));
  }

  /** A counter row; returns a key for `counter()`. */
  counterRow(options: CounterRowOptions): number {
    return this.rows.counterRow(boundRowOptions(options, this.cuts));
  }

  counter(row: number, tNs: number, value: number): void {
    this.events.counter(row, tNs, value);
  }

  /** A custom range row (API calls stacked per thread, GPU work packed in lanes). */
  customRow(options: CustomRowOptions): number {
    return this.rows.customRow(boundRowOptions(options, this.cuts));
  }

  /**
   * Adds a range to a custom row. `correlation`, when given, links ranges that belong together (a
   * CUDA API call and the GPU work it launched share one); the links end up in `Model.correlation`.
   * The decoder keeps ids unique per capture (e.g. CUPTI ids are per process: combine them).
   */
  rowRange(row: number, startNs: number, endNs: number, attrs: EventAttrs, thread = -1, correlation?: number): void {
    this.events.rowRange(row, startNs, endNs, boundEventAttrs(attrs, this.cuts), thread, correlation);
  }

  /** A flow arrow from a point of one thread to a point of another (Chrome flow events); see `Model.flows`. */
  flow(fromThread: number, fromNs: number, toThread: number, toNs: number): void {
    this.events.flow(fromThread, fromNs, toThread, toNs);
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
    return this.payloads.extPayload(domain, blobs, memory, offsetBase);
  }

  /**
   * Stores the data OFFSET_FROM_BASE entries of many events count from (an event batch's flex data)
   * once; pass the returned row as their `extPayload` offset base.
   */
  extSharedOffsetBase(domain: number, base: ExtMemoryInput): number {
    return this.payloads.extSharedOffsetBase(domain, base);
  }

  /** The schemas, enums, registered strings and scopes extended payloads are decoded with. */
  setPayloadRegistry(registry: PayloadRegistry): void {
    this.payloads.setRegistry(registry);
  }

  /**
   * About the bytes the model being built holds so far (columns as allocated, strings), for a
   * load's memory budget; `finish()` needs about as much again while it lays out the model.
   */
  heldBytes(): number {
    let bytes = this.names.textBytes + typedBytes(this.styles) + typedBytes(this.payloads);
    if (this.events.flowPoints) bytes += typedBytes(this.events.flowPoints, 0);
    for (const row of this.rows.rows) bytes += typedBytes(row);
    return bytes;
  }

  /**
   * Tells the builder how many bytes of its file (`BuilderOptions.byteSize`) the decoder has been
   * handed so far, in file order. Columns then grow toward the size the file projects for them
   * instead of doubling (`GrowthPlan` in growable.ts). Optional: without it columns double.
   */
  inputRead(bytes: number): void {
    const size = this.info.byteSize;
    const fraction = size > 0 && bytes > 0 ? Math.min(1, bytes / size) : 0;
    // Columns sized for the whole file would reach a memory budget sooner than the model does
    // (the load would stop early): doubling, as without this, once the whole-file projection of
    // what is held passes half the budget.
    const fits = this.budgetBytes === Infinity || fraction === 0 || this.heldBytes() / fraction <= this.budgetBytes / 2;
    this.growth.fraction = fits ? fraction : 0;
  }

  /** Sets the most bytes the model may hold while it is built (`checkBudget`); Infinity for none. */
  setBudget(bytes: number): void {
    this.budgetBytes = bytes;
  }

  /**
   * Throws `ModelOverBudget` once the model holds more than its budget. The pipeline calls it per
   * chunk, decoders that read at random (nsys) every few thousand rows; the load then keeps what
   * was built so far and says where it stopped.
   */
  checkBudget(): void {
    if (this.budgetBytes === Infinity) return;
    const held = this.heldBytes();
    if (held > this.budgetBytes) throw new ModelOverBudget(held, this.budgetBytes);
  }

  // ---------------------------------------------------------------- finish

  finish(): Model {
    this.cuts.report(this.issues);
    return assembleModel({
      info: this.info,
      originNs: this.originNs,
      declaredStart: this.declaredStart,
      declaredEnd: this.declaredEnd,
      resources: this.resources,
      names: this.names,
      tree: this.tree,
      styles: this.styles,
      payloads: this.payloads,
      rows: this.rows,
      events: this.events,
      issues: this.issues,
    });
  }
}

/** `payload` within the bound; the location object is made only for a text payload (which may be cut). */
function boundPayloadAt(payload: PayloadValue, cuts: StringCuts, offset: number): PayloadValue {
  return payload.type === PayloadType.String || payload.type === PayloadType.Json ? boundPayload(payload, cuts, { offset }) : payload;
}
