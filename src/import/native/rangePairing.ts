/**
 * Start/end ranges by id (START/END records and payload events share one id space). Chunks of
 * different threads arrive in flush order, so an end may come before its start: it waits here.
 */
import type { EventAttrs, ModelBuilder, PayloadValue, RangeRename } from '../../model/builder.ts';
import type { OnceNotes } from './onceNotes.ts';
import { RangeIdTable } from '../../model/rangeIdTable.ts';

interface EarlyEnd {
  thread: number;
  t: number;
  offset: number;
  payload?: PayloadValue;
  rename?: RangeRename;
}

export class StartEndPairing {
  /** Ids of open start/end ranges (the value is unused). */
  private readonly open = new RangeIdTable();
  private readonly earlyEnds = new Map<number, EarlyEnd>();
  /** The builder copies what it keeps of a location, so one object serves every call. */
  private readonly place = { offset: 0 };

  constructor(
    private readonly b: ModelBuilder,
    private readonly notes: OnceNotes,
  ) {}

  /**
   * Whether start/end range `id` is open: a start of it now would be a second start, which the
   * builder ignores (every start and end reaches the builder through here, so its open ids are these).
   */
  isOpen(id: number): boolean {
    return this.open.has(id);
  }

  start(id: number, thread: number, t: number, attrs: EventAttrs, offset: number): void {
    const early = this.earlyEnds.size === 0 ? undefined : this.earlyEnds.get(id);
    if (early) {
      this.earlyEnds.delete(id);
      if (early.payload || early.rename) {
        this.b.rangeStart(id, thread, t, attrs, this.at(offset));
        this.b.rangeEnd(id, early.thread, early.t, this.at(early.offset), early.payload, early.rename);
      } else {
        this.b.startEnd(thread, t, early.t, attrs, early.thread, this.at(offset));
      }
      return;
    }
    this.open.set(id, 0);
    this.b.rangeStart(id, thread, t, attrs, this.at(offset));
  }

  end(id: number, thread: number, t: number, offset: number, payload?: PayloadValue, rename?: RangeRename): void {
    if (this.open.delete(id) >= 0) {
      this.b.rangeEnd(id, thread, t, this.at(offset), payload, rename);
      return;
    }
    if (this.earlyEnds.has(id)) {
      this.notes.limited('ended twice', 'start/end ranges ended twice', 'warning', `range id ${id} ended twice; the second end is ignored`, offset);
      return;
    }
    this.earlyEnds.set(id, { thread, t, offset, payload, rename });
  }

  private at(offset: number): { offset: number } {
    this.place.offset = offset;
    return this.place;
  }

  /** Reports ends whose start never came (still-open starts are closed by the builder). */
  finish(): void {
    for (const [id, end] of this.earlyEnds) {
      this.notes.limited('never started', 'start/end ranges ended but never started', 'warning', `range id ${id} ended but never started in this capture`, end.offset);
    }
  }
}
