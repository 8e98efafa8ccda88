/**
 * Placing timestamps of other time domains on the capture clock (NVTX payload extension: time
 * domains, timer sources, sync points, conversion factors; docs/capture-format.md, section 6.1).
 *
 * A time is named by a registered time domain of an NVTX domain (ids >= 2^24) or by a predefined
 * timestamp type (`NVTX_TIMESTAMP_TYPE_*`, the same in every domain). Some are known directly:
 * type 1 (what the collector's nvtxTimestampGet returns) and, with a TSC clock, type 10 are capture
 * ticks; type 15 is CLOCK_MONOTONIC_RAW, the capture's own ns; the collector's clock readings
 * relate types 12, 14 and 17 to ticks. A registered domain of one of these types is that clock.
 * Everything else is reached through sync points and conversion factors, chained through other
 * domains: sync points give a piecewise-linear map (extrapolated beyond the first and last point
 * with the slope of the nearest pair), a single sync point needs the domain's timer resolution.
 *
 * Timestamps are int64 (bigint here); differences are taken in bigint so that large absolute values
 * (wall-clock ns, long-running TSCs) keep their precision. Results are ns from the capture origin.
 */

export const TimestampType = {
  None: 0,
  ToolProvided: 1,
  CpuTsc: 10,
  Realtime: 12,
  Monotonic: 14,
  MonotonicRaw: 15,
  Boottime: 17,
} as const;

/** Time domain ids below this are predefined timestamp types. */
const REGISTERED_START = 2 ** 24;

/** ns from the capture origin of a timestamp. */
export type Conversion = (x: bigint) => number;

interface DomainInfo {
  label: string;
  timestampType: number;
  /** Ticks per second; 0 when unknown. */
  resolution: number;
}

type Edge =
  | { kind: 'points'; a: string; b: string; points: [bigint, bigint][] }
  | { kind: 'factor'; a: string; b: string; slope: number; a0: bigint; b0: bigint };

/** A piecewise-linear map from points (x ascending, distinct), extrapolated with the end slopes. */
export function piecewise(points: readonly [bigint, number][]): Conversion {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const n = xs.length;
  return (x) => {
    let k = 0;
    if (x >= xs[n - 1]) k = n - 2;
    else if (x > xs[0]) {
      let lo = 0;
      let hi = n - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (xs[mid] <= x) lo = mid;
        else hi = mid;
      }
      k = lo;
    }
    const slope = (ys[k + 1] - ys[k]) / Number(xs[k + 1] - xs[k]);
    return ys[k] + Number(x - xs[k]) * slope;
  };
}

/** Points sorted by x with duplicate x removed (the first reading of an instant wins). */
function distinct(points: [bigint, number][]): [bigint, number][] {
  points.sort((p, q) => (p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : 0));
  return points.filter((p, i) => i === 0 || p[0] !== points[i - 1][0]);
}

export class TimeDomains {
  private readonly domains = new Map<string, DomainInfo>();
  private readonly edges: Edge[] = [];
  private readonly clocks = new Map<number, [bigint, bigint][]>();
  private resolved: Map<string, Conversion> | undefined;
  private readonly failures = new Map<string, string>();

  /**
   * @param ticksToNs capture ns of an absolute tick (called when resolving, so it may use the
   *   rate known at the end of the capture)
   * @param n0 CLOCK_MONOTONIC_RAW ns of the capture origin
   * @param tscTicks the capture ticks are the CPU's TSC (type 10 = type 1)
   */
  constructor(
    private readonly ticksToNs: Conversion,
    private readonly n0: bigint,
    private readonly tscTicks: boolean,
  ) {}

  /** The key of a time domain id used in an NVTX domain (model domain index). */
  static key(domain: number, id: number): string {
    return id >= REGISTERED_START ? `d${domain}:${id}` : `t${id}`;
  }

  registerDomain(domain: number, id: number, info: { timestampType: number; resolution: number; label?: string }): void {
    const key = TimeDomains.key(domain, id);
    this.domains.set(key, { label: info.label ?? `time domain ${id}`, timestampType: info.timestampType, resolution: info.resolution });
    this.resolved = undefined;
  }

  addSyncPoints(domain: number, src: number, dst: number, points: [bigint, bigint][]): void {
    if (points.length === 0) return;
    this.edges.push({ kind: 'points', a: TimeDomains.key(domain, src), b: TimeDomains.key(domain, dst), points });
    this.resolved = undefined;
  }

  /** `dst = b0 + slope × (src − a0)`. */
  addFactor(domain: number, src: number, dst: number, slope: number, a0: bigint, b0: bigint): void {
    this.edges.push({ kind: 'factor', a: TimeDomains.key(domain, src), b: TimeDomains.key(domain, dst), slope, a0, b0 });
    this.resolved = undefined;
  }

  /** System clocks read together with an absolute tick (collector CLOCKS records). */
  addClockReading(tick: bigint, readings: readonly [number, bigint][]): void {
    for (const [type, value] of readings) {
      let list = this.clocks.get(type);
      if (!list) this.clocks.set(type, (list = []));
      list.push([value, tick]);
    }
    this.resolved = undefined;
  }

  /** The conversion of time domain `id` as used in `domain`, or why there is none. */
  converter(domain: number, id: number): Conversion | { error: string } {
    const resolved = this.resolve();
    const key = TimeDomains.key(domain, id);
    const c = resolved.get(key);
    if (c) return c;
    return { error: this.failures.get(key) ?? this.why(key, id) };
  }

  /** A label for messages: the registered name, or the timestamp type. */
  label(domain: number, id: number): string {
    const info = this.domains.get(TimeDomains.key(domain, id));
    return info ? info.label : `timestamp type ${id}`;
  }

  private why(key: string, id: number): string {
    const related = this.edges.some((e) => e.a === key || e.b === key);
    if (!related) {
      return id >= REGISTERED_START && !this.domains.has(key)
        ? `time domain ${id} was never registered and no sync point relates it to the capture clock`
        : `no sync point or conversion factor relates ${id >= REGISTERED_START ? `time domain ${id}` : `timestamp type ${id}`} to the capture clock`;
    }
    return `the sync points of ${id >= REGISTERED_START ? `time domain ${id}` : `timestamp type ${id}`} do not reach the capture clock`;
  }

  private resolve(): Map<string, Conversion> {
    if (this.resolved) return this.resolved;
    const known = new Map<string, Conversion>();
    this.failures.clear();
    known.set(`t${TimestampType.ToolProvided}`, this.ticksToNs);
    if (this.tscTicks) known.set(`t${TimestampType.CpuTsc}`, this.ticksToNs);
    const n0 = this.n0;
    known.set(`t${TimestampType.MonotonicRaw}`, (x) => Number(x - n0));
    for (const [type, readings] of this.clocks) {
      if (known.has(`t${type}`)) continue;
      const points = distinct(readings.map(([value, tick]) => [value, this.ticksToNs(tick)] as [bigint, number]));
      // One reading of an ns clock: same rate as the capture's ns.
      known.set(`t${type}`, points.length >= 2 ? piecewise(points) : (x) => points[0][1] + Number(x - points[0][0]));
    }
    // A registered domain of a known timestamp type is that clock.
    const aliases: Edge[] = [];
    for (const [key, info] of this.domains) {
      if (info.timestampType !== TimestampType.None) {
        aliases.push({ kind: 'factor', a: key, b: `t${info.timestampType}`, slope: 1, a0: 0n, b0: 0n });
      }
    }
    // Sync points of one pair of domains, from several calls, form one map.
    const merged = new Map<string, Edge & { kind: 'points' }>();
    const edges: Edge[] = [...aliases];
    for (const e of this.edges) {
      if (e.kind !== 'points') {
        edges.push(e);
        continue;
      }
      const forward = `${e.a}\u0000${e.b}`;
      const backward = `${e.b}\u0000${e.a}`;
      const same = merged.get(forward);
      const reverse = merged.get(backward);
      if (same) same.points.push(...e.points);
      else if (reverse) reverse.points.push(...e.points.map(([a, b]) => [b, a] as [bigint, bigint]));
      else {
        const copy = { kind: 'points' as const, a: e.a, b: e.b, points: [...e.points] };
        merged.set(forward, copy);
        edges.push(copy);
      }
    }
    for (let progress = true; progress; ) {
      progress = false;
      for (const e of edges) {
        const ka = known.get(e.a);
        const kb = known.get(e.b);
        if ((ka && kb) || (!ka && !kb)) continue;
        const derived = ka ? this.derive(e, 'b', ka) : this.derive(e, 'a', kb!);
        const target = ka ? e.b : e.a;
        if (typeof derived === 'string') {
          if (!this.failures.has(target)) this.failures.set(target, derived);
          continue;
        }
        known.set(target, derived);
        progress = true;
      }
    }
    this.resolved = known;
    return known;
  }

  /** The conversion of side `side` of edge `e` from the known conversion of its other side. */
  private derive(e: Edge, side: 'a' | 'b', other: Conversion): Conversion | string {
    const key = side === 'a' ? e.a : e.b;
    if (e.kind === 'factor') {
      const { slope, a0, b0 } = e;
      if (side === 'a') return (x) => other(b0 + BigInt(Math.round(slope * Number(x - a0))));
      if (slope === 0) return `the conversion factor of ${key} is 0`;
      return (y) => other(a0 + BigInt(Math.round(Number(y - b0) / slope)));
    }
    const points = distinct(e.points.map(([a, b]) => (side === 'a' ? [a, other(b)] : [b, other(a)]) as [bigint, number]));
    if (points.length >= 2) return piecewise(points);
    const resolution = this.domains.get(key)?.resolution ?? 0;
    if (resolution > 0) {
      const [x0, y0] = points[0];
      const nsPerTick = 1e9 / resolution;
      return (x) => y0 + Number(x - x0) * nsPerTick;
    }
    return `only one sync point relates ${key.startsWith('t') ? `timestamp type ${key.slice(1)}` : `time domain ${key.split(':')[1]}`} to the capture clock and its timer resolution is unknown`;
  }
}
