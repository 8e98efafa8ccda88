/**
 * Async events (nestable b/e and legacy S/F) pair up by key (category + id, plus scope), not by
 * thread, and a trace may list them in any order. They are collected in columns, sorted by key and
 * time once the file is read, and matched with a stack per key: an end closes the innermost open
 * begin of the same name (or the innermost one when the end has no name). Pairs become start/end
 * ranges of the process's category row (the builder packs them into lanes).
 */
import type { EventAttrs, ModelBuilder } from '../../model/builder.ts';
import { PayloadType } from '../../model/types.ts';
import type { IssueBudget } from './issueBudget.ts';

export class AsyncRangeMatcher {
  private readonly keyIds = new Map<string, number>();
  private readonly keyText: string[] = [];
  private readonly key: number[] = [];
  private readonly time: number[] = [];
  private readonly isEnd: boolean[] = [];
  /** StringId of the name, or -1 for an end without a name. */
  private readonly name: number[] = [];
  private readonly category: number[] = [];
  private readonly thread: number[] = [];
  private readonly color: number[] = [];
  /** Index into `args`, or -1. */
  private readonly payload: number[] = [];
  private readonly offset: number[] = [];
  private readonly args: string[] = [];

  get size(): number {
    return this.key.length;
  }

  begin(key: string, tNs: number, thread: number, name: number, category: number, color: number, args: string | undefined, offset: number): void {
    this.add(key, tNs, false, thread, name, category, color, offset);
    if (args !== undefined) {
      this.payload[this.payload.length - 1] = this.args.length;
      this.args.push(args);
    }
  }

  end(key: string, tNs: number, thread: number, name: number, offset: number): void {
    this.add(key, tNs, true, thread, name, 0, 0, offset);
  }

  private add(key: string, tNs: number, isEnd: boolean, thread: number, name: number, category: number, color: number, offset: number): void {
    let k = this.keyIds.get(key);
    if (k === undefined) {
      k = this.keyText.length;
      this.keyIds.set(key, k);
      this.keyText.push(key);
    }
    this.key.push(k);
    this.time.push(tNs);
    this.isEnd.push(isEnd);
    this.name.push(name);
    this.category.push(category);
    this.thread.push(thread);
    this.color.push(color);
    this.payload.push(-1);
    this.offset.push(offset);
  }

  /** Matches everything collected and hands the ranges to the builder. */
  finish(builder: ModelBuilder, budget: IssueBudget, nameText: (id: number) => string): void {
    const n = this.key.length;
    if (n === 0) return;
    const { key, time } = this;
    const order = Uint32Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => key[a] - key[b] || time[a] - time[b] || a - b);
    const open: number[] = [];
    let unterminated = 0;
    for (let g = 0; g < n; ) {
      const k = key[order[g]];
      open.length = 0;
      for (; g < n && key[order[g]] === k; g++) {
        const i = order[g];
        if (!this.isEnd[i]) {
          open.push(i);
          continue;
        }
        if (open.length === 0) {
          budget.report('async end without begin', 'warning', `async end "${nameText(this.name[i])}" (${describeKey(this.keyText[k])}) has no open begin; ignored`, this.offset[i]);
          continue;
        }
        let at = open.length - 1;
        const name = this.name[i];
        if (name >= 0 && this.name[open[at]] !== name) {
          for (let s = at - 1; s >= 0; s--) {
            if (this.name[open[s]] === name) {
              at = s;
              break;
            }
          }
        }
        const b = open[at];
        open.splice(at, 1);
        builder.startEnd(this.thread[b], time[b], time[i], this.attrs(b), this.thread[i], { offset: this.offset[b] });
      }
      // Still open at the end: the builder closes them at the capture end and reports each.
      for (const b of open) {
        builder.rangeStart(`chrome async ${unterminated++}`, this.thread[b], time[b], this.attrs(b), { offset: this.offset[b] });
      }
    }
  }

  private attrs(i: number): EventAttrs {
    const p = this.payload[i];
    return {
      nameId: this.name[i],
      category: this.category[i],
      color: this.color[i],
      payload: p >= 0 ? { type: PayloadType.Json, value: this.args[p] } : undefined,
    };
  }
}

function describeKey(key: string): string {
  const [kind, cat, scope, id] = key.split('\u0000');
  const parts = [`${kind === 'S' ? 'legacy async' : 'async'} id ${id}`];
  if (cat) parts.push(`cat "${cat}"`);
  if (scope) parts.push(`scope "${scope}"`);
  return parts.join(', ');
}
