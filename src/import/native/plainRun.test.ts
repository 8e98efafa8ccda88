/**
 * The decoder's loop over runs of PUSH/POP records (`plainRun`) against the general per-record
 * path, on random record streams: a load where `ModelBuilder.directStack` gives no stack never
 * enters the loop, so the two loads of the same bytes must give equal models. The streams mix in
 * every case where the loop must hand over: other kinds, PUSH_EX, MARK_EX, START_EX and END it
 * does not read (payloads that are not safe integers, registered or missing strings, long fields
 * and range ids, other domains), thread changes, times that go back
 * or past the chunk's seal, varints too long for it, chunks cut inside records, flipped bytes,
 * nesting past the depth bound. CUDA API calls among them close launching ranges, which the CUDA
 * model is told of in the same order with the same colours either way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import { CudaModel } from '../cuda/cudaModel.ts';
import type { Model } from '../../model/types.ts';
import { Random } from '../../../testkit/gen/random.ts';
import { loadBytes } from '../../../testkit/load/nativeCapture.ts';
import { ByteWriter, CaptureWriter } from '../../../testkit/writers/nvtxcWriter.ts';
import { Op } from './format.ts';
import { MAX_PUSH_DEPTH } from './pushNesting.ts';

const T0 = 1_000n;

/** One stream's records, written by hand so that any field can be odd. */
class RandomStream {
  readonly w = new ByteWriter();
  private tick = 0;
  private strings = 0;
  private correlation = 0;

  constructor(
    private readonly rnd: Random,
    private readonly odd: number,
  ) {}

  string(text: string): void {
    this.w.u8(Op.String).varint(0).str(text);
    this.strings++;
  }

  /** A tick delta: mostly small, sometimes 3-5 bytes, back in time, or far ahead. */
  private dt(): void {
    const rnd = this.rnd;
    let d = rnd.int(0, 100);
    if (rnd.next() < 0.1) d = rnd.int(0, 1 << 20);
    if (rnd.next() < 0.02) d = rnd.int(1 << 27, 1 << 30);
    if (rnd.next() < this.odd) d = -rnd.int(1, 1000);
    this.tick += d;
    this.w.svarint(d);
  }

  /** A range id of START_EX and END records: small, with a thread in the high 32 bits (6 bytes), or 8 bytes and more. */
  private rangeId(): number {
    const rnd = this.rnd;
    const n = rnd.int(1, 20);
    const x = rnd.next();
    return x < 0.4 ? n : x < 0.8 ? rnd.int(1, 4) * 2 ** 32 + n : x < 0.9 ? 2 ** 48 + n : 2 ** 50 + n;
  }

  /** A string id: defined nearly always, one or two bytes or a long varint. */
  private sid(): number {
    const rnd = this.rnd;
    if (rnd.next() < this.odd) return rnd.int(this.strings + 1, this.strings + 300);
    return rnd.int(1, this.strings);
  }

  record(thread: () => void): void {
    const rnd = this.rnd;
    const w = this.w;
    const x = rnd.next();
    if (x < 0.3) {
      w.u8(Op.Push);
      this.dt();
      w.varint(this.sid());
    } else if (x < 0.6) {
      w.u8(Op.Pop);
      this.dt();
    } else if (x < 0.75) {
      w.u8(Op.PushEx);
      this.dt();
      w.varint(rnd.next() < this.odd ? rnd.int(1, 3) : 0);
      this.attrs();
    } else if (x < 0.8) {
      w.u8(Op.MarkEx);
      this.dt();
      w.varint(0);
      this.attrs();
    } else if (x < 0.85) {
      w.u8(Op.StartEx);
      this.dt();
      w.varint(0).varint(this.rangeId());
      this.attrs();
    } else if (x < 0.9) {
      w.u8(Op.End);
      this.dt();
      w.varint(this.rangeId());
    } else if (x < 0.92) {
      w.u8(Op.Mark);
      this.dt();
      w.varint(this.sid());
    } else if (x < 0.94) {
      w.u8(Op.Start);
      this.dt();
      w.varint(rnd.int(1, 20)).varint(this.sid());
    } else if (x < 0.95) {
      w.u8(Op.EndDomain);
      this.dt();
      w.varint(rnd.int(0, 2)).varint(rnd.int(1, 20));
    } else if (x < 0.96) {
      w.u8(Op.PopDomain);
      this.dt();
      w.varint(rnd.int(1, 2));
    } else if (x < 0.97) {
      this.string(`s${this.strings}`);
    } else if (x < 0.975) {
      thread();
    } else if (x < 0.98) {
      // A long tick varint (six bytes, a small value): read by the general path.
      w.u8(Op.Pop).u8(0x82).u8(0x80).u8(0x80).u8(0x80).u8(0x80).u8(0x00);
    } else if (x < 0.99) {
      // A CUDA API call: the ranges open around it become launching ranges (launchingRanges.ts).
      const call = new ByteWriter().svarint(this.tick).varint(2).varint(rnd.int(1, 300)).varint(rnd.int(0, 50)).varint(++this.correlation);
      call.varint(0).varint(0).varint(0);
      const body = call.done();
      w.u8(Op.CudaApi).varint(body.length).bytes(body);
    } else {
      w.u8(Op.Push);
      this.dt();
      w.varint(this.sid());
    }
  }

  /**
   * A payload's 8 bytes: any bits, or a high word that keeps a 64-bit integer a safe number (the
   * loop reads those) or just past it, either sign.
   */
  private payloadBits(): Uint8Array {
    const rnd = this.rnd;
    const bits = new Uint8Array(8).map(() => rnd.int(0, 255));
    const view = new DataView(bits.buffer);
    const x = rnd.next();
    if (x < 0.3) view.setInt32(4, rnd.int(0, 0x1fffff), true);
    else if (x < 0.5) view.setInt32(4, -rnd.int(1, 0x200000), true);
    else if (x < 0.6) view.setInt32(4, rnd.pick([0x200000, -0x200001, 0x7fffffff, -1]), true);
    return bits;
  }

  private attrs(): void {
    const rnd = this.rnd;
    const a = new ByteWriter();
    const payload = rnd.next() < 0.2;
    let mask = (rnd.next() < 0.6 ? 1 : 0) | (rnd.next() < 0.6 ? 2 : 0) | (payload ? 4 : 0) | (rnd.next() < 0.9 ? 8 : 0);
    if (rnd.next() < this.odd) mask |= 16; // extended payloads: not the loop's
    a.varint(mask);
    if (mask & 1) a.varint(rnd.next() < 0.2 ? rnd.int(128, 5000) : rnd.int(0, 5));
    if (mask & 2) a.varint(rnd.next() < 0.8 ? 1 : 2).u32(rnd.pick([0xff0000ff, 0xff00ff00, 0x80123456]));
    if (mask & 4) a.varint(rnd.pick([1, 2, 3, 4, 5, 6, 9])).bytes(this.payloadBits());
    if (mask & 8) a.varint(rnd.next() < 0.9 ? 1 : 3).varint(this.sid());
    if (mask & 16) a.varint(0);
    if (rnd.next() < 0.05) a.u8(7).u8(7); // a later version's fields
    const body = a.done();
    this.w.varint(body.length).bytes(body);
  }
}

interface CaptureShape {
  streams: number;
  records: number;
  /** Chance of each odd case per record or field. */
  odd: number;
  /** Chunks end at random bytes (inside records) instead of record boundaries. */
  cutInside: boolean;
  flips: number;
  /** Seal ticks below the streams' times (times bounded to the seal). */
  lowSeal: boolean;
}

function randomCapture(seed: number, shape: CaptureShape): Uint8Array {
  const rnd = new Random(seed);
  const capture = new CaptureWriter().process({ pid: 1, t0: T0, n0: T0, clockKind: 3 });
  for (let s = 1; s <= shape.streams; s++) {
    const stream = new RandomStream(rnd, shape.odd);
    const thread = (): void => void stream.w.u8(Op.Thread).varint(s * 10 + rnd.int(0, 2)).str(`t${s}`);
    if (rnd.next() < 0.9) thread();
    for (let i = 0; i < 300; i++) stream.string(`name ${i % 40}`);
    const bounds: number[] = [0];
    for (let i = 0; i < shape.records; i++) {
      stream.record(thread);
      if (rnd.next() < 0.01) bounds.push(stream.w.view().length);
    }
    const bytes = stream.w.done();
    bounds.push(bytes.length);
    if (shape.cutInside) for (let i = 1; i < bounds.length - 1; i++) bounds[i] = Math.max(bounds[i - 1], bounds[i] - rnd.int(0, 3));
    for (let i = 1; i < bounds.length; i++) {
      const seal = shape.lowSeal && rnd.next() < 0.3 ? BigInt(rnd.int(0, 1 << 24)) : 1n << 40n;
      capture.events(s, [T0 + seal, T0 + seal], bytes, bounds[i - 1], bounds[i]);
    }
  }
  const out = capture.exitNormally().bytes();
  for (let i = 0; i < shape.flips; i++) out[rnd.int(200, out.length - 1)] ^= 1 << rnd.int(0, 7);
  return out;
}

/** What the CUDA model is told of an NVTX range that closed with CUDA calls inside. */
type LaunchingRange = Parameters<CudaModel['nvtxRange']>;

/**
 * Loads `bytes` with the loop (counting the records it wrote) and with the general path only, with
 * the launching ranges each load handed to the CUDA model (the GPU projection's input, which the
 * model shows only where GPU work was launched inside).
 */
async function bothWays(bytes: Uint8Array): Promise<{ loop: Model; general: Model; loopRuns: number; launching: { loop: LaunchingRange[]; general: LaunchingRange[] } }> {
  const launching = { loop: [] as LaunchingRange[], general: [] as LaunchingRange[] };
  let seen = launching.loop;
  const nvtxRange = vi.spyOn(CudaModel.prototype, 'nvtxRange').mockImplementation(function (this: CudaModel, ...args: LaunchingRange) {
    seen.push(structuredClone(args));
  });
  const directStack = ModelBuilder.prototype.directStack;
  let loopRuns = 0;
  const spy = vi.spyOn(ModelBuilder.prototype, 'directStack').mockImplementation(function (this: ModelBuilder, thread: number) {
    const stack = directStack.call(this, thread);
    if (stack !== undefined) loopRuns++;
    return stack;
  });
  const loop = await loadBytes(bytes);
  spy.mockImplementation(() => undefined);
  seen = launching.general;
  const general = await loadBytes(bytes);
  spy.mockRestore();
  nvtxRange.mockRestore();
  return { loop, general, loopRuns, launching };
}

describe('the PUSH/POP loop', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives the models of the general path on random record streams', async () => {
    const shapes: CaptureShape[] = [
      { streams: 1, records: 3000, odd: 0, cutInside: false, flips: 0, lowSeal: false },
      { streams: 3, records: 2000, odd: 0.02, cutInside: false, flips: 0, lowSeal: false },
      { streams: 2, records: 2000, odd: 0.1, cutInside: true, flips: 0, lowSeal: true },
      { streams: 2, records: 2000, odd: 0.02, cutInside: false, flips: 6, lowSeal: false },
    ];
    let cases = 0;
    let coloured = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const shape = shapes[seed % shapes.length];
      const { loop, general, loopRuns, launching } = await bothWays(randomCapture(seed, shape));
      expect(loop, `seed ${seed}`).toEqual(general);
      expect(launching.loop, `seed ${seed}: launching ranges`).toEqual(launching.general);
      if (loopRuns > 0) cases++;
      coloured += launching.loop.filter(([, , , , attrs]) => attrs.color !== undefined).length;
    }
    // The comparison means something only if the loop ran: in nearly every capture; and only if
    // ranges with CUDA calls inside closed, coloured ones among them.
    expect(cases).toBeGreaterThan(20);
    expect(coloured).toBeGreaterThan(20);
  });

  it('hands pushes past the depth bound, and their pops, to the general path', async () => {
    const w = new ByteWriter().u8(Op.Thread).varint(5).str('deep');
    w.u8(Op.String).varint(0).str('level');
    const pushes = MAX_PUSH_DEPTH + 3;
    for (let i = 0; i < pushes; i++) w.u8(Op.Push).svarint(1).varint(1);
    for (let i = 0; i < pushes + 2; i++) w.u8(Op.Pop).svarint(1);
    const records = w.done();
    const capture = new CaptureWriter().process({ pid: 1, t0: T0, n0: T0, clockKind: 3 });
    const middle = Math.floor(records.length / 2);
    capture.events(1, [T0 + 1_000_000n, T0 + 1_000_000n], records, 0, middle);
    capture.events(1, [T0 + 1_000_000n, T0 + 1_000_000n], records, middle, records.length);
    const { loop, general, loopRuns } = await bothWays(capture.exitNormally().bytes());
    expect(loopRuns).toBeGreaterThan(0);
    expect(loop).toEqual(general);
    expect(loop.issues.some((i) => /nest deeper than/.test(i.message))).toBe(true);
  });
});
