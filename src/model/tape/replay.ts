/**
 * The other end of a tape (tapeBuilder.ts): makes the recorded calls, in order, on a real
 * `ModelBuilder`, mapping the tape side's handles (names, styles, threads, rows...) to what the
 * real builder returned for the same calls. Batches can come in any size; a `TapeReplay` keeps
 * the maps between them.
 */
import { type EventAttrs, type JsonBytesValue, type ModelBuilder, type PayloadValue, type RangeRename, type SourceLocation } from '../builder.ts';
import { PayloadType } from '../types.ts';
import { Has, Op, type RowExtras, type TapeBatch, type TapeCall } from './tape.ts';

/** A handle map: tape-side id -> real id; ids the tape never recorded (the ones both builders start with) map to themselves. */
class HandleMap {
  private readonly real: number[] = [];
  set(tapeId: number, realId: number): void {
    this.real[tapeId] = realId;
  }
  get(tapeId: number): number {
    if (tapeId < 0) return tapeId;
    const r = this.real[tapeId];
    return r === undefined ? tapeId : r;
  }
}

export interface ReplayHooks {
  /**
   * The pipeline's budget check before a chunk (`reachedBytes`: content bytes the decoder had
   * then); true stops replaying the decoder's rows (up to `DecodeEnd`).
   */
  onBudget?(reachedBytes: number): boolean;
  onProgress?(bytesDone: number, bytesTotal: number): void;
}

/** Replays batches of one tape into `builder`. */
export class TapeReplay {
  private readonly names = new HandleMap();
  private readonly styles = new HandleMap();
  private readonly threads = new HandleMap();
  private readonly processes = new HandleMap();
  private readonly domains = new HandleMap();
  private readonly rows = new HandleMap();
  private readonly extRows = new HandleMap();
  private readonly sharedBases = new HandleMap();
  /** Set once a budget check threw: the rest of the decoder's rows are skipped, up to `DecodeEnd`. */
  private skipping = false;
  /** Set at `DecodeEnd`. */
  decodeEnded = false;

  constructor(
    readonly builder: ModelBuilder,
    private readonly hooks: ReplayHooks = {},
  ) {}

  /** Stops replaying the decoder's rows (it went over budget); the pipeline's rows after `DecodeEnd` still apply. */
  skipToDecodeEnd(): void {
    this.skipping = true;
  }

  replay(b: TapeBatch): void {
    const bld = this.builder;
    for (let i = 0; i < b.count; i++) {
      const op = b.op[i];
      if (op === Op.DecodeEnd) {
        this.skipping = false;
        this.decodeEnded = true;
        continue;
      }
      if (this.skipping) continue;
      switch (op) {
        case Op.Push:
          bld.push(this.threads.get(b.i0[i]), b.f0[i], this.attrs(b, i), this.where(b, i));
          break;
        case Op.Pop: {
          const x = this.extras(b, i);
          bld.pop(this.threads.get(b.i0[i]), b.f0[i], this.domains.get(b.i1[i]), this.where(b, i), this.payload(b, i), x?.rename as RangeRename | undefined);
          break;
        }
        case Op.Range:
          bld.range(this.threads.get(b.i0[i]), b.f0[i], b.f1[i], this.attrs(b, i), this.where(b, i));
          break;
        case Op.StartEnd:
          bld.startEnd(
            this.threads.get(b.i0[i]),
            b.f0[i],
            b.f1[i],
            this.attrs(b, i),
            b.has[i] & Has.I1 ? this.threads.get(b.i1[i]) : undefined,
            this.where(b, i),
          );
          break;
        case Op.RangeStart:
          bld.rangeStart(this.key(b, i), this.threads.get(b.i0[i]), b.f0[i], this.attrs(b, i), this.where(b, i));
          break;
        case Op.RangeEnd: {
          const x = this.extras(b, i);
          bld.rangeEnd(this.key(b, i), this.threads.get(b.i0[i]), b.f0[i], this.where(b, i), this.payload(b, i), x?.rename as RangeRename | undefined);
          break;
        }
        case Op.Mark:
          bld.mark(this.threads.get(b.i0[i]), b.f0[i], this.attrs(b, i), this.where(b, i));
          break;
        case Op.RowMark:
          bld.rowMark(this.rows.get(b.i0[i]), b.f0[i], this.attrs(b, i));
          break;
        case Op.Counter:
          bld.counter(this.rows.get(b.i0[i]), b.f0[i], b.f1[i]);
          break;
        case Op.RowRange:
          bld.rowRange(this.rows.get(b.i0[i]), b.f0[i], b.f1[i], this.attrs(b, i), this.threads.get(b.i1[i]), b.has[i] & Has.F2 ? b.f2[i] : undefined);
          break;
        case Op.Flow:
          bld.flow(this.threads.get(b.i0[i]), b.f0[i], this.threads.get(b.i1[i]), b.f1[i]);
          break;
        case Op.Call:
          this.call(b.side[b.i0[i]] as TapeCall);
          break;
        case Op.Budget:
          if (this.hooks.onBudget?.(b.f0[i])) this.skipping = true;
          break;
        case Op.Progress:
          this.hooks.onProgress?.(b.f0[i], b.f1[i]);
          break;
        case Op.InputRead:
          bld.inputRead(b.f0[i]);
          break;
        default:
          throw new Error(`tape: unknown row ${op} at ${i}`);
      }
    }
  }

  private extras(b: TapeBatch, i: number): RowExtras | undefined {
    const ref = b.sideRef[i];
    return ref < 0 ? undefined : (b.side[ref] as RowExtras);
  }

  private key(b: TapeBatch, i: number): string | number {
    return b.has[i] & Has.Extras && this.extras(b, i)?.key !== undefined ? this.extras(b, i)!.key! : b.f2[i];
  }

  /** The `where` of rows that cannot have a string cut (whose report keeps the first place it was given): reused. */
  private readonly sharedWhere: SourceLocation = { line: undefined, offset: undefined };

  private where(b: TapeBatch, i: number): SourceLocation | undefined {
    const has = b.has[i];
    if (!(has & Has.Where)) return undefined;
    const mayCut = has & (Has.Name | Has.PayloadSide | Has.PayloadJsonBytes | Has.Extras);
    const where: SourceLocation = mayCut ? {} : this.sharedWhere;
    where.line = has & Has.Line ? b.line[i] : undefined;
    where.offset = has & Has.Offset ? b.offset[i] : undefined;
    return where;
  }

  /** JSON payload bytes are read at once by the builder, which allows one object for all. */
  private readonly jsonBytes: JsonBytesValue = { type: PayloadType.Json, bytes: new Uint8Array(0), start: 0, end: 0 };

  private payload(b: TapeBatch, i: number): PayloadValue | undefined {
    const has = b.has[i];
    if (has & Has.PayloadNumber) {
      const type = b.payloadType[i];
      const value = b.payloadValue[i];
      return { type, value: type === PayloadType.Ext ? this.extRows.get(value) : value } as PayloadValue;
    }
    if (has & Has.PayloadJsonBytes) {
      const j = this.jsonBytes;
      j.bytes = b.arena;
      j.start = b.payloadValue[i];
      j.end = b.payloadEnd[i];
      return j;
    }
    if (has & Has.PayloadSide) return this.payloadValue(this.extras(b, i)!.payload as PayloadValue);
    return undefined;
  }

  /** A payload from the side list or a call, with its Ext row mapped. */
  private payloadValue(p: PayloadValue | undefined): PayloadValue | undefined {
    if (p !== undefined && p.type === PayloadType.Ext && typeof p.value === 'number') return { type: PayloadType.Ext, value: this.extRows.get(p.value) };
    return p;
  }

  /**
   * One attrs object for every row, every field set (undefined when absent: the builder reads
   * them with `??` and `!== undefined`, and keeps no attrs object), so that no object is made per
   * event and the builder's reads of it see one shape.
   */
  private readonly a: EventAttrs = { name: undefined, nameId: undefined, style: undefined, color: undefined, category: undefined, domain: undefined, payload: undefined };

  private attrs(b: TapeBatch, i: number): EventAttrs {
    const has = b.has[i];
    const a = this.a;
    a.nameId = has & Has.NameId ? this.names.get(b.nameId[i]) : undefined;
    a.style = has & Has.Style ? this.styles.get(b.style[i]) : undefined;
    a.color = has & Has.Color ? b.color[i] : undefined;
    a.category = has & Has.Category ? b.category[i] : undefined;
    a.domain = has & Has.Domain ? this.domains.get(b.domain[i]) : undefined;
    a.name = has & Has.Name ? this.extras(b, i)!.name : undefined;
    a.payload = has & (Has.PayloadNumber | Has.PayloadJsonBytes | Has.PayloadSide) ? this.payload(b, i) : undefined;
    return a;
  }

  /** Call attrs (from the side list) with their handles mapped. */
  private mapAttrs(a: EventAttrs): EventAttrs {
    return {
      ...a,
      nameId: a.nameId === undefined ? undefined : this.names.get(a.nameId),
      style: a.style === undefined ? undefined : this.styles.get(a.style),
      domain: a.domain === undefined ? undefined : this.domains.get(a.domain),
      payload: this.payloadValue(a.payload),
    };
  }

  private rowOptions<T extends { process: number; thread?: number }>(o: T): T {
    return { ...o, process: this.processes.get(o.process), thread: o.thread === undefined ? undefined : this.threads.get(o.thread) };
  }

  private call(c: TapeCall): void {
    const bld = this.builder;
    const a = c.args as never[];
    const r = c.result as number;
    switch (c.method) {
      case 'intern':
        this.names.set(r, bld.intern(a[0], a[1], a[2]));
        return;
      case 'process':
        this.processes.set(r, bld.process(a[0], a[1], a[2]));
        return;
      case 'thread':
        this.threads.set(r, bld.thread(a[0], a[1], a[2], a[3]));
        return;
      case 'domain':
        this.domains.set(r, bld.domain(a[0], a[1], a[2]));
        return;
      case 'category':
        bld.category(this.domains.get(a[0]), a[1]);
        return;
      case 'nameCategory':
        bld.nameCategory(this.domains.get(a[0]), a[1], a[2], a[3]);
        return;
      case 'addChildCategory':
        bld.addChildCategory(this.domains.get(a[0]), a[1], a[2], a[3]);
        return;
      case 'style':
        this.styles.set(r, bld.style(this.mapAttrs(a[0])));
        return;
      case 'markRow':
        this.rows.set(r, bld.markRow(this.rowOptions(a[0])));
        return;
      case 'counterRow':
        this.rows.set(r, bld.counterRow(this.rowOptions(a[0])));
        return;
      case 'customRow':
        this.rows.set(r, bld.customRow(this.rowOptions(a[0])));
        return;
      case 'extPayload': {
        const base = a[3] as unknown;
        const real = bld.extPayload(this.domains.get(a[0]), a[1], a[2], typeof base === 'number' ? this.sharedBases.get(base) : (base as never));
        const tape = c.result as PayloadValue | undefined;
        if (tape && real && typeof tape.value === 'number' && typeof real.value === 'number') this.extRows.set(tape.value, real.value);
        return;
      }
      case 'extSharedOffsetBase':
        this.sharedBases.set(r, bld.extSharedOffsetBase(this.domains.get(a[0]), a[1]));
        return;
      case 'setPayloadRegistry':
        bld.setPayloadRegistry(a[0]);
        return;
      case 'report': {
        const where = a[2] as { thread?: number } | undefined;
        bld.report(a[0], a[1], where && where.thread !== undefined ? { ...where, thread: this.threads.get(where.thread) } : where);
        return;
      }
      case 'nameResource': {
        const res = a[0] as { process: number; domain: number };
        bld.nameResource({ ...(a[0] as object), process: this.processes.get(res.process), domain: this.domains.get(res.domain) } as never);
        return;
      }
      case 'processSortIndex':
        bld.processSortIndex(a[0], a[1]);
        return;
      case 'threadSortIndex':
        bld.threadSortIndex(a[0], a[1], a[2]);
        return;
      case 'setClock':
        bld.setClock(a[0], a[1]);
        return;
      case 'setCaptureSpan':
        bld.setCaptureSpan(a[0], a[1]);
        return;
      case 'setDisplayName':
        bld.setDisplayName(a[0]);
        return;
      case 'setProperty':
        bld.setProperty(a[0], a[1]);
        return;
      default:
        throw new Error(`tape: unknown call ${c.method}`);
    }
  }
}

/** Replays one whole tape (all its batches) into `builder`. */
export function replayTape(batches: Iterable<TapeBatch>, builder: ModelBuilder, hooks?: ReplayHooks): void {
  const replay = new TapeReplay(builder, hooks);
  for (const b of batches) replay.replay(b);
}
