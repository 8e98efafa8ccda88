/**
 * NVTXT time bases and the conversion of timestamps (Int64 ticks) to the integer nanoseconds the
 * model builder takes, relative to an origin chosen per file (the first timestamp of the file).
 *
 * The guide defines Qpc, Rdtsc and FileTime. Real emitters also write nanosecond clocks, so these
 * are accepted too (case-insensitive):
 *
 * | TimeBase                                         | unit          | clock (comparable with)        |
 * |--------------------------------------------------|---------------|--------------------------------|
 * | FileTime                                         | 100 ns        | UTC since 1601 (ClockRealtime) |
 * | ClockRealtime, CLOCK_REALTIME, Realtime          | ns            | UTC since 1970 (FileTime)      |
 * | ClockMonotonic, CLOCK_MONOTONIC, Monotonic       | ns            | boot (ClockMonotonicRaw)       |
 * | ClockMonotonicRaw, CLOCK_MONOTONIC_RAW, MonotonicRaw | ns        | boot (ClockMonotonic)          |
 * | ClockBoottime, CLOCK_BOOTTIME, Boottime          | ns            | boot incl. suspend             |
 * | Qpc                                              | 1/qpcHz s     | QueryPerformanceCounter        |
 * | Rdtsc                                            | 1/rdtscHz s   | CPU time stamp counter         |
 * | Manual, ns, Nanoseconds                          | ns            | the emitter's own clock        |
 * | us, Microseconds / ms, Milliseconds / s, Seconds | µs / ms / s   | the emitter's own clock        |
 *
 * Qpc and Rdtsc rates cannot be known from the file: they come from the decode options (defaults
 * 10 MHz and 1 GHz, reported as `info` so the user knows to set the real rate). An unknown name is
 * read as nanoseconds on the emitter's own clock, with one warning per name.
 *
 * Time bases on clocks that cannot be compared (e.g. FileTime and Qpc) are each placed so that
 * their first timestamp coincides with the file's first timestamp, with a warning.
 */
import type { ModelBuilder } from '../../model/builder.ts';
import type { LoadIssue } from '../../model/types.ts';
import type { DecodeOptions } from '../importer.ts';
import { detach } from './detach.ts';

/** Reports a problem found on a line (line 0: not tied to a line). */
export type Reporter = (severity: LoadIssue['severity'], message: string, line: number) => void;

export const DEFAULT_QPC_HZ = 10_000_000;
export const DEFAULT_RDTSC_HZ = 1_000_000_000;

/** Seconds between 1601-01-01 (FileTime epoch) and 1970-01-01 (Unix epoch). */
const FILETIME_TO_UNIX_S = 11_644_473_600n;

interface TimeBaseSpec {
  /** Canonical name, for messages. */
  name: string;
  /** Clock name given to the builder when this time base is the file's first. */
  clock: string;
  /** Time bases of one group share an epoch (after `epochNs`) and can be compared. */
  group: string;
  /** Nanoseconds per tick as the fraction num / den. */
  num: number;
  den: number;
  /** Group time (ns) = ticks * num / den + epochNs. */
  epochNs: bigint;
}

function unitBase(name: string, nsPerTick: number): TimeBaseSpec {
  return { name, clock: 'Manual', group: 'manual', num: nsPerTick, den: 1, epochNs: 0n };
}

function nsClock(name: string, clock: string, group: string): TimeBaseSpec {
  return { name, clock, group, num: 1, den: 1, epochNs: 0n };
}

/** The fixed time bases by lower-case name (Qpc and Rdtsc depend on the options: see below). */
const knownBases = new Map<string, TimeBaseSpec>();
function add(spec: TimeBaseSpec, ...aliases: string[]): void {
  for (const a of [spec.name, ...aliases]) knownBases.set(a.toLowerCase(), spec);
}
add(
  { name: 'FileTime', clock: 'FileTime', group: 'utc', num: 100, den: 1, epochNs: -FILETIME_TO_UNIX_S * 1_000_000_000n },
);
add(nsClock('ClockRealtime', 'CLOCK_REALTIME', 'utc'), 'CLOCK_REALTIME', 'Realtime');
add(nsClock('ClockMonotonic', 'CLOCK_MONOTONIC', 'monotonic'), 'CLOCK_MONOTONIC', 'Monotonic');
add(nsClock('ClockMonotonicRaw', 'CLOCK_MONOTONIC_RAW', 'monotonic'), 'CLOCK_MONOTONIC_RAW', 'MonotonicRaw');
add(nsClock('ClockBoottime', 'CLOCK_BOOTTIME', 'boottime'), 'CLOCK_BOOTTIME', 'Boottime');
add(unitBase('Manual', 1), 'ns', 'Nanoseconds', 'Nanosecond');
add(unitBase('Microseconds', 1_000), 'us', 'Microsecond');
add(unitBase('Milliseconds', 1_000_000), 'ms', 'Millisecond');
add(unitBase('Seconds', 1_000_000_000), 's', 'Second');

/** A time base as used in one file: its spec plus the reference point of its conversion. */
export interface TimeBase {
  readonly spec: TimeBaseSpec;
  /** False until the first timestamp in this time base fixed the reference below. */
  ready: boolean;
  /** Reference tick (the first timestamp seen in this time base). */
  refBig: bigint;
  /** `refBig` as a number when it is a safe integer, else NaN. */
  refNum: number;
  /** Integer ns per tick, or 0 when the rate is fractional. */
  intScale: number;
  /** ns relative to the file origin of the reference tick (exact integer). */
  offsetNs: number;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** "10MHz" (clock names) or, with `space`, "10 MHz" (messages). */
function formatHz(hz: number, space = ''): string {
  const units: [number, string][] = [
    [1e9, 'GHz'],
    [1e6, 'MHz'],
    [1e3, 'kHz'],
  ];
  for (const [scale, unit] of units) if (hz >= scale) return `${+(hz / scale).toPrecision(12)}${space}${unit}`;
  return `${hz}${space}Hz`;
}

/** Converts timestamps of one file to ns relative to the file's origin. */
export class TimeConverter {
  private readonly bases = new Map<string, TimeBase>();
  /** Origin of each group seen so far, in group ns. */
  private readonly groupOrigin = new Map<string, bigint>();
  private firstGroup = '';
  private firstBaseName = '';
  private lastName: string | undefined = undefined;
  private lastBase: TimeBase | undefined = undefined;
  private readonly qpcHz: number;
  private readonly rdtscHz: number;

  constructor(
    private readonly builder: ModelBuilder,
    private readonly options: DecodeOptions,
    private readonly report: Reporter,
  ) {
    this.qpcHz = this.rate('qpcHz', DEFAULT_QPC_HZ);
    this.rdtscHz = this.rate('rdtscHz', DEFAULT_RDTSC_HZ);
  }

  /** The time base called `name` (any case); undefined = none given (read as nanoseconds). */
  resolve(name: string | undefined, line: number): TimeBase {
    if (name === this.lastName && this.lastBase) return this.lastBase;
    const key = name === undefined ? '' : name.toLowerCase();
    let base = this.bases.get(key);
    if (!base) {
      base = this.create(name === undefined ? undefined : detach(name), line);
      this.bases.set(detach(key), base);
    }
    this.lastName = name;
    this.lastBase = base;
    return base;
  }

  /**
   * ns relative to the file origin of `ticks` (given as a safe number, or as a bigint when
   * beyond 2^53). Returns NaN, after reporting, when the result is too far from the origin to be
   * exact.
   */
  toNs(base: TimeBase, num: number, big: bigint | null, line: number): number {
    if (!base.ready) this.anchor(base, big ?? BigInt(num), line);
    let delta: number;
    if (big === null && base.refNum === base.refNum) {
      delta = num - base.refNum;
      if (delta > MAX_SAFE || delta < -MAX_SAFE) delta = Number((big ?? BigInt(num)) - base.refBig);
    } else {
      delta = Number((big ?? BigInt(num)) - base.refBig);
    }
    const spec = base.spec;
    const ns = (base.intScale !== 0 ? delta * base.intScale : Math.round((delta * spec.num) / spec.den)) + base.offsetNs;
    if (ns > MAX_SAFE || ns < -MAX_SAFE) {
      this.report(
        'error',
        `timestamp ${big ?? num} (${spec.name}) is more than 104 days away from the file's first timestamp; line ignored`,
        line,
      );
      return NaN;
    }
    return ns;
  }

  private create(name: string | undefined, line: number): TimeBase {
    let spec: TimeBaseSpec | undefined;
    if (name === undefined) {
      spec = unitBase('Manual', 1);
      this.report('info', `no TimeBase given (first on this line): timestamps without one are read as nanoseconds`, line);
    } else {
      const lower = name.toLowerCase();
      if (lower === 'qpc') spec = this.tickBase('Qpc', 'qpc', this.qpcHz, 'qpcHz', line);
      else if (lower === 'rdtsc') spec = this.tickBase('Rdtsc', 'tsc', this.rdtscHz, 'rdtscHz', line);
      else spec = knownBases.get(lower);
      if (!spec) {
        spec = unitBase(name, 1);
        this.report(
          'warning',
          `unknown TimeBase "${name}": its timestamps are read as nanoseconds (known: Qpc, Rdtsc, FileTime, ClockMonotonicRaw, ClockMonotonic, ClockRealtime, ClockBoottime, Manual/ns, us, ms, s)`,
          line,
        );
      }
    }
    const intScale = spec.num % spec.den === 0 ? spec.num / spec.den : 0;
    return { spec, ready: false, refBig: 0n, refNum: NaN, intScale, offsetNs: 0 };
  }

  private tickBase(name: string, group: string, hz: number, option: keyof DecodeOptions, line: number): TimeBaseSpec {
    const given = this.options[option] !== undefined && hz === this.options[option];
    this.builder.setProperty(`${name} rate`, `${formatHz(hz, ' ')}${given ? '' : ' (default)'}`);
    if (!given) {
      this.report(
        'info',
        `${name} timestamps are converted at ${formatHz(hz, ' ')}, the default: the file cannot tell the ${name} rate; set the real rate in the page if this capture used another`,
        line,
      );
    }
    return { name, clock: `${name}@${formatHz(hz)}`, group, num: 1e9, den: hz, epochNs: 0n };
  }

  /** Fixes the reference of a time base at its first timestamp (and the file origin, if first). */
  private anchor(base: TimeBase, ticks: bigint, line: number): void {
    const spec = base.spec;
    const exact = base.intScale !== 0;
    const groupNs = (exact ? ticks * BigInt(base.intScale) : roundDiv(ticks * BigInt(spec.num), spec.den)) + spec.epochNs;
    let origin = this.groupOrigin.get(spec.group);
    if (origin === undefined) {
      origin = groupNs;
      this.groupOrigin.set(spec.group, origin);
      if (this.firstGroup === '') {
        this.firstGroup = spec.group;
        this.firstBaseName = spec.name;
        this.builder.setClock(spec.clock, origin - spec.epochNs);
      } else {
        this.report(
          'warning',
          `TimeBase ${spec.name} cannot be compared with ${this.firstBaseName}, the file's first time base: its timestamps are shifted so that the first one (on this line) coincides with the file's first timestamp`,
          line,
        );
      }
    }
    base.refBig = ticks;
    base.refNum = ticks <= BigInt(MAX_SAFE) && ticks >= -BigInt(MAX_SAFE) ? Number(ticks) : NaN;
    base.offsetNs = Number(groupNs - origin);
    base.ready = true;
  }

  /** A tick rate from the options, or the default when absent or invalid. */
  private rate(option: 'qpcHz' | 'rdtscHz', fallback: number): number {
    const v = this.options[option];
    if (v === undefined) return fallback;
    if (Number.isFinite(v) && v > 0) return v;
    this.report('warning', `${option} ${v} is not a valid tick rate; ${formatHz(fallback, ' ')} is used instead`, 0);
    return fallback;
  }
}

/** round(a / b) for a bigint a and a positive rate b (b may be fractional). */
function roundDiv(a: bigint, b: number): bigint {
  if (Number.isInteger(b)) {
    const d = BigInt(b);
    const q = a / d;
    const r = a - q * d;
    if (2n * (r < 0n ? -r : r) >= d) return q + (a < 0n ? -1n : 1n);
    return q;
  }
  return BigInt(Math.round(Number(a) / b));
}
