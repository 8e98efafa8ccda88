/**
 * Row storage while building: one row per future track (a thread's push/pop stack in a domain, a
 * process's category row, marks, counters, custom rows), each keeping its events in arrival order
 * in growable columns, and the caches that find a row in the hot paths without a string key.
 */
import { f64, grownCapacity, i32, u32, u8, type Growable, type GrowthPlan } from '../growable.ts';
import type { CounterTrackInfo, ObjectRef, TrackKind } from '../types.ts';
import { keyPacking, NO_KEY } from './cacheKey.ts';
import type { RangeRename } from './inputs.ts';
import type { ProcessTree } from './processTree.ts';

/** Events of one row, in arrival order. */
export class RowEvents {
  // Complete ranges.
  readonly start: Growable<Float64Array>;
  readonly end: Growable<Float64Array>;
  readonly style: Growable<Uint32Array>;
  readonly payload: Growable<Int32Array>;
  /** Empty in a row resolved on arrival (`OnlineStack`): its ranges are all on the row's thread. */
  readonly thread: Growable<Int32Array>;
  /** Empty in a row resolved on arrival: its only flag is `OnlineStack.unterminated`'s. */
  readonly flags: Growable<Uint8Array>;
  readonly loc: Growable<Float64Array>;
  // Push/pop events (stack rows only): time, +1 push / 0 pop, style, payload, location.
  readonly evT: Growable<Float64Array>;
  readonly evPush: Growable<Uint8Array>;
  readonly evStyle: Growable<Uint32Array>;
  readonly evPayload: Growable<Int32Array>;
  readonly evLoc: Growable<Float64Array>;
  // Ranges made from push/pop events: where their push and pop sit in the time-sorted event
  // stream, which settles nesting when timestamps tie.
  readonly rankOpen: Growable<Float64Array>;
  readonly rankClose: Growable<Float64Array>;
  // Pop events that rename their range: event index -> new message/color.
  evRename?: Map<number, RangeRename>;

  constructor(plan?: GrowthPlan) {
    this.start = f64(64, plan);
    this.end = f64(64, plan);
    this.style = u32(64, plan);
    this.payload = i32(64, plan);
    this.thread = i32(64, plan);
    this.flags = u8(64, plan);
    this.loc = f64(64, plan);
    this.evT = f64(64, plan);
    this.evPush = u8(64, plan);
    this.evStyle = u32(64, plan);
    this.evPayload = i32(64, plan);
    this.evLoc = f64(64, plan);
    this.rankOpen = f64(64, plan);
    this.rankClose = f64(64, plan);
  }
}

/**
 * A push/pop row whose events have all come in time order so far: each push becomes a range at
 * once (in push order) with its depth and parent, and each pop closes the innermost open one (a
 * pop with nothing open is kept aside, to be reported at finish as the general path does). That is
 * what sorting the events and replaying them would give, without keeping the events. The first
 * event that breaks the order (or a pop with a payload or a rename, or a complete range on the
 * row) turns the row back into its events (`replayOnline`) and the general path takes over.
 *
 * The ranges' columns share one length and one capacity (one check per push instead of one per
 * column), and hold only what differs per range: the thread is the row's, the flags are 0 until
 * finish (`resolveStack` hands the columns to the row's `RowEvents` without copying them).
 */
export class OnlineStack {
  lastT = -Infinity;
  /** Ranges pushed so far: the filled length of every column below. */
  count = 0;
  /** Per range (push order): push time. */
  start = new Float64Array(INITIAL_CAPACITY);
  /** Per range: pop time; not written (0) while the range is open. */
  end = new Float64Array(INITIAL_CAPACITY);
  /** Per range: location code of its push. */
  loc = new Float64Array(INITIAL_CAPACITY);
  /** Per range: location code of its pop; not written while the range is open. */
  endLoc = new Float64Array(INITIAL_CAPACITY);
  style = new Uint32Array(INITIAL_CAPACITY);
  payload = new Int32Array(INITIAL_CAPACITY);
  /** Per range: stack depth at its push (unbounded: the layout drops what is too deep). */
  depth = new Uint32Array(INITIAL_CAPACITY);
  /**
   * Per range: where its parent lies among the ranges one level up (the number of ranges pushed at
   * that depth before the parent); -1 at depth 0. The parent is the range last pushed at that
   * depth, so this is known at the push, and at finish the parent's model index follows without
   * a table from row-local to model indexes.
   */
  parentRank = new Int32Array(INITIAL_CAPACITY);
  /** Ranges pushed so far at each depth. */
  readonly levelCounts: number[] = [];
  /** Row-local indices of the open ranges, innermost last. */
  readonly open: number[] = [];
  /**
   * Pops that came with nothing open (the general path ignores them with a warning at finish):
   * triples (ranges pushed before it, time, location), in arrival order.
   */
  strayPops?: number[];
  /** Set at finish (`resolveStack`): the ranges that were still open, closed at the capture's end. */
  unterminated?: number[];

  constructor(private readonly plan?: GrowthPlan) {}

  /** A range pushed at `t`, inside the innermost open one. */
  push(t: number, style: number, payload: number, loc: number): void {
    const i = this.count;
    if (i === this.start.length) this.grow();
    const open = this.open;
    const d = open.length;
    this.start[i] = t;
    this.style[i] = style;
    this.payload[i] = payload;
    this.loc[i] = loc;
    this.depth[i] = d;
    const counts = this.levelCounts;
    this.parentRank[i] = d > 0 ? counts[d - 1] - 1 : -1;
    // A range at depth d lies inside one at d - 1, already counted: d <= counts.length.
    if (d === counts.length) counts.push(1);
    else counts[d]++;
    open.push(i);
    this.count = i + 1;
  }

  /**
   * The innermost open range closed at `t`; with nothing open (e.g. the capture began inside a
   * range) the pop is kept to be reported at finish, as the general path reports it, instead of
   * leaving the fast path for the rest of the row.
   */
  pop(t: number, loc: number): void {
    const open = this.open;
    if (open.length > 0) {
      const i = open.pop()!;
      this.end[i] = t;
      this.endLoc[i] = loc;
    } else {
      (this.strayPops ??= []).push(this.count, t, loc);
    }
  }

  private grow(): void {
    const capacity = grownCapacity(this.start.length, this.plan);
    const n = this.count;
    this.start = grownTo(this.start, new Float64Array(capacity), n);
    this.end = grownTo(this.end, new Float64Array(capacity), n);
    this.loc = grownTo(this.loc, new Float64Array(capacity), n);
    this.endLoc = grownTo(this.endLoc, new Float64Array(capacity), n);
    this.style = grownTo(this.style, new Uint32Array(capacity), n);
    this.payload = grownTo(this.payload, new Int32Array(capacity), n);
    this.depth = grownTo(this.depth, new Uint32Array(capacity), n);
    this.parentRank = grownTo(this.parentRank, new Int32Array(capacity), n);
  }
}

const INITIAL_CAPACITY = 64;

function grownTo<T extends Float64Array | Uint32Array | Int32Array>(from: T, to: T, n: number): T {
  to.set(from.subarray(0, n));
  return to;
}

export interface RowMeta {
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
  objects?: ObjectRef[];
  // marks rows
  markT?: Growable<Float64Array>;
  markStyle?: Growable<Uint32Array>;
  markPayload?: Growable<Int32Array>;
  /** Category rows: pairs (mark position in its marks row, marks row index) of the marks shown by reference. */
  markRefs?: Growable<Int32Array>;
  // counter rows
  counterT?: Growable<Float64Array>;
  counterV?: Growable<Float64Array>;
  /** Correlation ids of custom-row ranges by position in the row (NaN = none); may be shorter than the row. */
  corr?: Growable<Float64Array>;
  /** Ranges that end on another thread: pairs (range position in row, end thread). */
  cross?: number[];
}

/** Processes and domains below this, and categories below `SMALL_CATEGORY`, find their category rows in arrays. */
const SMALL_INDEX = 1024;
const SMALL_CATEGORY = 1 << 16;

/** Stack row cache key: (domain, thread). */
const STACK_ROW_KEY = keyPacking(21, 32);
/** Category row cache key: (process + 1, domain, category + 1). */
const CATEGORY_ROW_KEY = keyPacking(20, 16, 17);

/** Options of a row outside the per-thread ones. */
interface RowPlace {
  label: string;
  process: number;
  thread?: number;
  path?: string[];
}

export class RowTable {
  readonly rows: RowMeta[] = [];
  private readonly ids = new Map<string, number>();
  private readonly stackRowCache = new Map<number, RowMeta>();
  private readonly defaultStackRows: RowMeta[] = [];
  /** Thread -> its marks row (an array: threads are small dense indices). */
  private readonly marksRowCache: number[] = [];
  private readonly categoryRowCache = new Map<number, RowMeta>();
  /** `categoryRow` by process, domain and category + 1, while these are small (dense arrays, no holes). */
  private readonly categoryRowsByIndex: (((RowMeta | undefined)[] | undefined)[] | undefined)[] = [];

  /**
   * @param growth how far into its file the builder is, shared with every column of every row
   *   (`GrowthPlan`): columns of a large file grow toward their projected size.
   */
  constructor(
    private readonly tree: ProcessTree,
    private readonly growth?: GrowthPlan,
  ) {}

  /** Index of the row with this key, made from `meta` on first use. */
  private rowIndex(key: string, meta: Omit<RowMeta, 'events'>): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.rows.length;
      this.rows.push({ ...meta, events: new RowEvents(this.growth) });
      this.ids.set(key, id);
    }
    return id;
  }

  /** The thread's default-domain push/pop row if one was made (this makes none). */
  madeDefaultStackRow(thread: number): RowMeta | undefined {
    return thread < this.defaultStackRows.length ? this.defaultStackRows[thread] : undefined;
  }

  /** The push/pop row of a thread in a domain; new rows start resolved on arrival. */
  stackRow(thread: number, domain: number): RowMeta {
    // Caches in front of the string-keyed row table, which this runs once per event: an array for
    // the default domain, a numeric map for the others.
    if (domain === 0) {
      const row = this.defaultStackRows[thread];
      if (row !== undefined) return row;
    }
    const cacheKey = STACK_ROW_KEY.pack(domain, thread);
    if (cacheKey !== NO_KEY) {
      const cached = this.stackRowCache.get(cacheKey);
      if (cached) return cached;
    }
    const t = this.tree.threads[thread];
    const row = this.rows[
      this.rowIndex(`pushpop:${thread}:${domain}`, {
        kind: 'pushpop',
        layout: 'stack',
        label: 'Push/Pop',
        process: t.process,
        thread,
        domain,
        category: -1,
        path: [],
      })
    ];
    if (row.events.start.length === 0 && row.events.evT.length === 0) row.online ??= new OnlineStack(this.growth);
    if (cacheKey !== NO_KEY) this.stackRowCache.set(cacheKey, row);
    if (domain === 0) this.defaultStackRows[thread] = row;
    return row;
  }

  /** Index of the thread's marks row. */
  marksRow(thread: number): number {
    const cached = this.marksRowCache[thread];
    if (cached !== undefined) return cached;
    const t = this.tree.threads[thread];
    const id = this.rowIndex(`marks:${thread}`, {
      kind: 'marks',
      layout: 'stack',
      label: 'Marks',
      process: t.process,
      thread,
      domain: -1,
      category: -1,
      path: [],
    });
    withMarkColumns(this.rows[id], this.growth);
    this.marksRowCache[thread] = id;
    return id;
  }

  /** The start/end row of a category in a domain of a process. */
  categoryRow(process: number, domain: number, category: number): RowMeta {
    // Every mark with a category and every start/end range asks for one: small indices look it
    // up in arrays, not the keyed map (whose 53-bit keys are heap numbers to hash).
    const small = process >= 0 && process < SMALL_INDEX && domain >= 0 && domain < SMALL_INDEX && category >= -1 && category < SMALL_CATEGORY;
    if (small) {
      const byProcess = this.categoryRowsByIndex;
      const byDomain = process < byProcess.length ? byProcess[process] : undefined;
      const byCategory = byDomain !== undefined && domain < byDomain.length ? byDomain[domain] : undefined;
      const row = byCategory !== undefined && category + 1 < byCategory.length ? byCategory[category + 1] : undefined;
      if (row !== undefined) return row;
    }
    const row = this.keyedCategoryRow(process, domain, category);
    if (small) {
      const byProcess = this.categoryRowsByIndex;
      while (byProcess.length <= process) byProcess.push(undefined);
      const byDomain = (byProcess[process] ??= []);
      while (byDomain.length <= domain) byDomain.push(undefined);
      const byCategory = (byDomain[domain] ??= []);
      while (byCategory.length <= category + 1) byCategory.push(undefined);
      byCategory[category + 1] = row;
    }
    return row;
  }

  private keyedCategoryRow(process: number, domain: number, category: number): RowMeta {
    const cacheKey = CATEGORY_ROW_KEY.pack(process + 1, domain, category + 1);
    if (cacheKey !== NO_KEY) {
      const cached = this.categoryRowCache.get(cacheKey);
      if (cached) return cached;
    }
    const row = this.rows[
      this.rowIndex(`category:${process}:${domain}:${category}`, {
        kind: 'category',
        layout: 'lanes',
        label: '',
        process,
        thread: -1,
        domain,
        category,
        path: [],
      })
    ];
    if (cacheKey !== NO_KEY) this.categoryRowCache.set(cacheKey, row);
    return row;
  }

  /** A marks row outside the per-thread ones, under `path` of the process (or thread) node. */
  markRow(options: RowPlace): number {
    const id = this.placedRow('marksrow', options, { kind: 'marks', layout: 'stack' });
    withMarkColumns(this.rows[id], this.growth);
    return id;
  }

  /** A category row's mark references (`RowMeta.markRefs`), made on first use. */
  markRefsOf(row: RowMeta): Growable<Int32Array> {
    return (row.markRefs ??= i32(64, this.growth));
  }

  /** A counter row. */
  counterRow(options: RowPlace & { unit?: string; counter?: CounterTrackInfo }): number {
    const id = this.placedRow('counter', options, { kind: 'counter', layout: 'stack', unit: options.unit, counter: options.counter });
    const row = this.rows[id];
    row.counterT ??= f64(64, this.growth);
    row.counterV ??= f64(64, this.growth);
    return id;
  }

  /** A custom range row (API calls stacked per thread, GPU work packed in lanes). */
  customRow(options: RowPlace & { kind: Extract<TrackKind, 'api' | 'gpu'>; layout?: 'stack' | 'lanes'; objects?: ObjectRef[] }): number {
    return this.placedRow(options.kind, options, {
      kind: options.kind,
      layout: options.layout ?? (options.kind === 'gpu' ? 'lanes' : 'stack'),
      objects: options.objects,
    });
  }

  private placedRow(keyKind: string, place: RowPlace, meta: Pick<RowMeta, 'kind' | 'layout' | 'unit' | 'counter' | 'objects'>): number {
    const path = place.path ?? [];
    const key = `${keyKind}\u0000${place.process}\u0000${place.thread ?? -1}\u0000${path.join('\u0000')}\u0000${place.label}`;
    return this.rowIndex(key, {
      ...meta,
      label: place.label,
      process: place.process,
      thread: place.thread ?? -1,
      domain: -1,
      category: -1,
      path,
    });
  }
}

function withMarkColumns(row: RowMeta, plan: GrowthPlan | undefined): void {
  row.markT ??= f64(64, plan);
  row.markStyle ??= u32(64, plan);
  row.markPayload ??= i32(64, plan);
}

/**
 * Turns a row resolved on arrival back into its push and pop events, in arrival order: before
 * each push, pops close the innermost ranges down to that push's depth; after the last push,
 * the ranges closed since. Then the row takes the general path, exactly as if it had never been
 * resolved on arrival (its complete columns were never written while it was).
 */
export function replayOnline(row: RowMeta): void {
  const on = row.online!;
  row.online = undefined;
  const ev = row.events;
  const n = on.count;
  // A push per range, a pop per closed one, and the pops that had nothing to close.
  const events = ev.evT.length + 2 * n - on.open.length + (on.strayPops?.length ?? 0) / 3;
  for (const column of [ev.evT, ev.evPush, ev.evStyle, ev.evPayload, ev.evLoc]) column.reserve(events);
  const stack: number[] = [];
  const pop = (i: number) => {
    ev.evT.push(on.end[i]);
    ev.evPush.push(0);
    ev.evStyle.push(0);
    ev.evPayload.push(-1);
    ev.evLoc.push(on.endLoc[i]);
  };
  const stray = on.strayPops ?? [];
  let s = 0;
  // Pops with nothing open came when every range pushed before them was closed.
  const strayPopsBefore = (pushed: number) => {
    for (; s < stray.length && stray[s] === pushed; s += 3) {
      ev.evT.push(stray[s + 1]);
      ev.evPush.push(0);
      ev.evStyle.push(0);
      ev.evPayload.push(-1);
      ev.evLoc.push(stray[s + 2]);
    }
  };
  for (let i = 0; i < n; i++) {
    const depth = on.depth[i];
    while (stack.length > depth) pop(stack.pop()!);
    strayPopsBefore(i);
    ev.evT.push(on.start[i]);
    ev.evPush.push(1);
    ev.evStyle.push(on.style[i]);
    ev.evPayload.push(on.payload[i]);
    ev.evLoc.push(on.loc[i]);
    stack.push(i);
  }
  while (stack.length > on.open.length) pop(stack.pop()!);
  strayPopsBefore(n);
}
