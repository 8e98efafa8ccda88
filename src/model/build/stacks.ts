/**
 * The general path of push/pop rows, at finish: sort a row's push and pop events by time, match
 * them into complete ranges (pop payloads and renames join their range), and close what was never
 * popped at the capture's end. Rows resolved on arrival only close their open ranges.
 */
import { RangeFlag } from '../types.ts';
import { locOf, type IssueLog } from './issues.ts';
import { sortedOrder } from './rowLayout.ts';
import type { PayloadStore } from './payloads.ts';
import type { ProcessTree } from './processTree.ts';
import type { RowEvents, RowMeta } from './rows.ts';
import type { StyleTable } from './styles.ts';

export interface StackContext {
  styles: StyleTable;
  payloads: PayloadStore;
  tree: ProcessTree;
  issues: IssueLog;
}

/** Matches the row's push/pop events (in time order) into complete ranges. */
export function resolveStack(row: RowMeta, captureEnd: number, cx: StackContext): void {
  const ev = row.events;
  const on = row.online;
  if (on) {
    // Resolved on arrival: the pops that had nothing to close are reported (in time order, as the
    // general path meets them), then the ranges still open are closed after everything, innermost first.
    const stray = on.strayPops ?? [];
    for (let s = 0; s < stray.length; s += 3) reportStrayPop(cx, row.thread, stray[s + 1], stray[s + 2]);
    const n = on.count;
    for (let s = on.open.length - 1; s >= 0; s--) {
      const i = on.open[s];
      const start = on.start[i];
      reportNeverPopped(cx, row.thread, start, on.style[i], on.loc[i]);
      on.end[i] = Math.max(captureEnd, start);
    }
    on.unterminated = on.open.splice(0);
    // The row's complete columns take the online ones as they are (thread and flags stay empty:
    // the row's thread, and `unterminated`).
    ev.start.adopt(on.start, n);
    ev.end.adopt(on.end, n);
    ev.style.adopt(on.style, n);
    ev.payload.adopt(on.payload, n);
    ev.loc.adopt(on.loc, n);
    return;
  }
  const n = ev.evT.length;
  if (n === 0) return;
  const order = sortedOrder(ev.evT.view());
  // Each push becomes one range: room for them all at once instead of doubling at finish.
  let pushes = 0;
  const isPush = ev.evPush.view();
  for (let i = 0; i < n; i++) pushes += isPush[i];
  const ranges = ev.start.length + pushes;
  for (const column of [ev.start, ev.end, ev.style, ev.payload, ev.thread, ev.flags, ev.loc, ev.rankOpen, ev.rankClose]) column.reserve(ranges);
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
      reportStrayPop(cx, thread, t, ev.evLoc.get(i));
      continue;
    }
    const popPayload = ev.evPayload.get(i);
    if (popPayload >= 0) {
      ev.evPayload.set(open, cx.payloads.joinEnd(ev.evPayload.get(open), popPayload, locOf(ev.evLoc.get(i))));
    }
    const rename = ev.evRename?.get(i);
    if (rename) ev.evStyle.set(open, cx.styles.restyle(ev.evStyle.get(open), rename));
    pushComplete(ev, ev.evT.get(open), t, open, thread, 0);
    ev.rankOpen.push(openRank);
    ev.rankClose.push(k);
  }
  for (let s = stack.length - 1; s >= 0; s--) {
    const open = stack[s];
    reportNeverPopped(cx, thread, ev.evT.get(open), ev.evStyle.get(open), ev.evLoc.get(open));
    pushComplete(ev, ev.evT.get(open), Math.max(captureEnd, ev.evT.get(open)), open, thread, RangeFlag.Unterminated);
    // Closed after everything, innermost first.
    ev.rankOpen.push(stackRank[s]);
    ev.rankClose.push(n + stack.length - s);
  }
}

function reportStrayPop(cx: StackContext, thread: number, t: number, loc: number): void {
  cx.issues.report('warning', `pop with no open range on thread ${cx.tree.threadLabel(thread)} at ${t} ns; ignored`, {
    ...locOf(loc),
    kind: 'pop-without-push',
    timeNs: t,
    thread,
  });
}

function reportNeverPopped(cx: StackContext, thread: number, t: number, style: number, loc: number): void {
  cx.issues.report(
    'warning',
    `range "${cx.styles.nameOf(style)}" pushed on thread ${cx.tree.threadLabel(thread)} at ${t} ns is never popped; closed at the end of the capture`,
    { ...locOf(loc), kind: 'never-popped', timeNs: t, thread },
  );
}

function pushComplete(ev: RowEvents, start: number, end: number, evIndex: number, thread: number, flags: number): void {
  ev.start.push(start);
  ev.end.push(end);
  ev.style.push(ev.evStyle.get(evIndex));
  ev.payload.push(ev.evPayload.get(evIndex));
  ev.thread.push(thread);
  ev.flags.push(flags);
  ev.loc.push(ev.evLoc.get(evIndex));
}
