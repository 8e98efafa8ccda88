/**
 * Chrome Trace Event Format importer (JSON array and object forms), as written by Chrome,
 * Perfetto's JSON export, PyTorch's profiler and many other tools.
 *
 *   B/E   push/pop on the thread's stack          X       complete range on the thread's stack
 *   i/I/R marks (thread, process or global scope)  C       one counter row per series (name + args key)
 *   b/e   nestable async ranges, S/F legacy async  n       async instant: a mark with the category
 *   M     process/thread names and sort indices
 *
 * Async ranges go to the process's category row of their `cat` (categories are numbered in order of
 * appearance in the default domain). `args` become JSON payloads. Timestamps are microseconds with a
 * fraction, converted to integer nanoseconds exactly from the decimal text; the first timestamp seen
 * is the decoder's origin. Flow events (`s`/`t`/`f`) become arrows between thread points (`Model.flows`);
 * PyTorch's `ac2g` flows are the launch → GPU work links its events' correlation args give already
 * (kineto.ts). Sample, object and memory-dump events are counted and reported once per kind.
 */
import { MAX_STRING_CHARS, cutString, type EventAttrs, type JsonBytesValue, type ModelBuilder } from '../../model/builder.ts';
import { PayloadType } from '../../model/types.ts';
import { StyleCache } from '../styleCache.ts';
import type { DecodeContext, DecodeInput, Importer } from '../importer.ts';
import { MAX_INT_KEY_PREFIX, integerIdCode } from './asyncIntKeys.ts';
import { AsyncKey, AsyncRangeMatcher } from './asyncRanges.ts';
import { BytesTable } from '../bytesTable.ts';
import { f64, i32, u32, u8 } from '../../model/growable.ts';
import { cnameColor } from './cnameColors.ts';
import { readCounterArgs, type CounterArgs } from './counterArgs.ts';
import { TraceDocumentReader, type IssueLocation, type TraceDocumentSink } from './documentReader.ts';
import { EventFields, FieldKind, SpanField, parseEvent } from './eventFields.ts';
import { FALLBACK, parseEventFast } from './fastEvent.ts';
import { IssueBudget } from './issueBudget.ts';
import { isMemoryEventName, memorySample, MEMORY_EVENT_NAME, MEMORY_ROW_PATH } from './kinetoMemory.ts';
import { KinetoEvents, KinetoRole, isRoutedRole, kinetoRole } from './kineto.ts';
import { readKinetoArgs, type KinetoArgs } from './kinetoArgs.ts';
import { INCOMPLETE, decodeStringToken, decodeText, jsonDepth } from './jsonBytes.ts';

/** Small top-level values of the object form shown as capture properties. */
export const KEPT_KEYS: ReadonlySet<string> = new Set([
  'displayTimeUnit',
  'otherData',
  'metadata',
  'schemaVersion',
  'deviceProperties',
  'distributedInfo',
  'baseTimeNanoseconds',
  'traceName',
  // The PyTorch profiler's (Kineto's) facts about the run.
  'trace_id',
  'profile_memory',
  'record_shapes',
  'with_stack',
  'with_flops',
  'with_modules',
  'cuda_driver_version',
  'cuda_runtime_version',
  'cupti_version',
  'hip_driver_version',
  'hip_runtime_version',
  'roctracer_version',
  'rocprof_version',
]);

/** Longest property value kept from the top-level object (the rest is cut with an ellipsis). */
const MAX_PROPERTY_CHARS = 2000;

const PH = {
  B: 0x42,
  E: 0x45,
  X: 0x58,
  i: 0x69,
  I: 0x49,
  R: 0x52,
  C: 0x43,
  b: 0x62,
  e: 0x65,
  n: 0x6e,
  S: 0x53,
  T: 0x54,
  p: 0x70,
  F: 0x46,
  M: 0x4d,
  s: 0x73,
  t: 0x74,
  f: 0x66,
  P: 0x50,
  O: 0x4f,
  N: 0x4e,
  D: 0x44,
  V: 0x56,
  v: 0x76,
  c: 0x63,
} as const;

/** Phases read but not shown, with how they are described in the load report. */
const SKIPPED_PHASES: Record<number, string> = {
  [PH.T]: 'legacy async step events (ph "T") not shown',
  [PH.p]: 'legacy async step events (ph "p") not shown',
  [PH.P]: 'sample events (ph "P") not shown',
  [PH.O]: 'object snapshot events (ph "O") not shown',
  [PH.N]: 'object created events (ph "N") not shown',
  [PH.D]: 'object destroyed events (ph "D") not shown',
  [PH.V]: 'global memory dump events (ph "V") not shown',
  [PH.v]: 'process memory dump events (ph "v") not shown',
  [PH.c]: 'clock sync events (ph "c") not shown',
};

/**
 * Largest |ts| in microseconds: whole microseconds stay exact integers (2^53 µs is 285 years, past
 * any epoch clock), and times in ns stay finite. Beyond it a timestamp is damage, not a time.
 */
const MAX_TS_US = Number.MAX_SAFE_INTEGER;
/** Largest |dur| in microseconds: the duration in ns stays an exact integer (about 104 days). */
const MAX_DUR_US = Math.floor(Number.MAX_SAFE_INTEGER / 1000);
/** Deepest nesting of a top-level value shown as properties (deeper ones are shown as cut text). */
const MAX_PROPERTY_DEPTH = 64;

const SCOPE_GLOBAL = 0x67; // 'g'
const SCOPE_PROCESS = 0x70; // 'p'

/** Stable importer id, stored in `CaptureInfo.format`. */
export const CHROME_FORMAT_ID = 'chrome-json';

/** What the decoder's `finish` needs of the document reader. */
export type DocumentSummary = Pick<TraceDocumentReader, 'documentForm' | 'nonObjectElements' | 'foundEvents'>;

/**
 * Events into builder calls. One thread: it is the document reader's sink and parses each event
 * itself (`event`). Two workers (src/import/chromeSplit.ts): the parse side fills `fields` from its
 * record and calls `recordedEvent`, so all decoder state stays on the build side.
 */
export class ChromeTraceDecoder implements TraceDocumentSink {
  /** The event being decoded (reused). */
  readonly fields = new EventFields();
  private readonly f = this.fields;
  private readonly budget: IssueBudget;
  private readonly names = new BytesTable();
  private readonly cats = new BytesTable();
  private readonly cnames = new BytesTable();
  private readonly cnameInfo: { color: number; unknown: string | undefined }[] = [];
  /** Text of interned names, for messages. */
  private readonly nameTexts = new Map<number, string>();
  private categoryCount = 0;
  private readonly emptyName: number;
  private readonly asyncRanges = new AsyncRangeMatcher();
  private readonly asyncKey = new AsyncKey();
  private readonly counterRows = new Map<string, number>();
  /** PyTorch memory counter rows (kinetoMemory.ts), by process and label. */
  private readonly memoryRows = new Map<string, number>();
  /** A counter event's series (reused; `raw` holds the parsed values where JSON.parse read them, for messages). */
  private readonly counterArgs: CounterArgs & { raw: unknown[] } = { keys: [], values: [], isNull: [], count: 0, raw: [] };
  /** PyTorch profiler (Kineto) role of each category id. */
  private readonly categoryRoles: KinetoRole[] = [KinetoRole.None];
  private readonly kineto: KinetoEvents;
  private readonly kinetoArgs: KinetoArgs = { correlation: undefined, device: undefined, stream: undefined };
  /** Flow event points (key = category and id), paired at the end. */
  private readonly flowPoints = { key: u32(), phase: u8(), thread: i32(), t: f64(), offset: f64() };
  private readonly flowCats = new BytesTable();
  private flowCatCount = 0;
  /** An absent field (flow v2 ids have no category). */
  private readonly noField = new SpanField();
  private readonly flowKeys = new Map<string, number>();
  private flowCount = 0;
  // Reused per event: the builder copies what it keeps.
  private readonly attrs: EventAttrs = {};
  private readonly where = { offset: 0 };
  /** `args` handed over as bytes: the builder copies them, no string per event. */
  private readonly argsPayload: JsonBytesValue = { type: PayloadType.Json, bytes: new Uint8Array(0), start: 0, end: 0 };
  /** Style by name and category (uncolored events): the builder's string-keyed lookup is per event otherwise. */
  private readonly styles: StyleCache;

  // pid/tid given as strings (or non-integers) get negative synthetic numbers, named after the text.
  private readonly syntheticIds = new Map<string, number>();
  private nextSynthetic = -2;
  private readonly threadsByPid = new Map<number, Map<number, number>>();
  private lastPid = NaN;
  private lastTid = NaN;
  private lastThread = -1;
  /** pid and tid of the current event once resolved. */
  private pid = 0;
  private tid = 0;

  private originUs: number | undefined;
  /**
   * The PyTorch profiler's `baseTimeNanoseconds`: Unix time in ns of its `ts` zero (Kineto writes
   * `ts` relative to it, in µs; HTA's trace_event_timestamp_to_unixtime_ns reads them so), which
   * puts the trace on the UTC clock Nsight exports use.
   */
  private baseTimeNs: bigint | undefined;
  /** File offset of the event being decoded. */
  private eventOffset = 0;
  private eventCount = 0;
  /** Events with a string "ph": none among many objects means the file is some other JSON. */
  private phasedCount = 0;

  /** `fastPath` false: every event through the general parser, counter args through JSON.parse (tests compare the two). */
  constructor(
    private readonly builder: ModelBuilder,
    private readonly fastPath = true,
  ) {
    this.budget = new IssueBudget(builder);
    this.styles = new StyleCache(builder);
    this.kineto = new KinetoEvents(builder);
    this.emptyName = builder.intern('');
    this.nameTexts.set(this.emptyName, '');
  }

  // ---------------------------------------------------------------- TraceDocumentSink

  lastEventLineBreaks = -1;

  event(buf: Uint8Array, pos: number, limit: number, base: number): number {
    let end = this.fastPath ? parseEventFast(buf, pos, limit, this.f) : FALLBACK;
    if (end === FALLBACK) end = parseEvent(buf, pos, limit, this.f);
    this.lastEventLineBreaks = this.f.lineBreaks;
    if (end === INCOMPLETE) return INCOMPLETE;
    this.recordedEvent(buf, base + pos);
    return end;
  }

  /** Acts on the complete event in `fields`, at file offset `offset` (its spans index `buf`). */
  recordedEvent(buf: Uint8Array, offset: number): void {
    this.eventCount++;
    if (this.f.phStart >= 0) this.phasedCount++;
    this.eventOffset = offset;
    this.dispatch(buf, offset);
  }

  topLevelValue(key: string, json: string | undefined, bytes: number, where: IssueLocation): void {
    if (key === 'traceEvents') return;
    if (key === 'deviceProperties' && json !== undefined && jsonDepth(json) <= MAX_PROPERTY_DEPTH) this.kineto.deviceProperties(parseJson(json));
    // Read from the text: the number is beyond 2^53.
    if (key === 'baseTimeNanoseconds' && json !== undefined && /^\s*[1-9]\d{0,20}\s*$/.test(json)) this.baseTimeNs = BigInt(json.trim());
    if (json === undefined) {
      this.builder.report('info', `top-level "${key}" (${bytes} bytes) is not shown`, where);
      return;
    }
    const depth = jsonDepth(json);
    if (depth > MAX_PROPERTY_DEPTH) {
      this.builder.report('warning', `top-level "${key}" nests ${depth} levels deep (more than ${MAX_PROPERTY_DEPTH}); shown as text`, where);
      this.builder.setProperty(key, cut(json));
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (e) {
      this.builder.report('warning', `top-level "${key}" is not valid JSON (${(e as Error).message}); ignored`, where);
      return;
    }
    if (key === 'displayTimeUnit' || !isPlainObject(value)) {
      this.builder.setProperty(key, propertyText(value));
      return;
    }
    for (const [k, v] of Object.entries(value)) this.builder.setProperty(`${key}.${k}`, propertyText(v));
  }

  report(severity: 'error' | 'warning' | 'info', message: string, where?: IssueLocation): void {
    this.builder.report(severity, message, where);
  }

  // ---------------------------------------------------------------- events

  private dispatch(buf: Uint8Array, offset: number): void {
    const f = this.f;
    switch (f.ph) {
      case PH.X:
        return this.complete(buf, offset);
      case PH.B:
      case PH.E:
        return this.beginEnd(buf, offset);
      case PH.i:
      case PH.I:
      case PH.R:
        return this.instant(buf, offset);
      case PH.C:
        return this.counter(buf, offset);
      case PH.b:
      case PH.e:
      case PH.n:
      case PH.S:
      case PH.F:
        return this.asyncEvent(buf, offset);
      case PH.M:
        return this.metadata(buf, offset);
    }
    const skipped = SKIPPED_PHASES[f.ph];
    if ((f.ph === PH.s || f.ph === PH.f || f.ph === PH.t) && this.isAc2g(buf)) {
      this.kineto.noteAc2gFlow();
      this.budget.tally('ac2g', 'info', 'PyTorch profiler "ac2g" flow events: the launch → GPU work links they draw are read from the events\' "correlation" args', offset);
    } else if (f.ph === PH.s || f.ph === PH.f || f.ph === PH.t) {
      this.flowEvent(buf, offset);
    } else if (skipped !== undefined) {
      this.budget.tally(skipped, 'info', skipped, offset);
    } else if (f.phStart < 0) {
      this.budget.report('missing ph', 'warning', 'event without a string "ph" (phase); skipped', offset);
    } else {
      const ph = decodeText(buf, f.phStart, f.phEnd);
      this.budget.tally(`ph ${ph}`, 'warning', `events of unknown phase "${ph}" skipped`, offset);
    }
  }

  private complete(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const thread = this.thread(buf, offset);
    let dur = 0;
    if (f.hasDur === FieldKind.Number) {
      if (Math.abs(f.dur.us) <= MAX_DUR_US) dur = f.dur.us * 1000 + f.dur.ns;
      else this.budget.report('dur out of range', 'warning', `complete event (ph "X") with "dur" ${roughly(f.dur.us)} µs, out of range (more than 104 days); drawn with zero length`, offset);
    } else this.budget.report('X without dur', 'warning', 'complete event (ph "X") without a numeric "dur"; drawn with zero length', offset);
    if (dur < 0) {
      const name = this.text(buf, f.name);
      this.budget.report('X negative dur', 'warning', `complete event "${name.length > 80 ? `${name.slice(0, 80)}…` : name}" has a negative "dur" (${dur / 1000} µs); drawn with zero length`, offset);
      dur = 0;
    }
    const attrs = this.eventAttrs(buf);
    const role = this.categoryRoles[attrs.category ?? 0] ?? KinetoRole.None;
    if (isRoutedRole(role)) {
      const args = readKinetoArgs(buf, f.argsStart, f.argsEnd, this.kinetoArgs);
      const process = this.builder.process(this.pid);
      this.kineto.complete({ role, startNs: t, endNs: t + dur, thread, process, pid: this.pid, tid: this.tid, attrs, args });
      return;
    }
    this.builder.range(thread, t, t + dur, attrs, this.at(offset));
    if (f.flowIn || f.flowOut) this.boundFlow(buf, thread, t, offset);
    if (role === KinetoRole.UserAnnotation) {
      this.kineto.annotation(thread, this.builder.process(this.pid), t, t + dur, attrs.nameId!, attrs.style ?? this.builder.style(attrs));
    }
  }

  /**
   * Flow events pair by category and id once the file is read (files are not in time order): in
   * time order, a start opens a flow, each step draws an arrow from the previous point, an end
   * draws the last arrow and closes it. Arrows join points of threads; the ranges there are found
   * when shown (src/model/flows.ts).
   */
  private flowEvent(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const thread = this.thread(buf, offset);
    if (f.id.kind === FieldKind.Absent) {
      this.budget.tally('flow without id', 'warning', 'flow events without an "id" skipped', offset);
      return;
    }
    this.addFlowPoint(this.flowKey(buf, f.cat, f.id), f.ph === PH.s ? 0 : f.ph === PH.t ? 1 : 2, thread, t, offset);
  }

  /** A small number per (category, id) of a flow: ids that are plain integers need no text. */
  private flowKey(buf: Uint8Array, cat: SpanField, id: SpanField): number {
    let c = 0;
    if (cat.kind !== FieldKind.Absent && cat.end > cat.start) {
      c = this.flowCats.get(buf, cat.start, cat.end);
      if (c === -1) {
        c = ++this.flowCatCount;
        this.flowCats.set(buf, cat.start, cat.end, c);
      }
    }
    const key = id.kind === FieldKind.Number && Number.isSafeInteger(id.int) && id.int >= 0 ? `${c}:${id.int}` : `${c}\u0000${this.text(buf, id)}`;
    let k = this.flowKeys.get(key);
    if (k === undefined) this.flowKeys.set(key, (k = this.flowKeys.size));
    return k;
  }

  private addFlowPoint(key: number, phase: number, thread: number, t: number, offset: number): void {
    const p = this.flowPoints;
    p.key.push(key);
    p.phase.push(phase);
    p.thread.push(thread);
    p.t.push(t);
    p.offset.push(offset);
  }

  /**
   * Flow v2: a slice with `bind_id` and `flow_out` starts (or continues) the flow of that id at its
   * start, `flow_in` ends it there; paired with the s/t/f flows of the same id and no category.
   */
  private boundFlow(buf: Uint8Array, thread: number, t: number, offset: number): void {
    const f = this.f;
    const idField = f.bindId.kind !== FieldKind.Absent ? f.bindId : f.id;
    if (idField.kind === FieldKind.Absent) {
      this.budget.tally('flow without bind_id', 'warning', 'slices with "flow_in"/"flow_out" but no "bind_id" (or "id"): no arrow drawn', offset);
      return;
    }
    // flow_in then flow_out at one slice: a step (ends the incoming arrow, starts the next).
    const phase = f.flowIn && f.flowOut ? 1 : f.flowOut ? 0 : 2;
    this.addFlowPoint(this.flowKey(buf, this.noField, idField), phase, thread, t, offset);
  }

  private pairFlows(): void {
    const p = this.flowPoints;
    const n = p.key.length;
    if (n === 0) return;
    const key = p.key.view();
    const phase = p.phase.view();
    const time = p.t.view();
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b] || time[a] - time[b] || phase[a] - phase[b]);
    let unmatched = 0;
    let unended = 0;
    let firstUnmatched = -1;
    let open = -1;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      if (k > 0 && key[i] !== key[order[k - 1]]) {
        if (open >= 0) unended++;
        open = -1;
      }
      if (phase[i] === 0) {
        if (open >= 0) unended++;
        open = i;
        continue;
      }
      if (open < 0) {
        unmatched++;
        const at = p.offset.get(i);
        if (firstUnmatched < 0 || at < firstUnmatched) firstUnmatched = at;
        continue;
      }
      this.builder.flow(p.thread.get(open), time[open], p.thread.get(i), time[i]);
      this.flowCount++;
      open = phase[i] === 1 ? i : -1;
    }
    if (open >= 0) unended++;
    if (unmatched > 0) this.builder.report('info', `${unmatched} flow step/end events with no flow start of their category and id before them; no arrow drawn for them`, { offset: firstUnmatched });
    if (unended > 0) this.builder.report('info', `${unended} flow(s) started with no end event; no arrow drawn past their last point`);
  }

  private beginEnd(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const thread = this.thread(buf, offset);
    if (f.ph === PH.B) {
      this.builder.push(thread, t, this.eventAttrs(buf), this.at(offset));
      return;
    }
    if (f.argsStart >= 0 && !f.argsEmpty) {
      this.budget.tally('E args', 'info', 'end events (ph "E") carry args, which are not shown (only the begin event\'s args are)', offset);
    }
    this.builder.pop(thread, t, 0, this.at(offset));
  }

  private instant(buf: Uint8Array, offset: number): void {
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const scope = this.f.instantScope;
    let thread: number;
    if (scope === SCOPE_GLOBAL) {
      thread = this.pseudoThread(this.syntheticId('\u0000global'), 'Global', 'Global instants');
    } else if (scope === SCOPE_PROCESS) {
      this.pid = this.pidOf(buf, offset);
      thread = this.pseudoThread(this.pid, undefined, 'Process instants');
    } else {
      thread = this.thread(buf, offset);
    }
    this.builder.mark(thread, t, this.eventAttrs(buf), this.at(offset));
    const name = this.f.name;
    // A global instant belongs to no process (PyTorch's memory events are per thread).
    if (scope !== SCOPE_GLOBAL && name.kind === FieldKind.String && this.f.argsStart >= 0 && isMemoryEventName(buf, name.start, name.end)) {
      this.memoryCounters(buf, offset, t);
    }
  }

  /** A PyTorch "[memory]" instant's totals as samples of its device's counter rows. */
  private memoryCounters(buf: Uint8Array, offset: number, t: number): void {
    const args = this.parseArgs(buf, offset);
    const sample = args && memorySample(args);
    if (!sample) return;
    this.budget.tally(
      'pytorch memory',
      'info',
      `PyTorch memory events ("${MEMORY_EVENT_NAME}" instants): their allocator totals are also drawn as counter rows per device (${MEMORY_ROW_PATH.join(' › ')})`,
      offset,
    );
    const process = this.builder.process(this.pid);
    this.memoryCounter(process, `${sample.device} allocated`, t, sample.allocated);
    if (sample.reserved !== undefined) this.memoryCounter(process, `${sample.device} reserved`, t, sample.reserved);
  }

  private memoryCounter(process: number, label: string, t: number, value: number): void {
    const key = `${process}\u0000${label}`;
    let row = this.memoryRows.get(key);
    if (row === undefined) {
      row = this.builder.counterRow({ label, process, unit: 'bytes', path: MEMORY_ROW_PATH });
      this.memoryRows.set(key, row);
    }
    this.builder.counter(row, t, value);
  }

  private counter(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const process = this.builder.process(this.pidOf(buf, offset));
    let base = this.text(buf, f.name);
    if (f.id.kind !== FieldKind.Absent) base = base ? `${base} ${this.text(buf, f.id)}` : this.text(buf, f.id);
    // The usual flat numeric args are read from the bytes; any other shape is parsed as JSON.
    const series = this.counterArgs;
    if (f.argsStart < 0 || !this.fastPath || !readCounterArgs(buf, f.argsStart, f.argsEnd, series)) {
      const args = f.argsStart >= 0 ? this.parseArgs(buf, offset) : undefined;
      series.count = 0;
      if (args) {
        for (const [key, raw] of Object.entries(args)) {
          const at = series.count++;
          series.keys[at] = key;
          series.raw[at] = raw;
          series.isNull[at] = raw === null;
          series.values[at] = raw === null ? NaN : typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
        }
      }
    } else series.raw.length = 0;
    if (series.count === 0) {
      this.budget.report('counter without values', 'warning', `counter event "${base}" has no values in "args"; skipped`, offset);
      return;
    }
    for (let k = 0; k < series.count; k++) {
      const key = series.keys[k];
      const value = series.values[k];
      // null is a sample without a value (what our export writes for an unavailable NVTX counter
      // value): a gap in the row, as in the capture it came from.
      if (series.isNull[k]) this.budget.tally('counter null', 'info', 'counter samples with value null, shown as gaps (no value until the next sample)', offset);
      else if (!Number.isFinite(value)) {
        this.budget.report('counter value not a number', 'warning', `counter "${base}" series "${key}" has a value that is not a finite number (${shortJson(series.raw[k])}); sample skipped`, offset);
        continue;
      }
      // A series named "value" is the counter itself (what our export writes).
      const label = key === 'value' && base ? base : base ? `${base} ${key}` : key;
      const rowKey = `${process}\u0000${label}`;
      let row = this.counterRows.get(rowKey);
      if (row === undefined) {
        row = this.builder.counterRow({ label, process });
        this.counterRows.set(rowKey, row);
      }
      this.builder.counter(row, t, value);
    }
  }

  private asyncEvent(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const t = this.time(offset);
    if (Number.isNaN(t)) return;
    const thread = this.thread(buf, offset);
    const category = this.categoryId(buf);
    if (f.ph === PH.n) {
      this.builder.mark(thread, t, this.eventAttrs(buf), this.at(offset));
      return;
    }
    // Legacy async events pair by name too; nestable ones nest under one id.
    const legacy = f.ph === PH.S || f.ph === PH.F;
    const keyId = legacy ? this.asyncKeyId(buf, offset, true) : this.nestableKeyId(buf, offset, category);
    if (f.ph === PH.b || f.ph === PH.S) {
      const color = this.color(buf);
      const hasArgs = f.argsStart >= 0 && !f.argsEmpty;
      this.asyncRanges.begin(keyId, t, thread, this.nameId(buf), category, color, offset, hasArgs ? buf : undefined, f.argsStart, f.argsEnd);
    } else {
      if (f.argsStart >= 0 && !f.argsEmpty) {
        this.budget.tally('async end args', 'info', 'async end events carry args, which are not shown (only the begin event\'s args are)', offset);
      }
      const name = f.name.kind === FieldKind.Absent ? -1 : this.nameId(buf);
      this.asyncRanges.end(keyId, t, thread, name, offset);
    }
  }

  /** Id of the async key of the event: its bytes (kind, category, scope, id[, name]) looked up whole. */
  private asyncKeyId(buf: Uint8Array, offset: number, legacy: boolean): number {
    const f = this.f;
    const key = this.asyncKey.clear().byte(legacy ? PH.S : PH.b);
    this.keyPart(buf, f.cat);
    this.keyPart(buf, f.scope);
    this.asyncIdPart(buf, offset);
    if (legacy) this.keyPart(buf, f.name);
    return this.asyncRanges.keyId(key);
  }

  /**
   * Id of a nestable event's async key. Keys with no scope and a plain integer id (nearly all)
   * go by (category, integer: decimal, or hexadecimal as Chrome writes ids) instead of their bytes; which way a key goes depends only on its
   * bytes, so the two ways share one numbering (src/import/chrome/asyncIntKeys.ts). The general
   * readers (`fastPath` false) take the bytes for every key: the tests compare the two.
   */
  private nestableKeyId(buf: Uint8Array, offset: number, category: number): number {
    const f = this.f;
    const id = f.id;
    const scope = f.scope;
    const noScope = (scope.kind !== FieldKind.String && scope.kind !== FieldKind.Number) || scope.end === scope.start;
    if (this.fastPath && noScope && (id.kind === FieldKind.String || id.kind === FieldKind.Number)) {
      const code = integerIdCode(buf, id.start, id.end);
      if (code >= 0) {
        // The key's category part is the bytes of a string or number `cat` (`keyPart`); `categoryId` numbers exactly those.
        const cat = f.cat;
        const hasCat = cat.kind === FieldKind.String || cat.kind === FieldKind.Number;
        // Past MAX_INT_KEY_PREFIX categories, those keys take the bytes (a category's number is fixed, so always).
        if (!hasCat || category < MAX_INT_KEY_PREFIX) return this.asyncRanges.intKeyId(hasCat ? category : 0, code, buf, cat.start, hasCat ? cat.end : cat.start);
      }
    }
    return this.asyncKeyId(buf, offset, false);
  }

  private metadata(buf: Uint8Array, offset: number): void {
    const f = this.f;
    const kind = this.text(buf, f.name);
    const args = f.argsStart >= 0 ? this.parseArgs(buf, offset) : undefined;
    switch (kind) {
      case 'process_name':
      case 'thread_name': {
        const name = args?.name;
        if (typeof name !== 'string') {
          this.budget.report('metadata without name', 'warning', `${kind} metadata without a string args.name; ignored`, offset);
          return;
        }
        if (kind === 'process_name') this.builder.process(this.pidOf(buf, offset), name, this.at(offset));
        else {
          this.thread(buf, offset);
          this.builder.thread(this.pid, this.tid, name, this.at(offset));
        }
        return;
      }
      case 'process_sort_index':
      case 'thread_sort_index': {
        const index = args?.sort_index;
        if (typeof index !== 'number') {
          this.budget.report('metadata without sort_index', 'warning', `${kind} metadata without a numeric args.sort_index; ignored`, offset);
          return;
        }
        if (kind === 'process_sort_index') this.builder.processSortIndex(this.pidOf(buf, offset), index);
        else {
          this.thread(buf, offset);
          this.builder.threadSortIndex(this.pid, this.tid, index);
        }
        return;
      }
      default:
        this.budget.tally(`M ${kind}`, 'info', `metadata events "${kind}" not used`, offset);
    }
  }

  // ---------------------------------------------------------------- fields

  /** The reused location object for builder calls. */
  private at(offset: number): { offset: number } {
    this.where.offset = offset;
    return this.where;
  }

  /** The event's time in ns from the decoder's origin, or NaN (reported) when `ts` is missing. */
  private time(offset: number): number {
    const f = this.f;
    if (f.hasTs !== FieldKind.Number) {
      this.budget.report(
        'missing ts',
        'warning',
        `event (ph "${String.fromCharCode(f.ph)}") ${f.hasTs === FieldKind.Absent ? 'without "ts"' : 'with a "ts" that is not a number'}; skipped`,
        offset,
      );
      return NaN;
    }
    if (!(Math.abs(f.ts.us) <= MAX_TS_US)) {
      this.budget.report(
        'ts out of range',
        'warning',
        `event (ph "${String.fromCharCode(f.ph)}") with "ts" ${roughly(f.ts.us)} µs, out of range (beyond ±2^53 µs, 285 years); skipped`,
        offset,
      );
      return NaN;
    }
    if (this.originUs === undefined) this.originUs = f.ts.us;
    return (f.ts.us - this.originUs) * 1000 + f.ts.ns;
  }

  private eventAttrs(buf: Uint8Array): EventAttrs {
    const f = this.f;
    const a = this.attrs;
    a.nameId = this.nameId(buf);
    a.category = this.categoryId(buf);
    a.color = f.cname.kind === FieldKind.Absent ? 0 : this.color(buf);
    a.style = this.styles.styleOf(a.nameId, a.color, a.category);
    if (f.argsStart >= 0 && !f.argsEmpty) {
      const p = this.argsPayload;
      p.bytes = buf;
      p.start = f.argsStart;
      p.end = f.argsEnd;
      a.payload = p;
    } else a.payload = undefined;
    return a;
  }

  private nameId(buf: Uint8Array): number {
    const field = this.f.name;
    if (field.kind === FieldKind.String && !field.escaped) {
      let id = this.names.getHashed(buf, field.start, field.end, field.hash);
      if (id === -1) {
        const text = decodeText(buf, field.start, field.end);
        id = this.builder.intern(text, 'name', this.at(this.eventOffset));
        this.nameTexts.set(id, boundedText(text));
        this.names.set(buf, field.start, field.end, id);
      }
      return id;
    }
    if (field.kind === FieldKind.Absent) return this.emptyName;
    const text = this.text(buf, field);
    const id = this.builder.intern(text, 'name', this.at(this.eventOffset));
    this.nameTexts.set(id, boundedText(text));
    return id;
  }

  /** Whether the event's category is `ac2g` (Kineto's launch → GPU work flow). */
  private isAc2g(buf: Uint8Array): boolean {
    const c = this.f.cat;
    return c.kind === FieldKind.String && c.end - c.start === 4 && buf[c.start] === 0x61 && buf[c.start + 1] === 0x63 && buf[c.start + 2] === 0x32 && buf[c.start + 3] === 0x67;
  }

  /** Synthetic category id of the event's `cat` (named on first use), or 0 without one. */
  private categoryId(buf: Uint8Array): number {
    const field = this.f.cat;
    if (field.kind === FieldKind.Absent || field.end === field.start) return 0;
    let id = field.kind === FieldKind.String && !field.escaped ? this.cats.getHashed(buf, field.start, field.end, field.hash) : this.cats.get(buf, field.start, field.end);
    if (id === -1) {
      const text = this.text(buf, field);
      id = ++this.categoryCount;
      this.builder.nameCategory(0, id, text, this.at(this.eventOffset));
      this.categoryRoles[id] = kinetoRole(text);
      this.cats.set(buf, field.start, field.end, id);
    }
    return id;
  }

  /** ARGB of the event's `cname` (0 when absent or unknown; unknown names are tallied). */
  private color(buf: Uint8Array): number {
    const field = this.f.cname;
    if (field.kind !== FieldKind.String) return 0;
    let known = this.cnames.get(buf, field.start, field.end);
    if (known === -1) {
      const name = this.text(buf, field);
      const color = cnameColor(name);
      known = this.cnameInfo.length;
      this.cnameInfo.push({ color: color ?? 0, unknown: color === undefined ? `events with the unknown color name (cname) "${name}" drawn in the default colors` : undefined });
      this.cnames.set(buf, field.start, field.end, known);
    }
    const info = this.cnameInfo[known];
    if (info.unknown !== undefined) this.budget.tally(info.unknown, 'info', info.unknown, this.eventOffset);
    return info.color;
  }

  /** A field's text: the string's value, or the raw JSON of a number or other value. */
  private text(buf: Uint8Array, field: SpanField): string {
    if (field.kind === FieldKind.Absent) return '';
    if (field.kind === FieldKind.String) {
      return field.escaped ? decodeStringToken(buf, field.start - 1, field.end + 1, true) : decodeText(buf, field.start, field.end);
    }
    return decodeText(buf, field.start, field.end);
  }

  /** `args` as an object (counters, metadata), or undefined (reported). */
  private parseArgs(buf: Uint8Array, offset: number): Record<string, unknown> | undefined {
    const f = this.f;
    const value = parseJson(decodeText(buf, f.argsStart, f.argsEnd));
    if (isPlainObject(value)) return value;
    this.budget.report('args not an object', 'warning', `"args" is not a JSON object; ignored`, offset);
    return undefined;
  }

  /** A string or number field's bytes as a part of the async key (escapes kept as written). */
  private keyPart(buf: Uint8Array, field: SpanField): void {
    if (field.kind === FieldKind.String || field.kind === FieldKind.Number) this.asyncKey.part(buf, field.start, field.end);
    else this.asyncKey.part(buf, 0, 0);
  }

  /** The async id part of the key: `id`, or `id2.global` / `id2.local` (local ids are scoped to the process). */
  private asyncIdPart(buf: Uint8Array, offset: number): void {
    const f = this.f;
    if (f.id.kind === FieldKind.String || f.id.kind === FieldKind.Number) {
      this.asyncKey.part(buf, f.id.start, f.id.end);
      return;
    }
    if (f.id2Start >= 0) {
      const id2 = parseJson(decodeText(buf, f.id2Start, f.id2End));
      if (isPlainObject(id2)) {
        if (id2.global !== undefined) {
          this.asyncKey.text(`global:${String(id2.global)}`);
          return;
        }
        if (id2.local !== undefined) {
          this.asyncKey.text(`local:${this.pidOf(buf, offset)}:${String(id2.local)}`);
          return;
        }
      }
    }
    this.budget.report('async without id', 'warning', `async event (ph "${String.fromCharCode(f.ph)}") without "id" or "id2"; paired by category and name only`, offset);
    this.asyncKey.part(buf, 0, 0);
  }

  // ---------------------------------------------------------------- processes and threads

  private pidOf(buf: Uint8Array, offset: number): number {
    const field = this.f.pid;
    if (field.kind === FieldKind.Number && !Number.isNaN(field.int)) return field.int;
    if (field.kind === FieldKind.Absent || field.kind === FieldKind.Invalid) {
      this.budget.report('missing pid', 'warning', `event without a usable "pid"; put in process 0`, offset);
      return 0;
    }
    const text = this.text(buf, field);
    const n = plainIntegerText(text);
    if (!Number.isNaN(n)) return n;
    let id = this.syntheticIds.get(`p\u0000${text}`);
    if (id === undefined) {
      id = this.nextSynthetic--;
      this.syntheticIds.set(`p\u0000${text}`, id);
      this.builder.process(id, text, this.at(offset));
    }
    return id;
  }

  private tidOf(buf: Uint8Array, pid: number, offset: number): number {
    const field = this.f.tid;
    if (field.kind === FieldKind.Number && !Number.isNaN(field.int)) return field.int;
    if (field.kind === FieldKind.Absent || field.kind === FieldKind.Invalid) {
      this.budget.report('missing tid', 'warning', `event without a usable "tid"; put in thread 0 of its process`, offset);
      return 0;
    }
    const text = this.text(buf, field);
    const n = plainIntegerText(text);
    if (!Number.isNaN(n)) return n;
    const key = `t\u0000${pid}\u0000${text}`;
    let id = this.syntheticIds.get(key);
    if (id === undefined) {
      id = this.nextSynthetic--;
      this.syntheticIds.set(key, id);
      this.builder.thread(pid, id, text, this.at(offset));
    }
    return id;
  }

  /** The builder thread of the current event; also sets `this.pid` / `this.tid`. */
  private thread(buf: Uint8Array, offset: number): number {
    const pid = this.pidOf(buf, offset);
    const tid = this.tidOf(buf, pid, offset);
    this.pid = pid;
    this.tid = tid;
    if (pid === this.lastPid && tid === this.lastTid) return this.lastThread;
    let byTid = this.threadsByPid.get(pid);
    if (!byTid) this.threadsByPid.set(pid, (byTid = new Map()));
    let t = byTid.get(tid);
    if (t === undefined) {
      t = this.builder.thread(pid, tid);
      byTid.set(tid, t);
    }
    this.lastPid = pid;
    this.lastTid = tid;
    this.lastThread = t;
    return t;
  }

  /** A made-up thread holding process- or global-scope instants. */
  private pseudoThread(pid: number, processName: string | undefined, threadName: string): number {
    const key = `i\u0000${pid}`;
    let tid = this.syntheticIds.get(key);
    if (tid === undefined) {
      tid = this.nextSynthetic--;
      this.syntheticIds.set(key, tid);
      if (processName !== undefined) this.builder.process(pid, processName);
      this.builder.thread(pid, tid, threadName);
    }
    return this.builder.thread(pid, tid);
  }

  private syntheticId(key: string): number {
    let id = this.syntheticIds.get(key);
    if (id === undefined) {
      id = this.nextSynthetic--;
      this.syntheticIds.set(key, id);
    }
    return id;
  }

  // ---------------------------------------------------------------- end

  finish(reader: DocumentSummary): void {
    const b = this.builder;
    this.asyncRanges.finish(b, this.budget, (id) => this.nameTexts.get(id) ?? '');
    this.kineto.finish();
    this.pairFlows();
    if (this.flowCount > 0) b.setProperty('chrome.flows', `${this.flowCount} flow arrows`);
    if (this.kineto.apiCalls + this.kineto.gpuOps > 0) {
      b.setProperty('PyTorch profiler CUDA', `${this.kineto.apiCalls} API calls, ${this.kineto.gpuOps} GPU operations, ${this.kineto.ac2gFlows} ac2g flow events`);
    }
    this.budget.flush();
    if (this.originUs !== undefined) {
      const origin = BigInt(this.originUs) * 1000n;
      // Traces of older PyTorch versions write Unix times as they are, beside the base: added to
      // the base, they would land decades later.
      if (this.baseTimeNs !== undefined) b.setClock('UTC', origin >= this.baseTimeNs / 2n ? origin : this.baseTimeNs + origin);
      else b.setClock('Chrome trace clock (µs)', origin);
    }
    if (reader.documentForm) b.setProperty('chrome.form', reader.documentForm === 'array' ? 'JSON array' : 'JSON object (traceEvents)');
    b.setProperty('chrome.events', String(this.eventCount));
    // JSON that is no trace (a cloud tracing export, an execution trace, a list of records) says
    // so, instead of loading as an empty capture.
    if (this.eventCount > 0 && this.phasedCount === 0) {
      b.report('error', `not a Chrome trace: none of the ${this.eventCount} objects of the events array has a "ph" (phase) of the trace event format`, { offset: 0, line: 1 });
    } else if (this.eventCount === 0 && reader.nonObjectElements > 0) {
      b.report('error', `not a Chrome trace: the events array holds ${reader.nonObjectElements} values that are not event objects`, { offset: 0, line: 1 });
    } else if (this.eventCount === 0 && reader.foundEvents) b.report('warning', 'the trace holds no events');
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON.parse, or undefined for text the byte scanner let through but JSON rejects (e.g. "1.2.3"). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function propertyText(v: unknown): string {
  return cut(typeof v === 'string' ? v : JSON.stringify(v));
}

/** A huge whole number for a message: digits accumulated past 2^53 are not exact anyway. */
function roughly(us: number): string {
  return String(Number(us.toPrecision(15)));
}

/** A name as the decoder keeps it beside the model (async pairing): cut like the builder cuts it. */
function boundedText(text: string): string {
  return text.length > MAX_STRING_CHARS ? cutString(text) : text;
}

function cut(s: string): string {
  return s.length > MAX_PROPERTY_CHARS ? `${s.slice(0, MAX_PROPERTY_CHARS)}…` : s;
}

/** A value of parsed `args` for a message (`args` nest at most 512 levels: jsonBytes MAX_DEPTH). */
function shortJson(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

function plainIntegerText(text: string): number {
  return /^-?\d{1,15}$/.test(text) ? Number(text) : NaN;
}

/** Does `head` start (after a BOM and whitespace) like a Chrome trace? Plain JSON is not claimed. */
export function sniffChromeJson(head: Uint8Array): boolean {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  const first = head[i];
  if (first !== 0x5b && first !== 0x7b) return false;
  const text = new TextDecoder('utf-8').decode(head.subarray(i, Math.min(head.length, i + 64 * 1024)));
  if (first === 0x7b) {
    if (/^\{\s*"traceEvents"\s*:/.test(text) || /[{,]\s*"traceEvents"\s*:\s*\[/.test(text)) return true;
    return /"ph"\s*:\s*"/.test(text) && /"(ts|pid)"\s*:/.test(text);
  }
  // Array form: the first element must be an event-like object.
  if (!/^\[\s*\{/.test(text)) return false;
  return /"ph"\s*:\s*"/.test(text) && /"(ts|pid|name)"\s*:/.test(text);
}

/** Decodes a Chrome trace; `fastPath` false reads every event with the general parser (for tests). */
export async function decodeChromeTrace(input: DecodeInput, ctx: DecodeContext, fastPath = true): Promise<void> {
  const decoder = new ChromeTraceDecoder(ctx.builder, fastPath);
  const reader = new TraceDocumentReader(decoder, { keptKeys: KEPT_KEYS });
  for await (const chunk of input.chunks()) {
    if (ctx.signal?.aborted) return;
    reader.push(chunk);
  }
  reader.end();
  decoder.finish(reader);
}

export const chromeImporter: Importer = {
  id: CHROME_FORMAT_ID,
  label: 'Chrome trace JSON',
  extensions: ['json', 'trace'],
  sniff: sniffChromeJson,
  decode: (input: DecodeInput, ctx: DecodeContext) => decodeChromeTrace(input, ctx),
};
