import { describe, expect, it } from 'vitest';
import { compareCaptures, endedInstances, nthByStart, rowDurations } from '../../analysis/compare/index.ts';
import { CompareSideCache } from './compareSideCache.ts';
import { ModelBuilder } from '../../model/builder.ts';
import type { Model } from '../../model/types.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import { computeStats, type StatsRequest } from './compute.ts';
import type { FromStatsWorker, ToStatsWorker } from './stats.protocol.ts';
import { copyColumns, StatsService } from './statsService.ts';

function capture(id: number, ranges: number): LoadedCapture {
  const b = new ModelBuilder({ fileName: `c${id}`, format: 'test', byteSize: 0 });
  const t = b.thread(1, 1, 'main');
  for (let k = 0; k < ranges; k++) b.range(t, k * 10, k * 10 + 5 + (k % 3), { name: k % 2 ? 'odd' : 'even' });
  return { id, model: b.finish(), offsetNs: 0, decodeMs: 0 };
}

/** A worker the test answers by hand, computing with the same pure function as the real one. */
class FakeWorker {
  readonly received: ToStatsWorker[] = [];
  readonly models = new Map<number, Model>();
  onmessage: ((e: MessageEvent<FromStatsWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;

  private readonly strings = new Map<number, string[]>();

  postMessage(msg: ToStatsWorker): void {
    this.received.push(msg);
    if (msg.type === 'strings') this.strings.set(msg.capture, [...(this.strings.get(msg.capture) ?? []), ...msg.strings]);
    if (msg.type === 'model') {
      const model = structuredClone(msg.model);
      const sliced = this.strings.get(msg.capture);
      this.strings.delete(msg.capture);
      this.models.set(msg.capture, sliced ? { ...model, strings: sliced } : model);
    }
    if (msg.type === 'drop') this.models.delete(msg.capture);
  }

  terminate(): void {
    this.terminated = true;
  }

  /** Answers the last run request. */
  answer(): void {
    const run = [...this.received].reverse().find((m) => m.type === 'run');
    if (!run || run.type !== 'run') throw new Error('no run request');
    const result = computeStats(this.models.get(run.capture)!, run.request);
    this.onmessage?.({ data: { type: 'result', id: run.id, result, ms: 1 } } as MessageEvent<FromStatsWorker>);
  }

  /** Answers the last comparison request, its message passed through a structured clone as a real worker's would be. */
  answerCompare(): void {
    const run = [...this.received].reverse().find((m) => m.type === 'compare');
    if (!run || run.type !== 'compare') throw new Error('no compare request');
    const result = compareCaptures(this.models.get(run.base)!, this.models.get(run.candidate)!, run.baseOptions, run.candidateOptions);
    const msg: FromStatsWorker = {
      type: 'compared',
      id: run.id,
      groupBy: result.groupBy,
      rows: result.rows,
      baseOptions: result.base.options,
      candidateOptions: result.candidate.options,
      ms: 1,
    };
    this.onmessage?.({ data: structuredClone(msg) } as MessageEvent<FromStatsWorker>);
  }

  /** Answers the last instances request (cloned as a real worker's message would be). */
  answerInstances(): void {
    const run = [...this.received].reverse().find((m) => m.type === 'instances');
    if (!run || run.type !== 'instances') throw new Error('no instances request');
    const found = endedInstances(this.models.get(run.capture)!, run.options, run.key);
    const msg: FromStatsWorker = { type: 'instances', id: run.id, ...found, ms: 1 };
    this.onmessage?.({ data: structuredClone(msg) } as MessageEvent<FromStatsWorker>);
  }

  /** Answers the oldest unanswered request of `type` ('prepare' or 'nth'), as the real worker computes it. */
  answerNext(type: 'prepare' | 'nth'): void {
    const msg = this.received.find((m) => m.type === type && !this.answered.has(m));
    if (!msg) throw new Error(`no ${type} request`);
    this.answered.add(msg);
    if (msg.type === 'prepare') {
      this.sides.side(msg.capture, this.models.get(msg.capture)!, msg.options);
      this.onmessage?.({ data: { type: 'prepared', id: msg.id, ms: 1 } } as MessageEvent<FromStatsWorker>);
    } else if (msg.type === 'nth') {
      const model = this.models.get(msg.capture)!;
      const range = nthByStart(model.ranges.startNs, endedInstances(model, msg.options, msg.key).ranges, msg.n);
      this.onmessage?.({ data: { type: 'nth', id: msg.id, range, ms: 1 } } as MessageEvent<FromStatsWorker>);
    }
  }

  readonly sides = new CompareSideCache();
  private readonly answered = new Set<ToStatsWorker>();

  runs(): number {
    return this.received.filter((m) => m.type === 'run').length;
  }
}

/** Lets the model copy (which yields to the event loop) finish. */
const settle = () => new Promise((r) => setTimeout(r, 5));

/** Waits (in settle steps, at most a few seconds) until `done()` holds: copies run in timer slices, late on a loaded machine. */
async function until(done: () => boolean): Promise<void> {
  for (let k = 0; k < 400 && !done(); k++) await settle();
}

const WHOLE = { span: null, mode: 'clip', tracks: null } as const;
const TABLE: StatsRequest = { kind: 'ranges', scope: WHOLE, grouping: { by: 'name' } };
const spanTable = (endNs: number): StatsRequest => ({ kind: 'ranges', scope: { ...WHOLE, span: { startNs: 0, endNs } }, grouping: { by: 'name' } });

describe('StatsService', () => {
  it('prepares comparison halves in the background: every other request goes first', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const a = capture(1, 100);
    const b = capture(2, 120);
    expect(await service.prepare(capture(3, 10), { groupBy: 'name' })).toBe(false);
    const prepareA = service.prepare(a, { groupBy: 'name' });
    const prepareB = service.prepare(b, { groupBy: 'name' });
    const table = service.run(b, TABLE, 'table');
    await until(() => worker.received.some((m) => m.type === 'prepare'));
    // A's copy and half were under way when the others came; the table then goes before B's half.
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'prepare']);
    worker.answerNext('prepare');
    expect(await prepareA).toBe(true);
    await until(() => worker.received.some((m) => m.type === 'run'));
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'prepare', 'model', 'run']);
    worker.answer();
    await table;
    await until(() => worker.received.filter((m) => m.type === 'prepare').length === 2);
    expect(worker.received.at(-1)).toMatchObject({ type: 'prepare', capture: 2 });
    worker.answerNext('prepare');
    expect(await prepareB).toBe(true);
    expect(worker.sides.hits).toBe(0);
    // Both halves kept: the comparison sends no model and computes no half again.
    const compared = service.compare(a, b, { groupBy: 'name' }, { groupBy: 'name' }, 'compare');
    await until(() => worker.received.some((m) => m.type === 'compare'));
    const msg = worker.received.at(-1);
    if (msg?.type !== 'compare') throw new Error('no compare request');
    worker.sides.side(1, worker.models.get(1)!, msg.baseOptions);
    worker.sides.side(2, worker.models.get(2)!, msg.candidateOptions);
    expect(worker.sides.hits).toBe(2);
    worker.answerCompare();
    expect((await compared)?.result.rows.length).toBe(2);
    expect(worker.received.filter((m) => m.type === 'model')).toHaveLength(2);
  });

  it('finds the N-th instance by start time in the worker for a large capture, on the page for a small one', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const big = capture(1, 100);
    const key = compareCaptures(big.model, big.model).rows.find((r) => r.label === 'odd')!.base!.key;
    const third = service.nth(big, { groupBy: 'name' }, key, 3, 'align-a');
    const beyond = service.nth(big, { groupBy: 'name' }, key, 51, 'align-b');
    await until(() => worker.received.some((m) => m.type === 'nth'));
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'nth']);
    worker.answerNext('nth');
    // Odd ranges start at 10, 30, 50...: the third is range 5.
    expect(await third).toEqual({ range: 5, ms: 1, where: 'worker' });
    await until(() => worker.received.filter((m) => m.type === 'nth').length === 2);
    worker.answerNext('nth');
    expect((await beyond)?.range).toBe(-1);
    const small = capture(2, 10);
    const smallKey = compareCaptures(small.model, small.model).rows.find((r) => r.label === 'even')!.base!.key;
    const onPage = await service.nth(small, { groupBy: 'name' }, smallKey, 2, 'align-a');
    expect(onPage).toMatchObject({ range: 2, where: 'page' });
    expect(worker.received.filter((m) => m.type === 'nth')).toHaveLength(2);
  });

  it('answers small captures on the page without a worker', async () => {
    const workers: FakeWorker[] = [];
    const service = new StatsService(() => (workers.push(new FakeWorker()), workers[0] as unknown as Worker), 1000);
    const answer = await service.run(capture(1, 10), TABLE, 'table');
    expect(answer?.where).toBe('page');
    expect(answer?.result.kind === 'ranges' && answer.result.result.rangeCount).toBe(10);
    expect(workers).toHaveLength(0);
  });

  it('sends a large model once, runs in the worker and coalesces queued requests per slot', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const big = capture(1, 100);
    const first = service.run(big, TABLE, 'table');
    // Queued while the first runs: the second is replaced by the third.
    const second = service.run(big, spanTable(200), 'table');
    const third = service.run(big, spanTable(100), 'table');
    await settle();
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'run']);
    worker.answer();
    const a = await first;
    expect(a?.where).toBe('worker');
    expect(a?.result.kind === 'ranges' && a.result.result.rangeCount).toBe(100);
    expect(await second).toBeNull();
    await settle();
    worker.answer();
    const c = await third;
    expect(c?.result.kind === 'ranges' && c.result.result.rangeCount).toBe(10);
    // The model went over once.
    expect(worker.received.filter((m) => m.type === 'model')).toHaveLength(1);
    expect(worker.runs()).toBe(2);
    expect(service.copiedBytes()).toBeGreaterThan(100 * 16);
  });

  it('keeps requests of different slots and drops copies of closed or reloaded captures', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const big = capture(1, 100);
    const table = service.run(big, TABLE, 'table');
    const marks = service.run(big, { kind: 'marks', scope: WHOLE }, 'marks');
    await settle();
    worker.answer();
    await table;
    await settle();
    worker.answer();
    expect((await marks)?.result.kind).toBe('marks');

    const reloaded = { ...big, model: capture(1, 60).model };
    service.sync([reloaded]);
    expect(worker.received.at(-1)).toEqual({ type: 'drop', capture: 1 });
    const again = service.run(reloaded, TABLE, 'table');
    await settle();
    expect(worker.received.at(-2)?.type).toBe('model');
    worker.answer();
    const r = await again;
    expect(r?.result.kind === 'ranges' && r.result.result.rangeCount).toBe(60);
    service.dispose();
    expect(worker.terminated).toBe(true);
  });

  it('rejects the running request when the worker crashes and starts a new worker for the next', async () => {
    const workers: FakeWorker[] = [];
    const service = new StatsService(() => {
      workers.push(new FakeWorker());
      return workers.at(-1) as unknown as Worker;
    }, 50);
    const big = capture(1, 100);
    const running = service.run(big, TABLE, 'table');
    await settle();
    workers[0].onerror?.({ message: 'out of memory', preventDefault() {} } as ErrorEvent);
    await expect(running).rejects.toThrow(/out of memory/);
    const next = service.run(big, TABLE, 'table');
    await settle();
    expect(workers).toHaveLength(2);
    expect(workers[1].received.map((m) => m.type)).toEqual(['model', 'run']);
    workers[1].answer();
    expect((await next)?.where).toBe('worker');
  });

  it("copies the model columns (never the page's own buffers) and drops a copy that went stale", async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const big = capture(1, 100);
    const pending = service.run(big, TABLE, 'table');
    // Closed while its copy is made: the request resolves to nothing and no model is sent.
    service.sync([]);
    expect(await pending).toBeNull();
    expect(worker.received.filter((m) => m.type === 'model')).toHaveLength(0);
    const again = service.run(big, TABLE, 'table');
    // Two copies in idle slices (the dropped one, then this one): wait for them, however loaded the machine.
    for (let k = 0; k < 100 && !worker.received.some((m) => m.type === 'run'); k++) await settle();
    const sent = worker.received.find((m) => m.type === 'model');
    if (sent?.type !== 'model') throw new Error('no model sent');
    expect(sent.model.ranges.startNs).not.toBe(big.model.ranges.startNs);
    expect(Array.from(sent.model.ranges.startNs)).toEqual(Array.from(big.model.ranges.startNs));
    expect(big.model.ranges.startNs.length).toBe(100);
    worker.answer();
    expect((await again)?.where).toBe('worker');
  });

  it('sends a large string table in slices before the model', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const b = new ModelBuilder({ fileName: 'names', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1, 'main');
    // Long names: more than one slice of characters.
    const names = Array.from({ length: 300 }, (_, k) => `${k}:${'n'.repeat(8000)}`);
    names.forEach((name, k) => b.range(t, k * 10, k * 10 + 5, { name }));
    const big: LoadedCapture = { id: 1, model: b.finish(), offsetNs: 0, decodeMs: 0 };
    const pending = service.run(big, TABLE, 'table');
    for (let k = 0; k < 10 && !worker.received.some((m) => m.type === 'run'); k++) await settle();
    const types = worker.received.map((m) => m.type);
    expect(types.filter((x) => x === 'strings').length).toBeGreaterThan(1);
    expect(types.slice(-2)).toEqual(['model', 'run']);
    const sent = worker.received.find((m) => m.type === 'model');
    if (sent?.type !== 'model') throw new Error('no model sent');
    expect(sent.model.strings).toEqual([]);
    expect(worker.models.get(1)!.strings).toEqual(big.model.strings);
    worker.answer();
    const a = await pending;
    const rows = a?.result.kind === 'ranges' ? a.result.result.rows : [];
    expect(rows.map((r) => r.name).sort()).toEqual([...names].sort());
  });
});

/** Waits (up to 5 s, the copy yields between slices and the host may be busy) for a message of `type`. */
async function posted(worker: FakeWorker, type: ToStatsWorker['type'], count = 1): Promise<void> {
  for (let t = 0; t < 1000 && worker.received.filter((m) => m.type === type).length < count; t++) await settle();
}

/** A capture whose 'even' ranges are `slower` ns longer than `capture`'s, and with a 'late' name of its own. */
function slowerCapture(id: number, ranges: number, slower: number): LoadedCapture {
  const b = new ModelBuilder({ fileName: `c${id}`, format: 'test', byteSize: 0 });
  const t = b.thread(1, 1, 'main');
  for (let k = 0; k < ranges; k++) b.range(t, k * 100, k * 100 + 5 + (k % 3) + (k % 2 ? 0 : slower), { name: k % 2 ? 'odd' : 'even' });
  b.range(t, ranges * 100, ranges * 100 + 7, { name: 'late' });
  return { id, model: b.finish(), offsetNs: 0, decodeMs: 0 };
}

describe('StatsService with a motion gate', () => {
  it('starts worker computations only once the gate says the view is still; page computations at once', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    let open: () => void = () => {};
    let waits = 0;
    service.setMotionGate({
      whenStill: () => {
        waits++;
        return new Promise<void>((resolve) => (open = resolve));
      },
    });
    const small = capture(2, 10);
    expect((await service.run(small, TABLE, 'table'))?.where).toBe('page');
    const big = capture(1, 100);
    const table = service.run(big, TABLE, 'table');
    await until(() => waits > 0);
    await settle();
    // The model went over (a copy costs the worker no core for long), the computation waits.
    expect(worker.received.map((m) => m.type)).toEqual(['model']);
    open();
    await until(() => worker.runs() > 0);
    worker.answer();
    expect((await table)?.where).toBe('worker');
    // Removed: the next computation starts at once.
    service.setMotionGate(null);
    const next = service.run(big, spanTable(100), 'table');
    expect(worker.received.at(-1)?.type).toBe('run');
    worker.answer();
    expect((await next)?.where).toBe('worker');
    expect(waits).toBe(1);
  });
});
describe('StatsService.compare', () => {
  it('compares small pairs on the page without a worker', async () => {
    const workers: FakeWorker[] = [];
    const service = new StatsService(() => (workers.push(new FakeWorker()), workers[0] as unknown as Worker), 1000);
    const answer = await service.compare(capture(1, 40), slowerCapture(2, 40, 20), { groupBy: 'name' }, { groupBy: 'name' }, 'table');
    expect(answer?.where).toBe('page');
    expect(answer?.result.rows.find((r) => r.label === 'even')?.status).toBe('slower');
    expect(workers).toHaveLength(0);
  });

  it('sends both models, compares in the worker and answers what the page would have computed', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const base = capture(1, 100);
    const candidate = slowerCapture(2, 100, 20);
    const scope = { groupBy: 'name' } as const;
    const pending = service.compare(base, candidate, scope, scope, 'table');
    await posted(worker, 'compare');
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'model', 'compare']);
    worker.answerCompare();
    const answer = await pending;
    expect(answer?.where).toBe('worker');
    const onPage = compareCaptures(base.model, candidate.model, scope, scope);
    expect(answer?.result.rows).toEqual(onPage.rows);
    expect(answer?.result.rows.map((r) => [r.label, r.status])).toEqual([
      ['even', 'slower'],
      ['late', 'added'],
      ['odd', 'within-noise'],
    ]);
    // The result holds the page's models, so a row's instances (histograms, slowest) read them.
    expect(answer?.result.base.model).toBe(base.model);
    expect(answer?.result.candidate.model).toBe(candidate.model);
    const even = answer!.result.rows[0];
    expect(rowDurations(answer!.result, even, 'candidate')).toEqual(rowDurations(onPage, onPage.rows[0], 'candidate'));
    expect(rowDurations(answer!.result, even, 'candidate').durations).toHaveLength(50);
  });

  it('reuses a model the worker holds, runs the scopes it is given, and drops a stale queued comparison', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const base = capture(1, 100);
    const candidate = slowerCapture(2, 100, 20);
    const table = service.run(base, TABLE, 'table');
    await posted(worker, 'run');
    worker.answer();
    await table;
    const byName = { groupBy: 'name' } as const;
    const first = service.compare(base, candidate, byName, byName, 'compare');
    // Queued while the first runs: the second is replaced by the third (only 'thread' groups).
    const second = service.compare(base, candidate, byName, byName, 'compare');
    const third = service.compare(base, candidate, { groupBy: 'thread' }, { groupBy: 'thread' }, 'compare');
    await posted(worker, 'compare');
    // Only the candidate was still to send.
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'run', 'model', 'compare']);
    worker.answerCompare();
    expect((await first)?.result.groupBy).toBe('name');
    expect(await second).toBeNull();
    await posted(worker, 'compare', 2);
    worker.answerCompare();
    const threads = await third;
    expect(threads?.result.groupBy).toBe('thread');
    expect(threads?.result.rows.map((r) => r.label)).toEqual(compareCaptures(base.model, candidate.model, { groupBy: 'thread' }).rows.map((r) => r.label));
    expect(worker.received.filter((m) => m.type === 'model')).toHaveLength(2);
  });

  it("reads a row's instances in the worker for a large capture, on the page for a small one", async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const base = capture(1, 100);
    const candidate = slowerCapture(2, 100, 20);
    const onPage = compareCaptures(base.model, candidate.model);
    const even = onPage.rows.find((r) => r.label === 'even')!;
    const pending = service.instances(candidate, onPage.candidate.options, even.candidate!.key, 'detail-b');
    await posted(worker, 'instances');
    expect(worker.received.map((m) => m.type)).toEqual(['model', 'instances']);
    worker.answerInstances();
    const answer = await pending;
    expect(answer?.where).toBe('worker');
    const expected = rowDurations(onPage, even, 'candidate');
    expect(answer?.durations).toEqual(expected.durations);
    expect(answer?.ranges).toEqual(expected.ranges);
    expect(answer?.durations).toHaveLength(50);
    // Sorted by duration: the last is the slowest instance.
    expect(answer!.durations[49]).toBe(Math.max(...answer!.durations));
    const small = capture(3, 10);
    const local = await service.instances(small, {}, compareCaptures(small.model, small.model).rows[0].base!.key, 'detail-a');
    expect(local?.where).toBe('page');
    expect(local?.durations).toHaveLength(5);
  });

  it('rejects a comparison the worker failed, naming the reason', async () => {
    const worker = new FakeWorker();
    const service = new StatsService(() => worker as unknown as Worker, 50);
    const pending = service.compare(capture(1, 100), capture(2, 100), {}, {}, 'table');
    await posted(worker, 'compare');
    const request = worker.received.find((m) => m.type === 'compare')!;
    worker.onmessage?.({ data: { type: 'failed', id: (request as { id: number }).id, message: 'statistics worker: capture 2 was never sent' } } as MessageEvent<FromStatsWorker>);
    await expect(pending).rejects.toThrow('capture 2 was never sent');
  });
});

describe('copyColumns', () => {
  it('copies every typed array once, keeps shared arrays shared and other values as they are', async () => {
    const column = new Float64Array([1, 2, 3, 4, 5]);
    const value = { a: column, nested: { same: column, other: Uint8Array.from([7, 8, 9]) }, text: ['x'], n: 4 };
    // Chunks of 8 bytes and slices that end at once: one chunk per slice, within and across columns.
    let slices = 0;
    const copy = await copyColumns(value, { chunkBytes: 8, slice: async () => (slices++, 0), now: () => 1 });
    expect(copy.a).not.toBe(column);
    expect(copy.nested.same).toBe(copy.a);
    expect(Array.from(copy.a)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(copy.nested.other)).toEqual([7, 8, 9]);
    expect(copy.nested.other).toBeInstanceOf(Uint8Array);
    expect(copy.text).toBe(value.text);
    expect(copy.n).toBe(4);
    // The first slice, then one after each chunk: five chunks of the float column (copied once
    // though reached twice) and one of the byte column.
    expect(slices).toBe(1 + 5 + 1);
  });
});
