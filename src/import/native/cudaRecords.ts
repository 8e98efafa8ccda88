/**
 * The CUDA side of a `.nvtxc` capture (format 1.3, docs/capture-format.md section 10) into the one
 * CUDA model path (src/import/cuda/cudaModel.ts): CUDA_API thread records become API calls under
 * their threads as they are read; CUDA_ACTIVITY records are kept in columns and placed at the end,
 * when every CUDA_CLOCK pair is known (cudaClockMap.ts), together with the NVTX ranges that contain
 * calls (launchingRanges.ts) for the GPU projection. Contexts, streams, devices and the names the
 * program gave them (RESOURCE_NAME) label the GPU rows; drops, the recording status and the END
 * totals go to the load report.
 */
import type { ModelBuilder, PayloadValue } from '../../model/builder.ts';
import { f64, u32 } from '../../model/growable.ts';
import type { StringId } from '../../model/types.ts';
import { API_ROW_LABEL, CudaModel, CUPTI_NO_STREAM, cudaCorrelation, jsonPayload, type CudaLabels, type GpuPlace } from '../cuda/cudaModel.ts';
import { MEMORY_KIND, memcpyName, MEMSET_NAME, stripVersion, syncName, syncPayload, UNNAMED_KERNEL } from '../cuda/cuptiNames.ts';
import type { CaptureClock } from './captureClock.ts';
import { CudaClockMap } from './cudaClockMap.ts';
import { CudaApiFlag, CudaDomain, CudaDropCause, CudaRecord, CudaResourceEvent, CudaStatus, CudaStreamFlag, MetaOp } from './format.ts';
import type { ClosedLaunchingRange } from './launchingRanges.ts';
import type { OnceNotes } from './onceNotes.ts';
import { ByteReader, FormatError } from './reader.ts';

/** What the CUDA records need of the decoder. */
export interface CudaRecordsContext {
  b: ModelBuilder;
  pid: number;
  process: number;
  clock: CaptureClock;
  notes: OnceNotes;
}

/** NVTX resource types that name CUDA objects (RESOURCE_NAME, section 6). */
const NAMES_DEVICE = new Set([0x40001, 0x50000]);
const NAMES_CONTEXT = new Set([0x40002]);
const NAMES_STREAM = new Set([0x40003, 0x50001]);

/** One life of a context or stream handle (handles are reused after destruction). */
interface Incarnation {
  createdRel: number;
  destroyedRel: number;
  context: number;
  stream: number;
}

/** A name the program gave an object by its handle, at tick `rel`. */
interface GivenName {
  handle: bigint;
  rel: number;
  name: string;
}

/**
 * Number-valued fields of an activity record, by kind, kept in as many columns:
 * KERNEL gridX gridY gridZ blockX blockY blockZ registers staticShared dynamicShared;
 * MEMCPY copyKind srcKind dstKind bytes flags srcDevice dstDevice; MEMSET bytes value memoryKind
 * flags; SYNC type event.
 */
const FACT_COLUMNS = 9;

export class CudaRecords {
  private readonly cuda: CudaModel;
  private readonly apiNames = new Map<number, StringId>();
  /** Payloads by their fields: a million kernels of a few shapes share a few payloads (one JSON text each). */
  private readonly payloads = new Map<string, PayloadValue | undefined>();
  private readonly nameCache = new Map<string, StringId>();
  /** CUPTI correlation id -> enter time (ns) of the API call that has it. */
  private readonly enterNs = new Map<number, number>();
  private readonly clockMap = new CudaClockMap();
  /** CUPTI times are kept relative to the first one seen, so they are exact in a double. */
  private cuptiOrigin: bigint | undefined;

  // Activity records, one column each.
  private readonly kind = u32();
  private readonly start = f64();
  private readonly end = f64();
  private readonly device = u32();
  private readonly context = u32();
  private readonly stream = u32();
  private readonly correlation = u32();
  private readonly name = u32();
  private readonly facts = Array.from({ length: FACT_COLUMNS }, () => f64());
  /** File offset of each record, for the report. */
  private readonly offset = f64();
  /** One record's facts while it is read. */
  private readonly scratch = new Float64Array(FACT_COLUMNS);
  private firstActivityOffset = -1;

  // Objects and names.
  private readonly deviceNames = new Map<number, string>();
  private readonly givenDeviceNames = new Map<number, string>();
  private readonly contextHandles = new Map<bigint, Incarnation[]>();
  private readonly streamHandles = new Map<bigint, Incarnation[]>();
  private readonly streamFlags = new Map<string, number>();
  private readonly givenContextNames: GivenName[] = [];
  private readonly givenStreamNames: GivenName[] = [];
  private contextNames: Map<number, string> | undefined;
  private streamNames: Map<string, string> | undefined;

  // The report.
  private apiRecords = 0;
  private activityRecords = 0;
  private readonly dropped = new Map<number, { count: number; offset: number }>();
  private expected: { api: number; activity: number } | undefined;
  private status: { state: number; text: string; offset: number } | undefined;
  private cuptiVersion = 0;
  private driverVersion = 0;
  private readonly unknownKinds = new Map<number, number>();

  constructor(private readonly ctx: CudaRecordsContext) {
    const labels: CudaLabels = {
      device: ({ device }) => {
        const name = this.givenDeviceNames.get(device) ?? this.deviceNames.get(device);
        return name ? `GPU ${device} (${name})` : `GPU ${device}`;
      },
      stream: ({ context, stream }) => {
        if (stream === undefined || stream === CUPTI_NO_STREAM) return 'No stream';
        const flags = this.streamFlags.get(`${context}:${stream}`) ?? 0;
        const base =
          flags & CudaStreamFlag.LegacyDefault ? `Default stream ${stream}` : flags & CudaStreamFlag.PerThreadDefault ? `Per-thread default stream ${stream}` : `Stream ${stream}`;
        const given = this.streamName(context, stream);
        return given ? `${base} · ${given}` : base;
      },
      deviceName: ({ device }) => this.givenDeviceNames.get(device),
      contextName: ({ context }) => this.contextName(context),
      streamName: ({ context, stream }) => this.streamName(context, stream),
    };
    this.cuda = new CudaModel(ctx.b, labels);
  }

  /** The NVTX ranges that closed with CUDA calls inside (launchingRanges.ts): candidates for the projection. */
  readonly launchingRangeClosed = (r: ClosedLaunchingRange): void => {
    this.cuda.nvtxRange(r.thread, this.ctx.process, r.startNs, r.endNs, { nameId: r.nameId, color: r.color, domain: r.domain });
  };

  private named(text: string): StringId {
    let id = this.nameCache.get(text);
    if (id === undefined) this.nameCache.set(text, (id = this.ctx.b.intern(text)));
    return id;
  }

  private cuptiRel(t: bigint): number {
    this.cuptiOrigin ??= t;
    return Number(t - this.cuptiOrigin);
  }

  // ---------------------------------------------------------------- META

  /** A CUDA metadata op (23–28); false for other ops. `dt` is the record's tick minus T0. */
  meta(op: number, m: ByteReader, dt: number, offset: number): boolean {
    switch (op) {
      case MetaOp.CudaApiName: {
        const domain = m.varint();
        const callback = m.varint();
        this.apiNames.set(apiKey(domain, callback), this.named(stripVersion(m.str())));
        return true;
      }
      case MetaOp.CudaResource: {
        const event = m.varint();
        const device = m.varint();
        const context = m.varint();
        const stream = m.varint();
        const contextHandle = m.varintBig();
        const streamHandle = m.varintBig();
        const flags = m.done ? 0 : m.varint();
        this.resource(event, context, stream, contextHandle, streamHandle, flags, dt);
        void device; // device ordinals come with the activity records
        return true;
      }
      case MetaOp.CudaClock: {
        const cupti = m.varintBig();
        const width = m.varint();
        const ns = this.ctx.clock.tickNs(dt + width / 2, offset);
        this.clockMap.add(this.cuptiRel(cupti), ns, offset);
        return true;
      }
      case MetaOp.CudaDropped: {
        const cause = m.varint();
        m.varint(); // context
        m.varint(); // stream
        const count = m.varint();
        const seen = this.dropped.get(cause);
        if (seen) seen.count += count;
        else this.dropped.set(cause, { count, offset });
        return true;
      }
      case MetaOp.CudaStatus: {
        const state = m.varint();
        const cupti = m.varint();
        const driver = m.varint();
        const text = m.str();
        if (cupti) this.cuptiVersion = cupti;
        if (driver) this.driverVersion = driver;
        // The latest word stands: "recording" then "stopped" is a stop.
        this.status = { state, text, offset };
        return true;
      }
      case MetaOp.CudaDevice: {
        const device = m.varint();
        const name = m.str();
        if (name) this.deviceNames.set(device, name);
        return true;
      }
      default:
        return false;
    }
  }

  private resource(event: number, context: number, stream: number, contextHandle: bigint, streamHandle: bigint, flags: number, rel: number): void {
    const born = (handles: Map<bigint, Incarnation[]>, handle: bigint) => {
      let lives = handles.get(handle);
      if (!lives) handles.set(handle, (lives = []));
      lives.push({ createdRel: rel, destroyedRel: Infinity, context, stream });
    };
    const died = (handles: Map<bigint, Incarnation[]>, handle: bigint, matches: (i: Incarnation) => boolean) => {
      const lives = handles.get(handle);
      const life = lives && lastOf(lives, (i) => matches(i) && i.destroyedRel === Infinity);
      if (life) life.destroyedRel = rel;
    };
    switch (event) {
      case CudaResourceEvent.ContextCreated:
        born(this.contextHandles, contextHandle);
        break;
      case CudaResourceEvent.ContextDestroyed:
        died(this.contextHandles, contextHandle, (i) => i.context === context);
        break;
      case CudaResourceEvent.StreamCreated:
        born(this.streamHandles, streamHandle);
        if (flags) this.streamFlags.set(`${context}:${stream}`, flags);
        break;
      case CudaResourceEvent.StreamDestroyed:
        died(this.streamHandles, streamHandle, (i) => i.context === context && i.stream === stream);
        break;
      default:
        this.ctx.notes.warnOnce(`cuda resource:${event}`, `CUDA resource event ${event} is unknown (written by a newer collector?); ignored`);
    }
  }

  /** A RESOURCE_NAME record (section 6) at tick `rel`: CUDA devices, contexts and streams name GPU rows. */
  resourceName(type: number, handle: bigint, name: string, rel: number): void {
    if (NAMES_DEVICE.has(type)) this.givenDeviceNames.set(Number(handle), name);
    else if (NAMES_CONTEXT.has(type)) this.givenContextNames.push({ handle, rel, name });
    else if (NAMES_STREAM.has(type)) this.givenStreamNames.push({ handle, rel, name });
  }

  private contextName(context: number | undefined): string | undefined {
    this.contextNames ??= resolveNames(this.givenContextNames, this.contextHandles, (i) => i.context);
    return context === undefined ? undefined : this.contextNames.get(context);
  }

  private streamName(context: number | undefined, stream: number | undefined): string | undefined {
    this.streamNames ??= resolveNames(this.givenStreamNames, this.streamHandles, (i) => `${i.context}:${i.stream}`);
    return stream === undefined ? undefined : this.streamNames.get(`${context}:${stream}`);
  }

  // ---------------------------------------------------------------- thread records

  /** The body of a CUDA_API thread record of builder thread `thread` (its tick relative to T0 first). */
  apiCall(body: ByteReader, thread: number, offset: number): void {
    const clock = this.ctx.clock;
    const rel = body.svarint();
    const domain = body.varint();
    const callback = body.varint();
    const duration = body.varint();
    const cupti = body.varint();
    const flags = body.varint();
    const stream = body.varintBig();
    const result = body.varint();
    const startNs = clock.tickNs(rel, offset);
    const endNs = Math.max(startNs, clock.tickNs(rel + duration, offset));
    const label = domain === CudaDomain.Runtime ? API_ROW_LABEL.runtime : domain === CudaDomain.Driver ? API_ROW_LABEL.driver : `CUPTI domain ${domain} API`;
    let nameId = this.apiNames.get(apiKey(domain, callback));
    if (nameId === undefined) {
      this.ctx.notes.warnOnce(`cuda api name:${domain}:${callback}`, `CUDA API ${domain}:${callback} has no CUDA_API_NAME record; shown by its number`, offset);
      nameId = this.named(`[CUDA ${domain === CudaDomain.Driver ? 'driver' : domain === CudaDomain.Runtime ? 'runtime' : `domain ${domain}`} API ${callback}]`);
    }
    const hasStream = (flags & CudaApiFlag.HasStream) !== 0;
    const payload = this.payload(`a${result}:${hasStream ? stream : ''}`, () =>
      jsonPayload({ returnValue: result !== 0 ? result : undefined, stream: hasStream ? `0x${stream.toString(16)}` : undefined }),
    );
    const correlation = cupti === 0 ? undefined : cudaCorrelation(this.ctx.process, cupti);
    this.cuda.apiCall(thread, this.ctx.process, label, startNs, endNs, { nameId, payload }, correlation);
    if (cupti !== 0) this.enterNs.set(cupti, startNs);
    this.apiRecords++;
  }

  // ---------------------------------------------------------------- CUDA_ACTIVITY chunks

  /** The body of a CUDA_ACTIVITY chunk: its records are kept for the end. */
  activityChunk(r: ByteReader): void {
    if (this.firstActivityOffset < 0) this.firstActivityOffset = r.offset - 12;
    r.varintBig(); // the seal pair: no capture tick in the chunk uses it
    r.varintBig();
    const base = this.cuptiRel(r.varintBig());
    const names = new Map<number, StringId>();
    while (!r.done) {
      const at = r.offset;
      const kind = r.u8();
      const length = r.varint();
      const bytes = r.bytesOf(length);
      const body = new ByteReader(bytes, 0, bytes.length, r.offset - bytes.length);
      try {
        this.activityRecord(kind, body, base, names, at);
      } catch (e) {
        // The length prefix delimits the record: report it and go on with the next one.
        if (!(e instanceof FormatError)) throw e;
        this.ctx.notes.limited('cuda activity format', 'CUDA activity records that do not parse', 'error', `${e.message} (CUDA activity record of kind ${kind}); the record is skipped`, e.offset);
      }
    }
  }

  private activityRecord(kind: number, r: ByteReader, base: number, names: Map<number, StringId>, at: number): void {
    if (kind === CudaRecord.KernelName) {
      const id = r.varint();
      const mangled = r.str();
      const demangled = r.str();
      names.set(id, this.named(demangled || mangled || UNNAMED_KERNEL));
      return;
    }
    if (kind !== CudaRecord.Kernel && kind !== CudaRecord.Memcpy && kind !== CudaRecord.Memset && kind !== CudaRecord.Sync) {
      this.unknownKinds.set(kind, (this.unknownKinds.get(kind) ?? 0) + 1);
      this.ctx.notes.warnOnce(`cuda activity:${kind}`, `skipped CUDA activity records of unknown kind ${kind} (written by a newer collector?)`, at);
      return;
    }
    // Read the whole record before keeping any of it, so a short one leaves no half row.
    const start = base + r.svarint();
    const end = start + r.varint();
    const device = r.varint();
    const context = r.varint();
    const stream = r.varint();
    const correlation = r.varint();
    const facts = this.scratch.fill(0);
    let name = 0;
    switch (kind) {
      case CudaRecord.Kernel: {
        const id = r.varint();
        const known = names.get(id);
        if (known === undefined) {
          this.ctx.notes.limited('cuda kernel name', 'kernels whose name is not defined in their chunk', 'error', `kernel name ${id} is not defined in its CUDA_ACTIVITY chunk; shown as ${UNNAMED_KERNEL}`, at);
        }
        name = known ?? this.named(UNNAMED_KERNEL);
        for (let k = 0; k < 9; k++) facts[k] = r.varint();
        break;
      }
      case CudaRecord.Memcpy:
        for (let k = 0; k < 7; k++) facts[k] = r.varint();
        break;
      case CudaRecord.Memset:
        for (let k = 0; k < 4; k++) facts[k] = r.varint();
        break;
      case CudaRecord.Sync:
        for (let k = 0; k < 2; k++) facts[k] = r.varint();
        break;
    }
    this.kind.push(kind);
    this.start.push(start);
    this.end.push(end);
    this.device.push(device);
    this.context.push(context);
    this.stream.push(stream);
    this.correlation.push(correlation);
    this.name.push(name);
    for (let k = 0; k < FACT_COLUMNS; k++) this.facts[k].push(facts[k]);
    this.offset.push(at);
    this.activityRecords++;
  }

  // ---------------------------------------------------------------- END and the end

  /** END tag 8: the records the collector wrote. */
  endTotals(api: number, activity: number): void {
    this.expected = { api, activity };
  }

  /** Whether the capture holds anything of the CUDA side. */
  get seen(): boolean {
    return this.apiRecords > 0 || this.activityRecords > 0 || this.status !== undefined || this.clockMap.pairs > 0;
  }

  /** Places the GPU work, makes the projection rows and reports; after the last chunk and the OPEN chunks. */
  finish(): void {
    if (!this.seen) return;
    this.placeGpuWork();
    this.cuda.finish();
    this.report();
  }

  private placeGpuWork(): void {
    const n = this.kind.length;
    const b = this.ctx.b;
    if (n > 0 && this.clockMap.pairs === 0) {
      b.report('error', `the capture has ${n} GPU activity records but no CUDA_CLOCK pair to place them on the capture clock; they are not shown`, { offset: this.firstActivityOffset });
      return;
    }
    let moved = 0;
    let maxMoveNs = 0;
    let firstMoved = -1;
    const { process, pid } = this.ctx;
    const f = this.facts;
    for (let i = 0; i < n; i++) {
      const kind = this.kind.get(i);
      let startNs = this.clockMap.toNs(this.start.get(i));
      let endNs = Math.max(startNs, this.clockMap.toNs(this.end.get(i)));
      const cupti = this.correlation.get(i);
      const place: GpuPlace = { process, pid, device: this.device.get(i), context: this.context.get(i), stream: this.stream.get(i) };
      const correlation = cupti === 0 ? undefined : cudaCorrelation(process, cupti);
      if (kind === CudaRecord.Sync) {
        const type = f[0].get(i);
        this.cuda.gpuSync(place, startNs, endNs, { nameId: this.named(syncName(type)), payload: syncPayload(place.stream, f[1].get(i)) }, correlation);
        this.ctx.clock.see(startNs);
        this.ctx.clock.see(endNs);
        continue;
      }
      // A GPU operation cannot start before the call that launched it (section 10.4).
      const enter = cupti === 0 ? undefined : this.enterNs.get(cupti);
      if (enter !== undefined && startNs < enter) {
        const shift = enter - startNs;
        startNs += shift;
        endNs += shift;
        if (moved++ === 0) firstMoved = this.offset.get(i);
        if (shift > maxMoveNs) maxMoveNs = shift;
      }
      this.ctx.clock.see(startNs);
      this.ctx.clock.see(endNs);
      const facts = this.factsOf(i, kind === CudaRecord.Kernel ? 9 : kind === CudaRecord.Memcpy ? 7 : 4);
      if (kind === CudaRecord.Kernel) {
        const payload = this.payload(`k${facts.join(':')}`, () =>
          jsonPayload({
            grid: facts.slice(0, 3),
            block: facts.slice(3, 6),
            registersPerThread: facts[6],
            staticSharedMemory: facts[7],
            dynamicSharedMemory: facts[8],
          }),
        );
        this.cuda.gpuWork(place, startNs, endNs, { nameId: this.name.get(i), payload }, correlation);
      } else if (kind === CudaRecord.Memcpy) {
        const [copyKind, srcKind, dstKind, bytes, flags, srcDevice, dstDevice] = facts;
        const payload = this.payload(`c${facts.join(':')}`, () =>
          jsonPayload({
            bytes,
            source: MEMORY_KIND[srcKind] ?? `memory kind ${srcKind}`,
            destination: MEMORY_KIND[dstKind] ?? `memory kind ${dstKind}`,
            async: (flags & 1) === 1,
            sourceDevice: srcDevice !== dstDevice ? srcDevice : undefined,
            destinationDevice: srcDevice !== dstDevice ? dstDevice : undefined,
          }),
        );
        this.cuda.gpuWork(place, startNs, endNs, { nameId: this.named(memcpyName(copyKind)), payload }, correlation);
      } else {
        const [bytes, value, memoryKind, flags] = facts;
        const payload = this.payload(`s${facts.join(':')}`, () => jsonPayload({ bytes, value, memory: MEMORY_KIND[memoryKind], async: (flags & 1) === 1 }));
        this.cuda.gpuWork(place, startNs, endNs, { nameId: this.named(MEMSET_NAME), payload }, correlation);
      }
    }
    if (this.clockMap.dropped > 0) {
      b.report('warning', `${this.clockMap.dropped} CUDA clock pair(s) go back in CUPTI time (a stepped clock or damage); GPU times are placed by the others`, { offset: this.clockMap.firstDropped });
    }
    if (moved > 0) {
      b.report(
        'warning',
        `${moved} GPU operation(s) would start before the API call that launched them (by up to ${formatShift(maxMoveNs)}: the CUDA clock pairs are off by that much); each was moved to start with its call, its duration kept`,
        { offset: firstMoved },
      );
    }
  }

  private report(): void {
    const b = this.ctx.b;
    const c = this.cuda;
    const status = this.status;
    if (status?.state === CudaStatus.NotRecorded) {
      b.setProperty('CUDA', `not recorded: ${status.text}`);
      b.report('warning', `CUDA not recorded: ${status.text}`, { offset: status.offset });
    } else if (status?.state === CudaStatus.Stopped) {
      b.report('warning', `CUDA recording stopped early: ${status.text}`, { offset: status.offset });
    }
    if (c.apiCalls + c.gpuOps + c.syncs > 0) {
      const kernels = this.countKind(CudaRecord.Kernel);
      const copies = this.countKind(CudaRecord.Memcpy);
      const sets = this.countKind(CudaRecord.Memset);
      b.setProperty(
        'CUDA',
        `${c.apiCalls} API calls, ${c.gpuOps} GPU operations (${kernels} kernels, ${copies} copies, ${sets} sets), ${c.syncs} synchronizations${status?.state === CudaStatus.Recording && status.text ? `; ${status.text}` : ''}`,
      );
    }
    if (this.cuptiVersion) b.setProperty('CUPTI version', String(this.cuptiVersion));
    if (this.driverVersion) b.setProperty('CUDA driver version', formatDriverVersion(this.driverVersion));
    const cupti = this.dropped.get(CudaDropCause.Cupti);
    if (cupti && cupti.count > 0) {
      b.setProperty('CUDA records dropped by CUPTI', String(cupti.count));
      b.report('warning', `CUPTI dropped ${cupti.count} GPU activity record(s) (its buffers were full): the GPU rows miss that work`, { offset: cupti.offset });
    }
    const output = this.dropped.get(CudaDropCause.Output);
    if (output && output.count > 0) {
      b.setProperty('CUDA records not written', String(output.count));
      b.report('warning', `the collector could not write ${output.count} GPU activity record(s) (output error while capturing)`, { offset: output.offset });
    }
    for (const [cause, { count, offset }] of this.dropped) {
      if (cause !== CudaDropCause.Cupti && cause !== CudaDropCause.Output && count > 0) {
        b.report('warning', `${count} CUDA record(s) were lost (cause ${cause}, written by a newer collector)`, { offset });
      }
    }
    const e = this.expected;
    if (e && (this.apiRecords < e.api || this.activityRecords < e.activity)) {
      const parts: string[] = [];
      if (this.apiRecords < e.api) parts.push(`${e.api - this.apiRecords} of ${e.api} CUDA API records`);
      if (this.activityRecords < e.activity) parts.push(`${e.activity - this.activityRecords} of ${e.activity} GPU activity records`);
      b.report('warning', `the collector wrote ${parts.join(' and ')} that are not in the file (lost with damaged bytes)`);
    }
  }

  /** The first `n` facts of record `i`. */
  private factsOf(i: number, n: number): number[] {
    const out = new Array<number>(n);
    for (let k = 0; k < n; k++) out[k] = this.facts[k].get(i);
    return out;
  }

  /** One payload per distinct `key` (made by `make` the first time). */
  private payload(key: string, make: () => PayloadValue | undefined): PayloadValue | undefined {
    if (this.payloads.has(key)) return this.payloads.get(key);
    const p = make();
    // Bounded: records whose fields are all different (byte counts of copies) are not kept.
    if (this.payloads.size < 65_536) this.payloads.set(key, p);
    return p;
  }

  private countKind(kind: number): number {
    let n = 0;
    for (let i = 0; i < this.kind.length; i++) if (this.kind.get(i) === kind) n++;
    return n;
  }
}

function apiKey(domain: number, callback: number): number {
  return domain * 2 ** 32 + callback;
}

/**
 * Names given by handle -> names by object id: the object that had the handle when the name was
 * given, else the latest one created with it before, else the first one created with it after.
 */
function resolveNames<K>(given: GivenName[], handles: Map<bigint, Incarnation[]>, keyOf: (i: Incarnation) => K): Map<K, string> {
  const out = new Map<K, string>();
  for (const g of given) {
    const lives = handles.get(g.handle);
    if (!lives || lives.length === 0) continue;
    const alive = lastOf(lives, (i) => i.createdRel <= g.rel && g.rel < i.destroyedRel);
    const before = lastOf(lives, (i) => i.createdRel <= g.rel);
    const life = alive ?? before ?? lives[0];
    // Later names win: an object renamed during the capture shows its last name.
    out.set(keyOf(life), g.name);
  }
  return out;
}

function lastOf<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return items[i];
  return undefined;
}

/** 12040 -> "12.4". */
function formatDriverVersion(v: number): string {
  return `${Math.floor(v / 1000)}.${Math.floor((v % 1000) / 10)}`;
}

function formatShift(ns: number): string {
  return ns < 1e3 ? `${ns} ns` : ns < 1e6 ? `${(ns / 1e3).toFixed(1)} µs` : `${(ns / 1e6).toFixed(3)} ms`;
}
