/**
 * Applies the chunks of a `.nvtxc` capture to a ModelBuilder (docs/capture-format.md):
 * PROCESS (process facts, clock), META (domains, names, registered strings, resources, sync
 * objects), EVENTS (one slice of one thread's stream), END and, in format 1.3, the CUDA side
 * (cudaRecords.ts). Everything is fed as it is read, so a capture of any size decodes in one pass;
 * only open start/end ranges, sync-object events and GPU activity (placed by the CUDA clock pairs)
 * wait for the end.
 */
import { offsetLocCode, type EventAttrs, type ModelBuilder, type PayloadValue } from '../../model/builder.ts';
import type { ExtMemoryInput } from '../../model/extPayloads.ts';
import { PayloadType } from '../../model/types.ts';
import type { Frame, FrameProblem } from './chunks.ts';
import { openChunkEvents, type OpenEvents } from './openChunk.ts';
import {
  Attr,
  Chunk,
  ClockKind,
  EndReason,
  EndTag,
  ExtFlag,
  MessageType,
  MetaOp,
  NVTX_COLOR_ARGB,
  NvtxPayload,
  Op,
  ProcessTag,
  StringFlag,
  SyncOp,
} from './format.ts';
import { CaptureClock } from './captureClock.ts';
import { CaptureDomains } from './captureDomains.ts';
import { CudaRecords } from './cudaRecords.ts';
import { ExtensionRecords } from './extensions.ts';
import { LaunchingRanges } from './launchingRanges.ts';
import { OnceNotes } from './onceNotes.ts';
import { MAX_PUSH_DEPTH, PushNesting } from './pushNesting.ts';
import { StartEndPairing } from './rangePairing.ts';
import { ByteReader, FormatError, utf8Text } from './reader.ts';
import { resourceHandle, resourceKind } from './resources.ts';
import { recordTickSpan } from './streamTicks.ts';
import { EventStyles } from './eventStyles.ts';

interface StreamState {
  id: number;
  /** Builder thread index; -1 until the THREAD record. */
  thread: number;
  tid: number;
  /** Stream bytes decoded so far (chunks may overlap; see the format, section 3). */
  decodedTo: number;
  /** Previous tick of the stream, minus T0. */
  prevRel: number;
  /** Last event time (ns): keeps a stream's times ordered across chunks converted with different rates. */
  lastNs: number;
  /** Stream string id -> builder StringId. */
  strings: number[];
  /** Stream string id -> builder style of a plain message in the default domain (hot records). */
  /** The stream lost bytes (a gap, or a chunk whose records did not parse): the next chunk resumes it. */
  resumeNeeded: boolean;
  reportedMissingString: boolean;
  /**
   * After a gap, string ids defined in the lost bytes are unknown, so new STRING records cannot be
   * numbered yet: they wait here until a record uses one (the collector writes a STRING right before
   * its first use), which tells how many ids were lost.
   */
  unnumberedStrings: number[] | undefined;
}

/** The record kinds whose first field is the tick delta: records() reads their time before their reader runs. */
const TIMED_RECORDS = (() => {
  const timed = new Uint8Array(256);
  for (const op of [Op.Push, Op.Pop, Op.Mark, Op.Start, Op.End, Op.EndDomain, Op.PushEx, Op.PopDomain, Op.MarkEx, Op.StartEx]) timed[op] = 1;
  return timed;
})();

/**
 * Timed record kinds that leave a thread's default-domain push/pop stack and nesting alone: the
 * PUSH/POP loop (plainRun) reads them with their own readers (or, for most MARK_EX, itself) and goes on.
 */
const STACK_NEUTRAL_RECORDS = (() => {
  const neutral = new Uint8Array(256);
  for (const op of [Op.Mark, Op.MarkEx, Op.Start, Op.StartEx, Op.End, Op.EndDomain]) neutral[op] = 1;
  return neutral;
})();

/** A payload whose value is a number (see payloadValue). */
interface NumberPayload {
  type: typeof PayloadType.U64 | typeof PayloadType.I64 | typeof PayloadType.F64 | typeof PayloadType.U32 | typeof PayloadType.I32 | typeof PayloadType.F32;
  value: number;
}

interface SyncObject {
  name: string;
  domain: number;
  t: number[];
  op: number[];
  thread: number[];
}

const SIGNAL_NAMES: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  11: 'SIGSEGV',
  15: 'SIGTERM',
};

export class NativeDecoder {
  private pid = 0;
  private process = -1;
  private haveProcess = false;
  private captureStartRel = 0;
  private endNs: number | undefined;
  private sawEnd = false;
  /** CLOCK_REALTIME ns read with the start pair, when the capture has it. */
  private wallStartNs: bigint | undefined;

  private readonly clock = new CaptureClock();
  private readonly notes: OnceNotes;
  private readonly domains: CaptureDomains;
  private readonly pairing: StartEndPairing;
  private readonly nesting = new PushNesting();
  private readonly styles: EventStyles;
  private readonly streams = new Map<number, StreamState>();
  private readonly registered = new Map<number, number>();
  private readonly syncs = new Map<number, SyncObject>();
  private readonly nvtxNamedThreads = new Set<number>();
  /** The payload and counters extensions (format 1.1); created with the PROCESS chunk. */
  private ext: ExtensionRecords | undefined;
  /** The CUDA side (format 1.3) and the push/pop ranges around CUDA calls; created with the PROCESS chunk. */
  private cuda: CudaRecords | undefined;
  private launching: LaunchingRanges | undefined;
  /** NOTE records by kind: what the collector refused or cut of the program's input. */
  private readonly collectorNotes = new Map<number, { text: string; count: number; offset: number }>();
  /** OPEN chunks (buffers the process left in the file), decoded by finish(). */
  private readonly openChunks: OpenEvents[] = [];
  private readonly skippedChunkKinds = new Map<number, { count: number; first: number }>();
  private readonly emptyName: number;
  private readonly attrs: EventAttrs = {};
  /** The location of the record being read: the builder copies what it keeps of a location, so one object serves every call. */
  private readonly place = { offset: 0 };
  private readonly reusedPayload: NumberPayload = { type: PayloadType.U64, value: 0 };
  /** Reinterprets payload bits as floats. */
  private readonly scratch = new DataView(new ArrayBuffer(8));
  private units = 0;
  /** While the PROCESS chunk is lost and only one clock pair is known: chunks waiting for a tick rate. */
  private heldFrames: Frame[] | undefined;
  private eventsDecoded = 0;
  /** Bytes skipped as damaged: definitions there (strings, domains...) appear as placeholders. */
  private damagedBytes = 0;
  /** The file's last chunk, an EVENTS chunk cut short: reported at the end, once it is known whether its events were kept. */
  private cutEvents: { problem: FrameProblem; streamId: number; streamOffset: number; recordsEnd: number } | undefined;

  private incompleteExtBlobs = 0;
  private truncatedStrings = 0;

  constructor(private readonly b: ModelBuilder) {
    this.emptyName = b.intern('');
    this.styles = new EventStyles(b);
    this.notes = new OnceNotes(b);
    this.domains = new CaptureDomains(b, this.notes);
    this.pairing = new StartEndPairing(b, this.notes);
  }

  /** Applies one verified chunk. Problems inside it are reported; the next chunk is independent. */
  chunk(frame: Frame): void {
    if (frame.kind !== Chunk.Process && !this.haveProcess) {
      if (this.damagedBytes === 0) {
        this.notes.warnOnce('no-process', `chunk of kind ${frame.kind} before the PROCESS chunk; ignored`, frame.offset, 'error');
        return;
      }
      this.processLost(frame.offset);
      this.heldFrames = [];
    }
    if (this.heldFrames) {
      const pair = sealPair(frame);
      if (!pair || !this.clock.learnsRate(pair[0], pair[1])) {
        this.heldFrames.push(frame);
        return;
      }
      this.releaseHeldFrames();
    }
    this.apply(frame);
  }

  /** Chunks that waited for a tick rate (the PROCESS chunk being lost), in file order. */
  private releaseHeldFrames(): void {
    const held = this.heldFrames ?? [];
    this.heldFrames = undefined;
    for (const frame of held) this.apply(frame);
  }

  private apply(frame: Frame): void {
    const bodyOffset = frame.offset + 12;
    const r = new ByteReader(frame.body, 0, frame.body.length, bodyOffset);
    try {
      switch (frame.kind) {
        case Chunk.Process:
          this.processChunk(r, frame.offset);
          break;
        case Chunk.Meta:
          this.metaChunk(r);
          break;
        case Chunk.Events:
          this.eventsChunk(r);
          break;
        case Chunk.End:
          this.endChunk(r);
          break;
        case Chunk.Open: {
          // Decoded last, when every definition and the latest clock pair are known; empty buffers are dropped now.
          const open = openChunkEvents(frame.body, frame.offset);
          if (typeof open === 'string') this.b.report('error', `${open}; its events are skipped`, { offset: frame.offset });
          else if (open) this.openChunks.push({ events: open.events.slice(), fileOffset: open.fileOffset });
          break;
        }
        case Chunk.Pad:
          break;
        case Chunk.CudaActivity:
          this.cuda?.activityChunk(r);
          break;
        default: {
          const seen = this.skippedChunkKinds.get(frame.kind);
          if (seen) seen.count++;
          else this.skippedChunkKinds.set(frame.kind, { count: 1, first: frame.offset });
        }
      }
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      this.notes.limited('chunk format', 'chunks whose records do not parse', 'error', `${e.message}; the rest of this chunk is skipped`, e.offset);
    }
  }

  /** A byte range the chunk reader skipped or could not read (chunks.ts), for the load report. */
  skipped(problem: FrameProblem): void {
    const cut = problem.cutChunk;
    if (cut?.kind === Chunk.Events && !this.cutEvents) {
      const r = new ByteReader(cut.bodyHead, 0, cut.bodyHead.length, cut.offset + 12);
      try {
        const streamId = r.varint();
        const streamOffset = r.varint();
        r.varintBig();
        r.varintBig();
        r.varint();
        this.cutEvents = { problem, streamId, streamOffset, recordsEnd: streamOffset + cut.declaredBody - r.pos };
        if (problem.resumedAt !== undefined) this.damage(problem.offset, problem.resumedAt);
        return;
      } catch (e) {
        if (!(e instanceof FormatError)) throw e; // its head is cut too: reported as it is
      }
    }
    this.notes.limited(`frames ${problem.severity}`, `damaged or unreadable byte ranges`, problem.severity, problem.message, problem.offset);
    if (problem.resumedAt !== undefined) this.damage(problem.offset, problem.resumedAt);
  }

  /** Bytes [from, to) of the file were skipped as damaged; later gaps and unknown ids are explained by it. */
  damage(from: number, to: number): void {
    this.damagedBytes += to - from;
    this.domains.damaged = true;
  }

  /** Closes what only the whole capture can close; call after the last chunk. */
  finish(): void {
    this.releaseHeldFrames();
    this.decodeOpenChunks();
    this.reportCutEvents();
    this.cuda?.finish();
    for (const { text, count, offset } of this.collectorNotes.values()) {
      this.b.report('warning', `the collector noted bad input from the program: ${text}${count > 1 ? ` (${count} times)` : ''}`, { offset });
    }
    if (this.haveProcess && !this.sawEnd) this.reportNoEnd();
    for (const [kind, { count, first }] of this.skippedChunkKinds) {
      this.b.report(
        'warning',
        `skipped ${count} chunk${count === 1 ? '' : 's'} of unknown kind ${kind} (written by a newer collector?)`,
        { offset: first },
      );
    }
    this.pairing.finish();
    this.nesting.report(this.b);
    this.finishSyncObjects();
    this.ext?.finish();
    this.clock.report(this.b);
    if (this.haveProcess) {
      const { firstNs, lastNs } = this.clock;
      const start = Math.round(this.captureStartRel * this.clock.defaultRate);
      this.b.setCaptureSpan(Math.min(start, firstNs, lastNs), Math.max(this.endNs ?? lastNs, lastNs));
    }
    if (this.incompleteExtBlobs > 0) {
      this.b.report(
        'warning',
        `${this.incompleteExtBlobs} extended payload(s) were not copied whole by the collector (size unknown, or above 64 KiB)`,
      );
    }
    if (this.truncatedStrings > 0) {
      this.b.report('warning', `${this.truncatedStrings} message(s) were cut to 16 KiB by the collector`);
    }
    this.b.setProperty('events', String(this.eventsDecoded));
    if (this.units > 0) this.b.setProperty('NVTX linkage units', String(this.units));
  }

  // ---------------------------------------------------------------- PROCESS and END

  private processChunk(r: ByteReader, offset: number): void {
    if (this.haveProcess) {
      this.notes.warnOnce('two-process', 'a second PROCESS chunk; ignored', offset);
      return;
    }
    let name = '';
    let clockKind = 0;
    let tickRate = 0;
    let havePair = false;
    let t0 = 0n;
    let n0 = 0n;
    while (!r.done) {
      const tag = r.varint();
      const value = r.bytesOf(r.varint());
      const v = new ByteReader(value, 0, value.length, r.offset - value.length);
      switch (tag) {
        case ProcessTag.Writer:
          this.b.setProperty('collector', utf8Text(value));
          break;
        case ProcessTag.Pid:
          this.pid = v.varint();
          break;
        case ProcessTag.Ppid:
          this.b.setProperty('parent pid', String(v.varint()));
          break;
        case ProcessTag.Name:
          name = utf8Text(value);
          break;
        case ProcessTag.Exe:
          this.b.setProperty('executable', utf8Text(value));
          break;
        case ProcessTag.CommandLine:
          this.b.setProperty('command line', commandLine(value));
          break;
        case ProcessTag.ClockKind:
          clockKind = v.varint();
          break;
        case ProcessTag.StartPair:
          t0 = v.varintBig();
          n0 = v.varintBig();
          havePair = true;
          break;
        case ProcessTag.TickRate:
          tickRate = v.varint();
          break;
        case ProcessTag.WallStart:
          this.wallStartNs = v.varintBig();
          this.b.setProperty('started', wallClock(this.wallStartNs));
          break;
        case ProcessTag.Host:
          this.b.setProperty('host', utf8Text(value));
          break;
        case ProcessTag.ParentPid:
          this.b.setProperty('forked from pid', String(v.varint()));
          break;
        case ProcessTag.Cwd:
          this.b.setProperty('working directory', utf8Text(value));
          break;
        case ProcessTag.BufferSize:
          this.b.setProperty('collector buffer', `${Math.round(v.varint() / 1024)} KiB per thread`);
          break;
        case ProcessTag.CaptureStart:
          this.captureStartRel = v.svarint();
          break;
        default:
          break; // unknown tags are skipped by design
      }
    }
    if (!havePair) r.fail('the PROCESS chunk has no start clock pair');
    this.haveProcess = true;
    this.clock.start(t0, n0, clockKind === ClockKind.MonotonicRaw || tickRate <= 0 ? 1 : 1e9 / tickRate);
    this.process = this.b.process(this.pid, name);
    this.domains.pid = this.pid;
    this.b.setProperty('pid', String(this.pid));
    if (name) this.b.setDisplayName(name);
    this.b.setClock('CLOCK_MONOTONIC_RAW', n0);
    this.ext = new ExtensionRecords(
      { b: this.b, pid: this.pid, process: this.process, clock: this.clock, domains: this.domains, pairing: this.pairing, nesting: this.nesting, notes: this.notes },
      clockKind === ClockKind.Tsc,
    );
    this.startCuda();
    const clockName =
      clockKind === ClockKind.Tsc ? 'CPU TSC' : clockKind === ClockKind.Cntvct ? 'Arm generic timer' : 'CLOCK_MONOTONIC_RAW';
    this.b.setProperty(
      'event clock',
      tickRate > 0 && clockKind !== ClockKind.MonotonicRaw ? `${clockName} at ${(tickRate / 1e9).toFixed(3)} GHz` : clockName,
    );
  }

  /** Said first among what the end of the file tells: without it a killed run looks complete. */
  private reportNoEnd(): void {
    const last = this.clock.lastNs;
    const start = Math.round(this.captureStartRel * this.clock.defaultRate);
    const elapsed = last - Math.min(start, last);
    const into = `${elapsed < 1e9 ? `${(elapsed / 1e6).toFixed(3)} ms` : `${(elapsed / 1e9).toFixed(3)} s`} into the capture`;
    const wall = this.wallStartNs === undefined ? into : `${wallTime(this.wallStartNs + BigInt(Math.round(last)))} (${into})`;
    const events = this.eventsDecoded.toLocaleString('en-US');
    this.b.setProperty('capture end', 'no END chunk: the process did not exit normally');
    this.b.report(
      'warning',
      `capture has no END chunk: the process did not exit normally (killed, e.g. by kill -9 or the OOM killer, left by _exit, or still running); ${events} event records up to ${wall} were kept`,
    );
  }

  /** The PROCESS chunk was among the damaged bytes: decode the rest with what the chunks tell. */
  private processLost(offset: number): void {
    this.haveProcess = true;
    this.clock.startWithoutPair();
    this.process = this.b.process(0, 'process (PROCESS chunk lost)');
    this.ext = new ExtensionRecords(
      { b: this.b, pid: 0, process: this.process, clock: this.clock, domains: this.domains, pairing: this.pairing, nesting: this.nesting, notes: this.notes },
      false,
    );
    this.startCuda();
    this.b.report(
      'error',
      'the PROCESS chunk is among the damaged bytes: the pid, the process facts and the capture start are unknown; events are kept, timed at the rate of the chunks\' clock pairs from the capture start (the absolute clock origin is unknown)',
      { offset },
    );
  }

  private startCuda(): void {
    this.cuda = new CudaRecords({ b: this.b, pid: this.pid, process: this.process, clock: this.clock, notes: this.notes });
    this.launching = new LaunchingRanges(this.cuda.launchingRangeClosed);
  }

  private endChunk(r: ByteReader): void {
    this.sawEnd = true;
    while (!r.done) {
      const tag = r.varint();
      const value = r.bytesOf(r.varint());
      const v = new ByteReader(value, 0, value.length, r.offset - value.length);
      switch (tag) {
        case EndTag.Pair: {
          const tick = v.varintBig();
          const ns = v.varintBig();
          if (this.clock.plausiblePair(tick, ns)) {
            this.endNs = Number(ns - this.clock.n0);
            this.clock.seePair(tick, ns);
          } else {
            this.b.report('warning', `the END chunk's clock pair disagrees with the start pair and tick rate (damage); the capture ends with its last event`, { offset: v.offset });
          }
          break;
        }
        case EndTag.Reason: {
          const why = v.varint();
          const sig = v.done ? 0 : v.varint();
          this.b.setProperty(
            'capture end',
            why === EndReason.Exit
              ? 'normal exit'
              : why === EndReason.Signal
                ? `signal ${sig}${SIGNAL_NAMES[sig] ? ` (${SIGNAL_NAMES[sig]})` : ''}`
                : `reason ${why}`,
          );
          break;
        }
        case EndTag.Cuda:
          this.cuda?.endTotals(v.varint(), v.varint());
          break;
        case EndTag.Lost: {
          const lost = v.varint();
          if (lost > 0) {
            this.b.setProperty('events lost', String(lost));
            this.b.report('warning', `the collector could not write ${lost} events (output error while capturing)`);
          }
          break;
        }
        default:
          break;
      }
    }
  }

  // ---------------------------------------------------------------- time

  /** The pair a META or EVENTS chunk was sealed with: the tick rate and time bound of its records. */
  private setRate(r: ByteReader): void {
    const at = r.offset;
    const tc = r.varintBig();
    this.clock.seal(tc, r.varintBig(), at);
  }

  /** The time of a stream record `dt` ticks after the previous one (times of a stream never go back). */
  private time(st: StreamState, dt: number, at: number): number {
    const clock = this.clock;
    st.prevRel += dt;
    if (!(st.prevRel >= 0 && st.prevRel <= clock.sealRel)) st.prevRel = clock.bounded(st.prevRel, at);
    let t = Math.round(st.prevRel * clock.rate);
    if (t < st.lastNs) t = st.lastNs;
    st.lastNs = t;
    clock.see(t);
    return t;
  }

  // ---------------------------------------------------------------- META

  private metaChunk(r: ByteReader): void {
    this.setRate(r);
    while (!r.done) {
      const recordOffset = r.offset;
      const op = r.u8();
      const length = r.varint();
      const body = r.bytesOf(length);
      const m = new ByteReader(body, 0, body.length, r.offset - body.length);
      try {
        this.metaRecord(op, m, recordOffset);
      } catch (e) {
        // The length prefix delimits the record: report it and go on with the next one.
        if (!(e instanceof FormatError)) throw e;
        this.notes.limited('meta format', 'metadata records that do not parse', 'error', `${e.message} (metadata record of kind ${op})`, e.offset);
      }
    }
  }

  private metaRecord(op: number, m: ByteReader, recordOffset: number): void {
    const dt = m.svarint(); // the record's tick: metadata is not drawn, but clock readings need it
    m.varint(); // calling thread
    switch (op) {
      case MetaOp.Init:
        this.units = Math.max(this.units, m.varint());
        break;
      case MetaOp.DomainCreate: {
        const id = m.varint();
        const name = m.str();
        this.domains.create(id, name);
        break;
      }
      case MetaOp.DomainDestroy:
        break;
      case MetaOp.RegisteredString: {
        const domain = m.varint();
        const id = m.varint();
        const text = m.str();
        this.registered.set(id, this.b.intern(text, 'name', { offset: recordOffset }));
        // Format 1.1: the handle value, which payload entries of type REGISTERED_STRING_HANDLE hold.
        if (!m.done) this.ext?.registeredString(this.domains.indexOf(domain, recordOffset), m.varint(), text);
        break;
      }
      case MetaOp.CategoryName: {
        const domain = this.domains.indexOf(m.varint(), recordOffset);
        const category = m.varint();
        this.b.nameCategory(domain, category, m.str(), { offset: recordOffset });
        break;
      }
      case MetaOp.ThreadName: {
        const tid = m.varint();
        this.nvtxNamedThreads.add(tid);
        this.b.thread(this.pid, tid, m.str(), { offset: recordOffset });
        break;
      }
      case MetaOp.ResourceName: {
        const type = m.varint();
        const handle = m.varintBig();
        const name = m.str();
        this.b.nameResource({ kind: resourceKind(type), handle: resourceHandle(type, handle), name, process: this.process, domain: 0 });
        this.cuda?.resourceName(type, handle, name, dt);
        break;
      }
      case MetaOp.ResourceCreate: {
        const domain = this.domains.indexOf(m.varint(), recordOffset);
        m.varint(); // resource id
        const type = m.varint();
        const identifier = m.varintBig();
        const name = m.str();
        this.b.nameResource({ kind: resourceKind(type), handle: resourceHandle(type, identifier), name, process: this.process, domain });
        break;
      }
      case MetaOp.ResourceDestroy:
        break;
      case MetaOp.SyncCreate: {
        const domain = m.varint();
        const id = m.varint();
        const sync = this.syncObject(id);
        sync.domain = domain;
        sync.name = m.str();
        break;
      }
      case MetaOp.SyncDestroy:
        break;
      case MetaOp.Note: {
        // Format 1.2: input the collector refused or cut; the latest count of a kind is its total.
        const kind = m.varint();
        const count = m.varint();
        const text = m.str();
        const seen = this.collectorNotes.get(kind);
        this.collectorNotes.set(kind, { text, count: Math.max(count, seen?.count ?? 0), offset: seen?.offset ?? recordOffset });
        break;
      }
      default:
        if (this.ext?.meta(op, m, dt, recordOffset)) break;
        if (this.cuda?.meta(op, m, dt, recordOffset)) break;
        this.notes.warnOnce(`meta:${op}`, `skipped metadata records of unknown kind ${op} (written by a newer collector?)`, recordOffset);
    }
  }

  private syncObject(id: number): SyncObject {
    let s = this.syncs.get(id);
    if (!s) {
      s = { name: '', domain: 0, t: [], op: [], thread: [] };
      this.syncs.set(id, s);
    }
    return s;
  }

  // ---------------------------------------------------------------- EVENTS

  /** The buffers a process left in the file (OPEN chunks): what no EVENTS chunk holds is decoded here. */
  private decodeOpenChunks(): void {
    let buffers = 0;
    let events = 0;
    for (const open of this.openChunks) {
      const before = this.eventsDecoded;
      try {
        this.eventsChunk(new ByteReader(open.events, 0, open.events.length, open.fileOffset), true);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        this.b.report('error', `${e.message}; the rest of this buffer is skipped`, { offset: e.offset });
      }
      if (this.eventsDecoded > before) {
        buffers++;
        events += this.eventsDecoded - before;
      }
    }
    if (buffers > 0) {
      this.b.report(
        'info',
        `${events} event${events === 1 ? '' : 's'} recovered from ${buffers} thread buffer${buffers === 1 ? '' : 's'} the process left unwritten (it ended without exit handlers: _exit, kill -9, a crash); their times use the capture's overall clock rate`,
        { offset: this.openChunks[0].fileOffset },
      );
    }
  }

  /**
   * A kill during the write of an EVENTS chunk leaves it cut short at the end of the file; the
   * collector empties a thread's buffer (an OPEN chunk) only after the write, so the events are
   * usually in that buffer too. Only events no chunk holds are reported as lost.
   */
  private reportCutEvents(): void {
    if (!this.cutEvents) return;
    const { problem, streamId, streamOffset, recordsEnd } = this.cutEvents;
    const st = this.streams.get(streamId);
    const held = st !== undefined && st.decodedTo >= recordsEnd;
    // `resumeNeeded`: the stream's last chunk or buffer did not parse to its end (reported on its own).
    if (held && !st.resumeNeeded) {
      const cut = problem.cutChunk!;
      const present = (problem.resumedAt ?? cut.offset) - cut.offset - 12;
      this.b.report(
        'info',
        `the last chunk, at byte ${cut.offset} (${present} of ${cut.declaredBody} body bytes present), was cut short: the process ended while writing it (e.g. kill -9). Its events were also in the thread's buffer left in the file and were recovered from there: none is lost`,
        { offset: cut.offset },
      );
      return;
    }
    const from = Math.max(st?.decodedTo ?? 0, streamOffset);
    const lost = held
      ? `its events were also in the thread's buffer, which did not read to its end (see that message)`
      : `the events of stream ${streamId} in its bytes ${from}..${recordsEnd} are lost`;
    this.notes.limited(`frames ${problem.severity}`, `damaged or unreadable byte ranges`, problem.severity, `${problem.message}; ${lost}`, problem.offset);
  }

  /** `open`: the EVENTS body of an OPEN chunk, whose clock pair is not kept (the capture's latest pair is used). */
  private eventsChunk(r: ByteReader, open = false): void {
    const chunkOffset = r.offset - 12;
    const streamId = r.varint();
    const streamOffset = r.varint();
    if (open) {
      r.varintBig();
      r.varintBig();
      this.clock.openBuffer();
    } else {
      this.setRate(r);
    }
    r.varint(); // event count: for progress and summaries
    const recordsLength = r.end - r.pos;
    let st = this.streams.get(streamId);
    if (!st) {
      st = {
        id: streamId,
        thread: -1,
        tid: 0,
        decodedTo: 0,
        prevRel: 0,
        lastNs: 0,
        strings: [this.emptyName],
        resumeNeeded: false,
        reportedMissingString: false,
        unnumberedStrings: undefined,
      };
      this.streams.set(streamId, st);
    }
    if (streamOffset + recordsLength <= st.decodedTo) return; // already decoded (a flush copied it twice)
    if (streamOffset > st.decodedTo || st.resumeNeeded) {
      const overlap = Math.max(0, st.decodedTo - streamOffset);
      this.resumeAfterGap(st, r.bytes, r.pos + overlap, r.end, Math.max(st.decodedTo, streamOffset), chunkOffset);
      r.pos += overlap;
    } else {
      r.pos += st.decodedTo - streamOffset;
    }
    try {
      this.records(r, st);
    } catch (e) {
      st.resumeNeeded = true;
      throw e;
    } finally {
      st.decodedTo = streamOffset + recordsLength;
    }
  }

  /**
   * A chunk of a stream after lost bytes: decode it with what is known. Pushes still open are
   * closed at the stream's last known time (their pops may be among the lost bytes); the chunk's
   * times are placed so its last event falls at its seal tick (the previous tick is lost), never
   * before the stream's last time; string ids the lost bytes defined become placeholders.
   */
  private resumeAfterGap(st: StreamState, bytes: Uint8Array, recordsAt: number, recordsEnd: number, resumeAt: number, chunkOffset: number): void {
    const lostBytes = resumeAt - st.decodedTo;
    let closed = 0;
    if (st.thread >= 0) {
      const open = this.nesting.takeOpen(st.thread);
      this.launching?.forget(st.thread);
      for (let domain = 0; domain < open.length; domain++) {
        for (let k = open[domain] ?? 0; k > 0; k--, closed++) this.b.pop(st.thread, st.lastNs, domain, { offset: chunkOffset });
      }
    }
    if (st.thread < 0 && st.decodedTo === 0) {
      // Its THREAD record was in the lost bytes: a thread of its own, named after the stream.
      st.tid = -st.id;
      st.thread = this.b.thread(this.pid, st.tid, `stream ${st.id} (thread record lost)`);
    }
    const span = recordTickSpan(bytes, recordsAt, recordsEnd);
    // Unbounded seals (a pair that did not read as plausible, or no start pair) cannot place it.
    if (Number.isFinite(this.clock.sealRel)) st.prevRel = Math.max(st.prevRel, this.clock.sealRel - span);
    st.unnumberedStrings = [];
    st.resumeNeeded = false;
    const lost = lostBytes > 0 ? `misses stream bytes ${st.decodedTo}..${resumeAt}` : `lost the rest of a chunk that did not parse`;
    const why = this.damagedBytes > 0 ? ' (lost with the damaged bytes)' : ' (an earlier chunk of it is lost)';
    const pops = closed > 0 ? `; ${closed} range${closed === 1 ? '' : 's'} still open were closed at the gap, their ends being lost` : '';
    this.notes.limited(
      'stream gap',
      'gaps in thread streams',
      'error',
      `thread stream ${st.id} ${lost}${why}; its later events are kept, timed from the chunk's flush time (they may be placed a little late)${pops}`,
      chunkOffset,
    );
  }

  private threadOf(st: StreamState, r: ByteReader): number {
    if (st.thread < 0) {
      this.notes.warnOnce(`nothread:${st.id}`, `thread stream ${st.id} has events before its THREAD record`, r.offset);
      st.thread = this.b.thread(this.pid, 0);
    }
    return st.thread;
  }

  private stringOf(st: StreamState, sid: number, r: ByteReader): number {
    const s = st.strings[sid];
    if (s !== undefined) return s;
    if (st.unnumberedStrings !== undefined && st.unnumberedStrings.length > 0 && this.numberStrings(st, sid)) return st.strings[sid];
    if (!st.reportedMissingString) {
      st.reportedMissingString = true;
      const why = st.unnumberedStrings !== undefined ? ', defined in the lost bytes' : ', which it never defined';
      this.notes.limited('missing string', 'streams referring to undefined strings', 'error', `thread stream ${st.id} refers to string ${sid}${why}; shown as a placeholder`, r.offset);
    }
    return this.b.intern(st.unnumberedStrings !== undefined ? `<string ${sid} lost to damage>` : `<missing string ${sid}>`);
  }

  /** The first use of a string defined after a gap: it is the last one defined, which numbers them all. */
  private numberStrings(st: StreamState, sid: number): boolean {
    const pending = st.unnumberedStrings!;
    const first = sid - (pending.length - 1);
    if (first < st.strings.length || first - st.strings.length > 1 << 20) return false;
    if (first > st.strings.length) {
      const ids = first - 1 > st.strings.length ? `ids ${st.strings.length}–${first - 1}` : `id ${st.strings.length}`;
      this.notes.limited('lost strings', 'streams with strings lost to damage', 'warning', `thread stream ${st.id}: string ${ids} were defined in the lost bytes; events that use them show "<string N lost to damage>"`);
    }
    for (let id = st.strings.length; id < first; id++) st.strings.push(this.b.intern(`<string ${id} lost to damage>`));
    for (const s of pending) st.strings.push(s);
    st.unnumberedStrings = undefined;
    return true;
  }

  private at(offset: number): { offset: number } {
    this.place.offset = offset;
    return this.place;
  }

  private numberPayload(type: NumberPayload['type'], value: number): PayloadValue {
    const p = this.reusedPayload;
    p.type = type;
    p.value = value;
    return p;
  }

  private resetAttrs(nameId: number, domain: number): EventAttrs {
    const a = this.attrs;
    a.nameId = nameId;
    a.name = undefined;
    a.domain = domain === 0 ? undefined : domain;
    a.color = undefined;
    a.category = undefined;
    a.payload = undefined;
    a.style = undefined;
    return a;
  }

  /** Attributes of a hot record (message only, default domain), with its style from the decoder's cache. */
  private plainAttrs(st: StreamState, sid: number, r: ByteReader): EventAttrs {
    const a = this.resetAttrs(this.stringOf(st, sid, r), 0);
    a.style = this.styles.styleOf(a.nameId!, 0, 0);
    return a;
  }

  /**
   * The records of one stream slice. Each record kind that fills a capture has a method of its own,
   * called through a table by kind (a call that V8 does not inline), so that each is optimized on
   * its own; their common first field, the time, is read here. V8 inlines the calls of a method
   * last to first while its budget lasts: in one switch over every kind, or with the time read in
   * each method before the builder's calls, the reader's varints and the time conversion were left
   * as calls (docs/performance.md, "The native decoder's CPU"). Runs of push/pop records (and the
   * records between them that leave the stack alone) go to one loop, `plainRun`.
   */
  private records(r: ByteReader, st: StreamState): void {
    const readers = this.recordReaders;
    const timed = TIMED_RECORDS;
    while (r.pos < r.end) {
      const first = r.bytes[r.pos];
      if ((first === Op.Push || first === Op.Pop) && this.plainRun(r, st)) continue;
      const at = r.offset;
      const op = r.u8();
      if (timed[op] === 1) this.recordTime = this.time(st, r.svarint(), at);
      readers[op](r, st, at, op);
    }
  }

  /**
   * A run of records in one loop, with what every one needs looked up once: the thread's online
   * stack (written directly, see `ModelBuilder.directStack`), its nesting count, the clock and the
   * stream's strings, and the varints read inline. PUSH, POP, and default-domain PUSH_EX and MARK_EX
   * whose payload (if any) is a 32-bit or safe 64-bit integer (most of a capture's records) are read
   * here; the other kinds of STACK_NEUTRAL_RECORDS, and MARK_EX it does not read, are read by their
   * own readers without leaving the loop. It stops before the first record it does not read the
   * way the general path would (another kind, a varint that is long or runs past the chunk, a
   * string not defined or registered, another payload or domain, a time out of the chunk's bound,
   * a push too deep), which the general path then reads. False when it read no
   * record (no thread yet, the row not made or not online, dropped pushes waiting for their pops,
   * or times that went back on the row). Measured in docs/performance.md ("one loop per run").
   */
  private plainRun(r: ByteReader, st: StreamState): boolean {
    const thread = st.thread;
    if (thread < 0) return false;
    const stack = this.b.directStack(thread);
    if (stack === undefined || !(stack.lastT <= st.lastNs)) return false;
    let depth = this.nesting.defaultOpen(thread);
    if (depth < 0) return false;
    const bytes = r.bytes;
    const end = r.end;
    const base = r.fileOffset;
    const clock = this.clock;
    const rate = clock.rate;
    const sealRel = clock.sealRel;
    const strings = st.strings;
    const styles = this.styles;
    const launching = this.launching;
    const launchingStack = launching?.stackOf(thread, 0);
    const readers = this.recordReaders;
    let pos = r.pos;
    let rel = st.prevRel;
    let t = st.lastNs;
    let stackT = stack.lastT;
    // In the order the general path makes them (what an exception, e.g. out of memory, leaves):
    // records whose time was taken, whose range was written, and that were counted.
    let timed = 0;
    let firstTimed = 0;
    let written = 0;
    let firstWritten = 0;
    let lastWritten = 0;
    let n = 0;
    try {
      while (pos < end) {
        const op = bytes[pos];
        const neutral = STACK_NEUTRAL_RECORDS[op] === 1;
        if (op !== Op.Push && op !== Op.Pop && op !== Op.PushEx && !neutral) break;
        // The tick delta: a zigzag varint of one to four bytes.
        let p = pos + 1;
        if (p + 4 > end) break;
        let z = bytes[p++];
        if (z >= 0x80) {
          const b1 = bytes[p++];
          z = (z & 0x7f) | ((b1 & 0x7f) << 7);
          if (b1 >= 0x80) {
            const b2 = bytes[p++];
            z |= (b2 & 0x7f) << 14;
            if (b2 >= 0x80) {
              const b3 = bytes[p++];
              if (b3 >= 0x80) break;
              z |= b3 << 21;
            }
          }
        }
        const nextRel = rel + ((z >>> 1) ^ -(z & 1));
        if (!(nextRel >= 0 && nextRel <= sealRel)) break;
        let nameId = 0;
        let category = 0;
        let hasCategory = false;
        let color = 0;
        let argb = false;
        /** PayloadType of a number payload read here; 0: none. */
        let payloadType = 0;
        let payload = 0;
        /** The range id of a START_EX or END. */
        let id = 0;
        /**
         * A record whose fields this loop reads: else a PUSH_EX ends the run, and the other kinds
         * (of STACK_NEUTRAL_RECORDS) go to their readers.
         */
        let read = true;
        if (op === Op.PushEx || op === Op.MarkEx || op === Op.StartEx) {
          // Default domain (one zero byte), a START_EX's range id, then what commonAttrs reads, with a number payload.
          read = false;
          attrs: {
            if (p + 3 > end || bytes[p] !== 0) break attrs;
            let at = p + 1;
            if (op === Op.StartEx) {
              // Up to 7 bytes (49 bits): the sum is exact, as ByteReader.varint's.
              let scale = 1;
              for (let k = 0; ; k++) {
                if (k === 7 || at >= end) break attrs;
                const byte = bytes[at++];
                id += (byte & 0x7f) * scale;
                if (byte < 0x80) break;
                scale *= 128;
              }
              if (at + 2 > end) break attrs;
            }
            const length = bytes[at];
            let q = at + 1;
            const attrsEnd = q + length;
            if (length >= 0x80 || length === 0 || attrsEnd > end) break attrs;
            const mask = bytes[q++];
            if ((mask & ~(Attr.Category | Attr.Color | Attr.Payload | Attr.Message)) !== 0) break attrs;
            if (mask & Attr.Category) {
              if (q >= attrsEnd || bytes[q] >= 0x80) break attrs;
              category = bytes[q++];
              hasCategory = true;
            }
            if (mask & Attr.Color) {
              if (q + 5 > attrsEnd || bytes[q] >= 0x80) break attrs;
              argb = bytes[q] === NVTX_COLOR_ARGB;
              if (argb) color = (bytes[q + 1] | (bytes[q + 2] << 8) | (bytes[q + 3] << 16) | (bytes[q + 4] << 24)) >>> 0;
              q += 5;
            }
            if (mask & Attr.Payload) {
              // What payloadValue makes a number of (a bigint, a float or another type: its reader).
              if (q + 9 > attrsEnd) break attrs;
              const type = bytes[q];
              const lo = (bytes[q + 1] | (bytes[q + 2] << 8) | (bytes[q + 3] << 16) | (bytes[q + 4] << 24)) >>> 0;
              const hi = bytes[q + 5] | (bytes[q + 6] << 8) | (bytes[q + 7] << 16) | (bytes[q + 8] << 24);
              if (type === NvtxPayload.I64) {
                if (!(hi >= -0x200000 && hi < 0x200000)) break attrs;
                payloadType = PayloadType.I64;
                payload = hi * 4294967296 + lo;
              } else if (type === NvtxPayload.U64) {
                if (!(hi >= 0 && hi < 0x200000)) break attrs;
                payloadType = PayloadType.U64;
                payload = hi * 4294967296 + lo;
              } else if (type === NvtxPayload.U32) {
                payloadType = PayloadType.U32;
                payload = lo;
              } else if (type === NvtxPayload.I32) {
                payloadType = PayloadType.I32;
                payload = lo | 0;
              } else break attrs;
              q += 9;
            }
            if (mask & Attr.Message) {
              if (q + 2 > attrsEnd || bytes[q] >= 0x80 || bytes[q] === MessageType.Registered) break attrs;
              let sid = bytes[q + 1];
              if (sid >= 0x80) {
                if (q + 3 > attrsEnd || bytes[q + 2] >= 0x80) break attrs;
                sid = (sid & 0x7f) | (bytes[q + 2] << 7);
              }
              if (sid >= strings.length) break attrs;
              nameId = strings[sid];
              if (nameId === undefined) break attrs;
            } else {
              nameId = this.emptyName;
            }
            p = attrsEnd; // fields added by later versions
            read = true;
          }
          if (op === Op.PushEx && (!read || depth >= MAX_PUSH_DEPTH)) break;
        } else if (op === Op.Push) {
          // The string id: one to three bytes.
          if (p + 3 > end || depth >= MAX_PUSH_DEPTH) break;
          let sid = bytes[p++];
          if (sid >= 0x80) {
            const b1 = bytes[p++];
            sid = (sid & 0x7f) | ((b1 & 0x7f) << 7);
            if (b1 >= 0x80) {
              const b2 = bytes[p++];
              if (b2 >= 0x80) break;
              sid |= b2 << 14;
            }
          }
          if (sid >= strings.length) break;
          nameId = strings[sid];
          if (nameId === undefined) break;
        } else if (op === Op.End) {
          // The range id, as for START_EX.
          let scale = 1;
          read = false;
          for (let k = 0, at = p; k < 7 && at < end; k++) {
            const byte = bytes[at++];
            id += (byte & 0x7f) * scale;
            if (byte < 0x80) {
              p = at;
              read = true;
              break;
            }
            scale *= 128;
          }
        } else if (op !== Op.Pop) {
          read = false;
        }
        if (!read) {
          // A record of STACK_NEUTRAL_RECORDS: what records() does for it, with the stream's time stored first.
          rel = nextRel;
          let tNs = Math.round(rel * rate);
          if (tNs < t) tNs = t;
          t = tNs;
          if (timed++ === 0) firstTimed = t;
          st.prevRel = rel;
          st.lastNs = t;
          r.pos = p;
          this.recordTime = t;
          readers[op](r, st, base + pos, op);
          pos = r.pos;
          continue;
        }
        // The record is taken: what time() does, then what its reader does.
        rel = nextRel;
        let tNs = Math.round(rel * rate);
        if (tNs < t) tNs = t;
        t = tNs;
        if (timed++ === 0) firstTimed = t;
        if (op === Op.MarkEx) {
          // markExRecord's calls (the builder sees the mark's time itself).
          n++;
          pos = p;
          const style = styles.styleOf(nameId, color, category);
          this.b.markStyled(thread, t, 0, style, payloadType === 0 ? undefined : this.numberPayload(payloadType as NumberPayload['type'], payload));
          continue;
        }
        if (op === Op.StartEx || op === Op.End) {
          // startExRecord's and endRecord's calls.
          n++;
          const at = base + pos;
          pos = p;
          if (op === Op.End) {
            launching?.end(id, thread, t);
            this.pairing.end(id, thread, t, at);
            continue;
          }
          const attrs = this.resetAttrs(nameId, 0);
          if (hasCategory) attrs.category = category;
          if (argb) attrs.color = color;
          if (payloadType !== 0) attrs.payload = this.numberPayload(payloadType as NumberPayload['type'], payload);
          launching?.start(id, thread, t, nameId, attrs.color, 0);
          if (!this.pairing.isOpen(id)) attrs.style = styles.styleOf(nameId, color, category);
          this.pairing.start(id, thread, t, attrs, at);
          continue;
        }
        const loc = offsetLocCode(base + pos);
        // A plain PUSH left color and category at 0.
        stackT = t;
        if (op === Op.Pop) {
          if (depth > 0) depth--;
          stack.pop(t, loc);
        } else {
          depth++;
          const style = styles.styleOf(nameId, color, category);
          stack.push(t, style, payloadType === 0 ? -1 : this.b.directPayloadRow(this.numberPayload(payloadType as NumberPayload['type'], payload)), loc);
        }
        if (written++ === 0) firstWritten = t;
        lastWritten = t;
        if (launchingStack !== undefined) {
          if (op !== Op.Pop) launchingStack.push(t, nameId, argb ? color : NaN);
          else {
            const at = launchingStack.pop();
            if (at >= 0) launching!.closed(thread, 0, launchingStack, at, t);
          }
        }
        n++;
        pos = p;
      }
    } finally {
      if (timed > 0) {
        r.pos = pos;
        st.prevRel = rel;
        st.lastNs = t;
        clock.see(firstTimed);
        clock.see(t);
        stack.lastT = stackT;
        if (written > 0) this.b.sawTimes(firstWritten, lastWritten);
        this.nesting.setDefaultOpen(thread, depth);
        this.eventsDecoded += n;
      }
    }
    return n > 0;
  }

  /**
   * The time of the record being read, for TIMED_RECORDS. A field, not an argument: a double passed
   * to a call that is not inlined is boxed, a heap allocation per record (0.5: a double from the
   * start, so that V8 keeps the field as one).
   */
  private recordTime = 0.5;

  /** Record kind (one byte) -> its reader. */
  private readonly recordReaders: ((r: ByteReader, st: StreamState, at: number, op: number) => void)[] = (() => {
    const readers = Array.from({ length: 256 }, () => (r: ByteReader, st: StreamState, at: number, op: number) => this.otherRecord(op, r, st, at));
    readers[Op.Push] = (r, st, at) => this.pushRecord(r, st, at, this.recordTime);
    readers[Op.Pop] = (r, st, at) => this.popRecord(r, st, at, this.recordTime);
    readers[Op.Mark] = (r, st) => this.markRecord(r, st, this.recordTime);
    readers[Op.Start] = (r, st, at) => this.startRecord(r, st, at, this.recordTime);
    readers[Op.End] = (r, st, at) => this.endRecord(r, st, at, this.recordTime, false);
    readers[Op.EndDomain] = (r, st, at) => this.endRecord(r, st, at, this.recordTime, true);
    readers[Op.PushEx] = (r, st, at) => this.pushExRecord(r, st, at, this.recordTime);
    readers[Op.PopDomain] = (r, st, at) => this.popDomainRecord(r, st, at, this.recordTime);
    readers[Op.MarkEx] = (r, st, at) => this.markExRecord(r, st, at, this.recordTime);
    readers[Op.StartEx] = (r, st, at) => this.startExRecord(r, st, at, this.recordTime);
    return readers;
  })();

  private pushRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const nameId = this.stringOf(st, r.varint(), r);
    const style = this.styles.styleOf(nameId, 0, 0);
    const thread = this.threadOf(st, r);
    if (this.nesting.push(thread, 0, at)) {
      this.b.pushStyled(thread, t, 0, style, undefined, at);
      this.launching?.push(thread, 0, t, nameId, undefined);
    }
    this.eventsDecoded++;
  }

  private popRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const thread = this.threadOf(st, r);
    if (this.nesting.pop(thread, 0)) {
      this.b.popAt(thread, t, 0, at);
      this.launching?.pop(thread, 0, t);
    }
    this.eventsDecoded++;
  }

  private markRecord(r: ByteReader, st: StreamState, t: number): void {
    const thread = this.threadOf(st, r);
    const style = this.styles.styleOf(this.stringOf(st, r.varint(), r), 0, 0);
    this.b.markStyled(thread, t, 0, style, undefined);
    this.eventsDecoded++;
  }

  private startRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const id = r.varint();
    const thread = this.threadOf(st, r);
    const attrs = this.plainAttrs(st, r.varint(), r);
    this.launching?.start(id, thread, t, attrs.nameId!, undefined, 0);
    this.pairing.start(id, thread, t, attrs, at);
    this.eventsDecoded++;
  }

  /** END, or END_DOMAIN (`withDomain`), whose domain only needs to be known. */
  private endRecord(r: ByteReader, st: StreamState, at: number, t: number, withDomain: boolean): void {
    if (withDomain) this.domains.indexOf(r.varint(), at);
    const id = r.varint();
    const thread = this.threadOf(st, r);
    this.launching?.end(id, thread, t);
    this.pairing.end(id, thread, t, at);
    this.eventsDecoded++;
  }

  private pushExRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const domain = this.domains.indexOf(r.varint(), at);
    const attrs = this.readAttrs(r, st, domain);
    const thread = this.threadOf(st, r);
    if (this.nesting.push(thread, domain, at)) {
      const style = this.cachedStyle(attrs, domain);
      if (style >= 0) this.b.pushStyled(thread, t, domain, style, attrs.payload, at);
      else this.b.push(thread, t, attrs, this.at(at));
      this.launching?.push(thread, domain, t, attrs.nameId!, attrs.color);
    }
    this.eventsDecoded++;
  }

  private popDomainRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const domain = this.domains.indexOf(r.varint(), at);
    const thread = this.threadOf(st, r);
    if (this.nesting.pop(thread, domain)) {
      this.b.popAt(thread, t, domain, at);
      this.launching?.pop(thread, domain, t);
    }
    this.eventsDecoded++;
  }

  private markExRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const domain = this.domains.indexOf(r.varint(), at);
    const attrs = this.readAttrs(r, st, domain);
    const thread = this.threadOf(st, r);
    const style = this.cachedStyle(attrs, domain);
    if (style >= 0) this.b.markStyled(thread, t, domain, style, attrs.payload);
    else this.b.mark(thread, t, attrs);
    this.eventsDecoded++;
  }

  private startExRecord(r: ByteReader, st: StreamState, at: number, t: number): void {
    const domain = this.domains.indexOf(r.varint(), at);
    const id = r.varint();
    const thread = this.threadOf(st, r);
    const attrs = this.readAttrs(r, st, domain);
    this.launching?.start(id, thread, t, attrs.nameId!, attrs.color, domain);
    // A start while its id is open makes no range, so no style (the builder's open ids are the pairing's).
    if (!this.pairing.isOpen(id)) {
      const style = this.cachedStyle(attrs, domain);
      if (style >= 0) attrs.style = style;
    }
    this.pairing.start(id, thread, t, attrs, at);
    this.eventsDecoded++;
  }

  /**
   * The style of a default-domain event's attributes from the decoder's cache, or -1 for the
   * builder to work out (another domain, or a name given as text, which the builder bounds and
   * reports where it was). Asked only where the builder would make the style: a push dropped for
   * its depth or a start while open makes none, and a style made for nothing would shift the ids.
   */
  private cachedStyle(attrs: EventAttrs, domain: number): number {
    if (attrs.style !== undefined) return attrs.style;
    if (domain !== 0 || attrs.name !== undefined) return -1;
    return this.styles.styleOf(attrs.nameId!, attrs.color ?? 0, attrs.category ?? 0);
  }

  /** The record kinds that are rare in a capture: strings, thread names, sync objects, extensions. */
  private otherRecord(op: number, r: ByteReader, st: StreamState, at: number): void {
    const b = this.b;
    switch (op) {
      case Op.String: {
        const flags = r.varint();
        if (st.unnumberedStrings !== undefined) st.unnumberedStrings.push(b.intern(r.str(), 'name', this.at(at)));
        else st.strings.push(b.intern(r.str(), 'name', this.at(at)));
        if (flags & StringFlag.Truncated) this.truncatedStrings++;
        break;
      }
      case Op.Thread: {
        st.tid = r.varint();
        const osName = r.str();
        st.thread = this.nvtxNamedThreads.has(st.tid) ? b.thread(this.pid, st.tid) : b.thread(this.pid, st.tid, osName);
        break;
      }
      case Op.ThreadOsName: {
        const osName = r.str();
        if (st.thread >= 0 && !this.nvtxNamedThreads.has(st.tid)) b.thread(this.pid, st.tid, osName);
        break;
      }
      case Op.Sync: {
        const t = this.time(st, r.svarint(), at);
        const syncOp = r.u8();
        const s = this.syncObject(r.varint());
        s.t.push(t);
        s.op.push(syncOp);
        s.thread.push(this.threadOf(st, r));
        this.eventsDecoded++;
        break;
      }
      default: {
        if (op < Op.FirstLengthPrefixed) r.fail(`unknown record kind 0x${op.toString(16)} in thread stream ${st.id}`, r.pos - 1);
        const n = r.varint();
        const bodyOffset = r.offset;
        const body = r.bytesOf(n);
        if (this.extensionRecord(op, new ByteReader(body, 0, body.length, bodyOffset), st, at)) break;
        this.notes.warnOnce(`op:${op}`, `skipped thread records of unknown kind 0x${op.toString(16)} (written by a newer collector?)`, at);
      }
    }
  }

  /** A length-prefixed extension record: damage inside it is reported and the stream goes on after it. */
  private extensionRecord(op: number, body: ByteReader, st: StreamState, at: number): boolean {
    if (!this.ext) return false;
    try {
      if (op === Op.CudaApi && this.cuda) {
        const thread = this.threadOf(st, body);
        this.cuda.apiCall(body, thread, at);
        this.launching?.call(thread);
      } else if (!this.ext.record(op, body, { thread: this.threadOf(st, body) }, at)) return false;
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      this.notes.limited('ext format', 'extension records that do not parse', 'error', `${e.message} (thread record of kind 0x${op.toString(16)}); the record is skipped`, e.offset);
      return true;
    }
    this.eventsDecoded++;
    return true;
  }

  private readAttrs(r: ByteReader, st: StreamState, domain: number): EventAttrs {
    const length = r.varint();
    const end = r.pos + length;
    if (end > r.end) r.fail('event attributes run past the end of their chunk');
    return this.commonAttrs(r, st, domain, end) ?? this.allAttrs(r, st, domain, end);
  }

  /**
   * The attributes of nearly every record, read straight from the bytes: category, color, payload
   * and message, with one-byte kinds and category and a string id of one or two bytes, all inside
   * the stated length. Anything else returns undefined with nothing read, for allAttrs. The reader
   * is placed where allAttrs would have it when a payload or string lookup reports a problem.
   */
  private commonAttrs(r: ByteReader, st: StreamState, domain: number, end: number): EventAttrs | undefined {
    const b = r.bytes;
    let p = r.pos;
    if (p >= end) return undefined;
    const mask = b[p++];
    if ((mask & ~(Attr.Category | Attr.Color | Attr.Payload | Attr.Message)) !== 0) return undefined;
    let category = 0;
    if (mask & Attr.Category) {
      if (p >= end || b[p] >= 0x80) return undefined;
      category = b[p++];
    }
    let colorType = 0;
    let color = 0;
    if (mask & Attr.Color) {
      if (p + 5 > end || b[p] >= 0x80) return undefined;
      colorType = b[p];
      color = (b[p + 1] | (b[p + 2] << 8) | (b[p + 3] << 16) | (b[p + 4] << 24)) >>> 0;
      p += 5;
    }
    let payloadType = 0;
    let lo = 0;
    let hi = 0;
    let payloadEnd = 0;
    if (mask & Attr.Payload) {
      if (p + 9 > end || b[p] >= 0x80) return undefined;
      payloadType = b[p];
      lo = (b[p + 1] | (b[p + 2] << 8) | (b[p + 3] << 16) | (b[p + 4] << 24)) >>> 0;
      hi = (b[p + 5] | (b[p + 6] << 8) | (b[p + 7] << 16) | (b[p + 8] << 24)) >>> 0;
      p += 9;
      payloadEnd = p;
    }
    let messageType = 0;
    let id = 0;
    if (mask & Attr.Message) {
      if (p + 2 > end || b[p] >= 0x80) return undefined;
      messageType = b[p];
      const id0 = b[p + 1];
      if (id0 < 0x80) {
        id = id0;
        p += 2;
      } else {
        if (p + 3 > end || b[p + 2] >= 0x80) return undefined;
        id = (id0 & 0x7f) | (b[p + 2] << 7);
        p += 3;
      }
    }
    const a = this.resetAttrs(this.emptyName, domain);
    if (mask & Attr.Category) a.category = category;
    if (mask & Attr.Color && colorType === NVTX_COLOR_ARGB) a.color = color;
    if (mask & Attr.Payload) {
      r.pos = payloadEnd;
      a.payload = this.payloadValue(payloadType, lo, hi, r);
    }
    if (mask & Attr.Message) {
      r.pos = p;
      a.nameId = messageType === MessageType.Registered ? this.registeredString(id, r) : this.stringOf(st, id, r);
    }
    r.pos = end; // fields added by later versions
    return a;
  }

  /** Any attributes (commonAttrs first tries the usual ones), from their mask on. */
  private allAttrs(r: ByteReader, st: StreamState, domain: number, end: number): EventAttrs {
    const mask = r.varint();
    const a = this.resetAttrs(this.emptyName, domain);
    if (mask & Attr.Category) a.category = r.varint();
    if (mask & Attr.Color) {
      const colorType = r.varint();
      const color = r.u32();
      if (colorType === NVTX_COLOR_ARGB) a.color = color;
    }
    if (mask & Attr.Payload) {
      const type = r.varint();
      const lo = r.u32();
      a.payload = this.payloadValue(type, lo, r.u32(), r);
    }
    if (mask & Attr.Message) {
      const type = r.varint();
      const id = r.varint();
      a.nameId = type === MessageType.Registered ? this.registeredString(id, r) : this.stringOf(st, id, r);
    }
    if (mask & Attr.ExtPayloads) this.readExtPayloads(r, a, mask, domain);
    if (r.pos > end) r.fail('event attributes are longer than their stated length');
    r.pos = end; // fields added by later versions
    return a;
  }

  /** Extended payloads (format 1.1), kept out of readAttrs so that its common path stays small enough to inline into. */
  private readExtPayloads(r: ByteReader, a: EventAttrs, mask: number, domain: number): void {
    const count = r.varint();
    const blobs = [];
    for (let i = 0; i < count; i++) {
      const schemaId = r.varint();
      const flags = r.varint();
      const address = r.varintBig();
      const bytes = r.bytesOf(r.varint());
      if (flags & (ExtFlag.SizeUnknown | ExtFlag.Cut)) this.incompleteExtBlobs++;
      blobs.push({ schemaId, bytes, address });
    }
    // Format 1.1: memory the payloads point to.
    const memory: ExtMemoryInput[] = mask & Attr.Memory ? ExtensionRecords.readMemory(r) : [];
    a.payload = this.b.extPayload(domain, blobs, memory);
    this.ext?.coreAttributes(a, domain, blobs, memory);
  }

  private registeredString(id: number, r: ByteReader): number {
    const s = this.registered.get(id);
    if (s !== undefined) return s;
    const why = this.damagedBytes > 0 ? ' (its registration may be in the damaged bytes)' : '';
    this.notes.warnOnce(`registered:${id}`, `registered string ${id} is used but was never registered in this capture${why}`, r.offset);
    return this.b.intern(id === 0 ? '<unregistered string handle>' : `<registered string ${id}>`);
  }

  /**
   * The payload from the low and high 32 bits of its 8 raw bytes (64-bit integers below 2^53 stay
   * numbers). A number payload is the one reused object `numberPayload`: the builder and the tape
   * copy a number payload into their columns (a bigint one may be kept, so it gets its own object).
   */
  private payloadValue(type: number, lo: number, hi: number, r: ByteReader): PayloadValue | undefined {
    switch (type) {
      case NvtxPayload.U64:
        return hi < 0x200000 ? this.numberPayload(PayloadType.U64, hi * 4294967296 + lo) : { type: PayloadType.U64, value: (BigInt(hi) << 32n) | BigInt(lo) };
      case NvtxPayload.I64: {
        const high = hi | 0;
        const safe = high >= -0x200000 && high < 0x200000;
        return safe ? this.numberPayload(PayloadType.I64, high * 4294967296 + lo) : { type: PayloadType.I64, value: (BigInt(high) << 32n) | BigInt(lo) };
      }
      case NvtxPayload.F64:
        this.scratch.setUint32(0, lo, true);
        this.scratch.setUint32(4, hi, true);
        return this.numberPayload(PayloadType.F64, this.scratch.getFloat64(0, true));
      case NvtxPayload.U32:
        return this.numberPayload(PayloadType.U32, lo);
      case NvtxPayload.I32:
        return this.numberPayload(PayloadType.I32, lo | 0);
      case NvtxPayload.F32:
        this.scratch.setUint32(0, lo, true);
        return this.numberPayload(PayloadType.F32, this.scratch.getFloat32(0, true));
      default:
        this.notes.warnOnce(`payload:${type}`, `payload type ${type} is unknown; such payloads are not shown`, r.offset);
        return undefined;
    }
  }

  // ---------------------------------------------------------------- sync objects

  /**
   * Each user sync object gets a row under Process > Sync [> domain] with ranges packed in lanes:
   * "acquire" from AcquireStart to AcquireSuccess, "acquire failed" to AcquireFailed, and "held"
   * from AcquireSuccess to Releasing, each tagged with the thread that did it.
   */
  private finishSyncObjects(): void {
    const b = this.b;
    const end = Math.max(this.endNs ?? this.clock.lastNs, this.clock.lastNs);
    for (const [id, s] of this.syncs) {
      if (s.t.length === 0) continue;
      const domainName = this.domains.nameOf(s.domain);
      const domain = s.domain === 0 ? 0 : this.domains.indexOf(s.domain, 0);
      const row = b.customRow({
        kind: 'api',
        label: s.name || `sync object ${id}`,
        process: this.process,
        path: domainName ? ['Sync', domainName] : ['Sync'],
        layout: 'lanes',
      });
      const order = s.t.map((_, i) => i).sort((x, y) => s.t[x] - s.t[y] || x - y);
      const waiting = new Map<number, number>();
      const held: { thread: number; t: number }[] = [];
      const range = (name: string, from: number, to: number, thread: number) =>
        b.rowRange(row, from, to, { name, domain: domain === 0 ? undefined : domain }, thread);
      let unmatched = 0;
      for (const i of order) {
        const t = s.t[i];
        const thread = s.thread[i];
        switch (s.op[i]) {
          case SyncOp.AcquireStart:
            waiting.set(thread, t);
            break;
          case SyncOp.AcquireSuccess: {
            const w = waiting.get(thread);
            if (w !== undefined) range('acquire', w, t, thread);
            waiting.delete(thread);
            held.push({ thread, t });
            break;
          }
          case SyncOp.AcquireFailed: {
            const w = waiting.get(thread);
            range('acquire failed', w ?? t, t, thread);
            waiting.delete(thread);
            break;
          }
          case SyncOp.Releasing: {
            // The releasing thread's own hold, else the oldest hold (a semaphore released elsewhere).
            let k = held.findIndex((h) => h.thread === thread);
            if (k < 0 && held.length > 0) k = 0;
            if (k < 0) {
              unmatched++;
              break;
            }
            range('held', held[k].t, t, held[k].thread);
            held.splice(k, 1);
            break;
          }
          default:
            this.notes.warnOnce(`syncop:${s.op[i]}`, `sync operation ${s.op[i]} is unknown; ignored`);
        }
      }
      const label = s.name ? `"${s.name}"` : `sync object ${id}`;
      if (unmatched > 0) b.report('warning', `${label} was released ${unmatched} time(s) without being acquired`);
      for (const [thread, t] of waiting) range('acquire', t, Math.max(t, end), thread);
      for (const h of held) range('held', h.t, Math.max(h.t, end), h.thread);
      if (waiting.size + held.length > 0) {
        b.report('warning', `${label} was still being acquired or held at the end of the capture; drawn to the end`);
      }
    }
  }
}

/** The clock pair a META or EVENTS chunk was sealed with, if it has one that reads. */
function sealPair(frame: Frame): [bigint, bigint] | undefined {
  if (frame.kind !== Chunk.Meta && frame.kind !== Chunk.Events) return undefined;
  const r = new ByteReader(frame.body, 0, frame.body.length, frame.offset + 12);
  try {
    if (frame.kind === Chunk.Events) {
      r.varint(); // stream id
      r.varint(); // stream offset
    }
    return [r.varintBig(), r.varintBig()];
  } catch (e) {
    if (e instanceof FormatError) return undefined;
    throw e;
  }
}

/** The NUL-separated arguments of /proc/self/cmdline as one shell-like line. */
function commandLine(bytes: Uint8Array): string {
  const args = utf8Text(bytes).split('\u0000');
  if (args.length > 0 && args[args.length - 1] === '') args.pop();
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** CLOCK_REALTIME ns as a UTC time of day (ms precision), e.g. "14:03:12.345 UTC". */
function wallTime(ns: bigint): string {
  return `${new Date(Number(ns / 1_000_000n)).toISOString().slice(11, 23)} UTC`;
}

/** CLOCK_REALTIME ns as an ISO date (ms precision). */
function wallClock(ns: bigint): string {
  return new Date(Number(ns / 1_000_000n)).toISOString();
}
