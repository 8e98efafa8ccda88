/**
 * Events into rows: push/pop (resolved on arrival while they come in time order), complete
 * ranges, start/end ranges by id, marks, counter samples and custom-row ranges. Owns the open
 * start/end ranges and the first and last time seen.
 */
import { f64, i32, type Growable } from '../growable.ts';
import { RangeFlag } from '../types.ts';
import type { EventAttrs, PayloadValue, RangeRename, SourceLocation } from './inputs.ts';
import { locCode, locOf, type IssueLog } from './issues.ts';
import { OpenStartEnds } from './openStartEnds.ts';
import type { PayloadStore } from './payloads.ts';
import type { ProcessTree } from './processTree.ts';
import { replayOnline, type RowMeta, type RowTable } from './rows.ts';
import type { StyleTable } from './styles.ts';

export class EventRecorder {
  private readonly openStartEnd = new OpenStartEnds();
  /** Earliest and latest time of any event, in the decoder's ns. */
  minT = Infinity;
  maxT = -Infinity;

  constructor(
    private readonly rows: RowTable,
    private readonly tree: ProcessTree,
    private readonly styles: StyleTable,
    private readonly payloads: PayloadStore,
    private readonly issues: IssueLog,
  ) {}

  push(thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    this.pushStyled(thread, tNs, attrs.domain ?? 0, this.styles.styleOf(attrs), attrs.payload, locCode(where));
  }

  /** `push` with its style resolved and its location as a `locCode`. */
  pushStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined, loc: number): void {
    const row = this.rows.stackRow(thread, domain);
    const on = row.online;
    if (on !== undefined) {
      if (tNs >= on.lastT) {
        on.lastT = tNs;
        on.push(tNs, style, this.payloads.rowOf(payload), loc);
        this.seeTime(tNs);
        return;
      }
      replayOnline(row);
    }
    const ev = row.events;
    ev.evT.push(tNs);
    ev.evPush.push(1);
    ev.evStyle.push(style);
    ev.evPayload.push(this.payloads.rowOf(payload));
    ev.evLoc.push(loc);
    this.seeTime(tNs);
  }

  pop(thread: number, tNs: number, domain: number, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    if (payload === undefined && rename === undefined) return this.popPlain(thread, tNs, domain, locCode(where));
    const row = this.rows.stackRow(thread, domain);
    if (row.online !== undefined) replayOnline(row);
    this.popEvent(row, tNs, payload, rename, locCode(where));
  }

  /** `pop` without a payload or a rename, its location as a `locCode`. */
  popPlain(thread: number, tNs: number, domain: number, loc: number): void {
    const row = this.rows.stackRow(thread, domain);
    const on = row.online;
    if (on !== undefined) {
      if (tNs >= on.lastT) {
        on.lastT = tNs;
        on.pop(tNs, loc);
        this.seeTime(tNs);
        return;
      }
      replayOnline(row);
    }
    this.popEvent(row, tNs, undefined, undefined, loc);
  }

  /** A pop into a row on the general path (its events, sorted and replayed at finish). */
  private popEvent(row: RowMeta, tNs: number, payload: PayloadValue | undefined, rename: RangeRename | undefined, loc: number): void {
    const ev = row.events;
    if (rename && (rename.name !== undefined || rename.color !== undefined)) (ev.evRename ??= new Map()).set(ev.evT.length, rename);
    ev.evT.push(tNs);
    ev.evPush.push(0);
    ev.evStyle.push(0);
    ev.evPayload.push(this.payloads.rowOf(payload));
    ev.evLoc.push(loc);
    this.seeTime(tNs);
  }

  range(thread: number, startNs: number, endNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    const row = this.rows.stackRow(thread, attrs.domain ?? 0);
    this.addComplete(row, thread, startNs, endNs, attrs, where);
  }

  startEnd(thread: number, startNs: number, endNs: number, attrs: EventAttrs, endThread?: number, where?: SourceLocation): void {
    const domain = attrs.domain ?? 0;
    const category = this.tree.category(domain, attrs.category ?? 0);
    const row = this.rows.categoryRow(this.tree.threads[thread].process, domain, category);
    const index = this.addComplete(row, thread, startNs, endNs, attrs, where);
    if (endThread !== undefined && endThread !== thread) {
      row.events.flags.set(index, row.events.flags.get(index) | RangeFlag.CrossThread);
      (row.cross ??= []).push(index, endThread);
    }
  }

  rangeStart(key: string | number, thread: number, tNs: number, attrs: EventAttrs, where?: SourceLocation): void {
    if (this.openStartEnd.has(key)) {
      this.issues.report('warning', `range id ${String(key)} started again while still open; the first start is kept`, {
        ...where,
        kind: 'start-while-open',
        timeNs: tNs,
        thread,
      });
      return;
    }
    const domain = attrs.domain ?? 0;
    const open = this.openStartEnd;
    const slot = open.open(key);
    open.thread[slot] = thread;
    open.t[slot] = tNs;
    open.style[slot] = this.styles.styleOf(attrs);
    open.payload[slot] = this.payloads.rowOf(attrs.payload);
    open.loc[slot] = locCode(where);
    open.category[slot] = this.tree.category(domain, attrs.category ?? 0);
    open.domain[slot] = domain;
    this.seeTime(tNs);
  }

  rangeEnd(key: string | number, thread: number, tNs: number, where?: SourceLocation, payload?: PayloadValue, rename?: RangeRename): void {
    const open = this.openStartEnd;
    const slot = open.close(key);
    this.seeTime(tNs);
    if (slot < 0) {
      this.issues.report('warning', `range id ${String(key)} ended but is not open (never started, or ended twice)`, {
        ...where,
        kind: 'end-without-start',
        timeNs: tNs,
        thread,
      });
      return;
    }
    let joined = open.payload[slot];
    if (payload) joined = this.payloads.joinEnd(joined, this.payloads.rowOf(payload), where);
    const style = rename ? this.styles.restyle(open.style[slot], rename) : open.style[slot];
    this.closeStartEnd(slot, style, joined, tNs, thread, 0);
  }

  /** Closes the start/end ranges still open at `lastT` (the capture's end), reporting each. */
  closeOpenStartEnd(lastT: number): void {
    const open = this.openStartEnd;
    for (const [key, slot] of open.entries()) {
      this.issues.report('warning', `start/end range id ${String(key)} never ended; closed at the end of the capture`, {
        ...locOf(open.loc[slot]),
        kind: 'never-ended',
        timeNs: open.t[slot],
        thread: open.thread[slot],
      });
      this.closeStartEnd(slot, open.style[slot], open.payload[slot], Math.max(lastT, open.t[slot]), open.thread[slot], RangeFlag.Unterminated);
    }
    open.clear();
  }

  mark(thread: number, tNs: number, attrs: EventAttrs): void {
    this.markStyled(thread, tNs, attrs.domain ?? 0, this.styles.styleOf(attrs), attrs.payload);
  }

  /** `mark` with its style resolved. */
  markStyled(thread: number, tNs: number, domain: number, style: number, payload: PayloadValue | undefined): void {
    const rowIndex = this.rows.marksRow(thread);
    const row = this.rows.rows[rowIndex];
    row.markT!.push(tNs);
    row.markStyle!.push(style);
    row.markPayload!.push(this.payloads.rowOf(payload));
    this.seeTime(tNs);
    const category = this.styles.categoryOf(style);
    if (category !== -1) {
      const refs = this.rows.markRefsOf(this.rows.categoryRow(this.tree.threads[thread].process, domain, category));
      refs.push(row.markT!.length - 1);
      refs.push(rowIndex);
    }
  }

  rowMark(row: number, tNs: number, attrs: EventAttrs): void {
    const r = this.rows.rows[row];
    r.markT!.push(tNs);
    r.markStyle!.push(this.styles.styleOf(attrs));
    r.markPayload!.push(this.payloads.rowOf(attrs.payload));
    this.seeTime(tNs);
  }

  counter(row: number, tNs: number, value: number): void {
    const r = this.rows.rows[row];
    r.counterT!.push(tNs);
    r.counterV!.push(value);
    this.seeTime(tNs);
  }

  rowRange(row: number, startNs: number, endNs: number, attrs: EventAttrs, thread: number, correlation?: number): void {
    const meta = this.rows.rows[row];
    const index = this.addComplete(meta, thread, startNs, endNs, attrs);
    if (correlation === undefined || Number.isNaN(correlation)) return;
    const corr = (meta.corr ??= f64());
    while (corr.length < index) corr.push(NaN);
    corr.push(correlation);
  }

  /** Flow arrows between points of two threads (Chrome flow events), in decoder ns; see `Model.flows`. */
  flowPoints?: { fromThread: Growable<Int32Array>; fromNs: Growable<Float64Array>; toThread: Growable<Int32Array>; toNs: Growable<Float64Array> };

  flow(fromThread: number, fromNs: number, toThread: number, toNs: number): void {
    const f = (this.flowPoints ??= { fromThread: i32(), fromNs: f64(), toThread: i32(), toNs: f64() });
    f.fromThread.push(fromThread);
    f.fromNs.push(fromNs);
    f.toThread.push(toThread);
    f.toNs.push(toNs);
    this.seeTime(fromNs);
    this.seeTime(toNs);
  }

  /** The payload row of a range written past the recorder (`ModelBuilder.directPayloadRow`). */
  payloadRow(payload: PayloadValue): number {
    return this.payloads.rowOf(payload);
  }

  /** The first and last times of events written past the recorder (`ModelBuilder.directStack`). */
  sawTimes(firstNs: number, lastNs: number): void {
    this.seeTime(firstNs);
    this.seeTime(lastNs);
  }

  private seeTime(t: number): void {
    if (t < this.minT) this.minT = t;
    if (t > this.maxT) this.maxT = t;
  }

  private addComplete(row: RowMeta, thread: number, startNs: number, endNs: number, attrs: EventAttrs, where?: SourceLocation): number {
    let end = endNs;
    const style = this.styles.styleOf(attrs);
    if (end < startNs) {
      const name = this.styles.nameOf(style);
      this.issues.report('warning', `range "${name}" on thread ${this.tree.threadLabel(thread)} ends (${endNs}) before it starts (${startNs}); drawn with zero length`, where);
      end = startNs;
    }
    if (row.online) replayOnline(row);
    const ev = row.events;
    ev.start.push(startNs);
    ev.end.push(end);
    ev.style.push(style);
    ev.payload.push(this.payloads.rowOf(attrs.payload));
    ev.thread.push(thread);
    ev.flags.push(0);
    ev.loc.push(locCode(where));
    this.seeTime(startNs);
    this.seeTime(end);
    return ev.start.length - 1;
  }

  /** Adds the start/end range of open slot `slot` (with its style and payload as they are now), ended at `tNs` on `endThread`. */
  private closeStartEnd(slot: number, style: number, payload: number, tNs: number, endThread: number, flags: number): void {
    const open = this.openStartEnd;
    const thread = open.thread[slot];
    const t = open.t[slot];
    const row = this.rows.categoryRow(this.tree.threads[thread].process, open.domain[slot], open.category[slot]);
    const ev = row.events;
    let end = tNs;
    if (end < t) {
      this.issues.report('warning', `start/end range "${this.styles.nameOf(style)}" ends (${tNs}) before it starts (${t}); drawn with zero length`, locOf(open.loc[slot]));
      end = t;
    }
    ev.start.push(t);
    ev.end.push(end);
    ev.style.push(style);
    ev.payload.push(payload);
    ev.thread.push(thread);
    const cross = endThread !== thread && flags === 0;
    ev.flags.push(flags | (cross ? RangeFlag.CrossThread : 0));
    ev.loc.push(open.loc[slot]);
    if (cross) (row.cross ??= []).push(ev.start.length - 1, endThread);
  }
}
