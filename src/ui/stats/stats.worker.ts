/// <reference lib="webworker" />
/** Thin worker shell: keeps the models it is sent and answers statistics requests on them. */
import type { Model } from '../../model/types.ts';
import { compareSides, endedInstances, nthByStart } from '../../analysis/compare/index.ts';
import { CompareSideCache } from './compareSideCache.ts';
import { computeStats, resultTransferables } from './compute.ts';
import { StringCollector } from '../../worker/stringSlices.ts';
import type { FromStatsWorker, ToStatsWorker } from './stats.protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const models = new Map<number, Model>();
const strings = new Map<number, StringCollector>();
const sides = new CompareSideCache();
const post = (msg: FromStatsWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

/**
 * Answers request `id` on the models of `captures`: "failed" when one was never sent or the work
 * throws, else what `answer` posts given the models and the time it started.
 */
function withModels(id: number, captures: number[], answer: (models: Model[], t0: number) => void): void {
  const found: Model[] = [];
  for (const capture of captures) {
    const model = models.get(capture);
    if (!model) return post({ type: 'failed', id, message: `statistics worker: capture ${capture} was never sent` });
    found.push(model);
  }
  try {
    answer(found, performance.now());
  } catch (e) {
    post({ type: 'failed', id, message: e instanceof Error ? e.message : String(e) });
  }
}

scope.onmessage = (event: MessageEvent<ToStatsWorker>) => {
  const msg = event.data;
  if (msg.type === 'strings') {
    let collector = strings.get(msg.capture);
    if (!collector) strings.set(msg.capture, (collector = new StringCollector()));
    collector.add(msg.strings);
  } else if (msg.type === 'model') {
    const sliced = strings.get(msg.capture)?.take();
    strings.delete(msg.capture);
    if (sliced) msg.model.strings = sliced;
    models.set(msg.capture, msg.model);
    sides.drop(msg.capture);
  } else if (msg.type === 'drop') {
    models.delete(msg.capture);
    strings.delete(msg.capture);
    sides.drop(msg.capture);
  } else if (msg.type === 'prepare') {
    withModels(msg.id, [msg.capture], ([model], t0) => {
      sides.side(msg.capture, model, msg.options);
      post({ type: 'prepared', id: msg.id, ms: performance.now() - t0 });
    });
  } else if (msg.type === 'nth') {
    withModels(msg.id, [msg.capture], ([model], t0) => {
      const range = nthByStart(model.ranges.startNs, endedInstances(model, msg.options, msg.key).ranges, msg.n);
      post({ type: 'nth', id: msg.id, range, ms: performance.now() - t0 });
    });
  } else if (msg.type === 'compare') {
    withModels(msg.id, [msg.base, msg.candidate], ([base, candidate], t0) => {
      // Halves prepared ahead of time (or by an earlier comparison) are reused.
      const groupBy = msg.baseOptions.groupBy ?? 'name';
      const result = compareSides(
        sides.side(msg.base, base, { ...msg.baseOptions, groupBy }),
        sides.side(msg.candidate, candidate, { ...msg.candidateOptions, groupBy }),
      );
      // The models stay here: the page has its own (the rows' group keys are the same there).
      post({
        type: 'compared',
        id: msg.id,
        groupBy: result.groupBy,
        rows: result.rows,
        baseOptions: result.base.options,
        candidateOptions: result.candidate.options,
        ms: performance.now() - t0,
      });
    });
  } else if (msg.type === 'instances') {
    withModels(msg.id, [msg.capture], ([model], t0) => {
      // Copied, not transferred: the arrays may be shared with the worker's own caches.
      const { durations, ranges } = endedInstances(model, msg.options, msg.key);
      post({ type: 'instances', id: msg.id, durations, ranges, ms: performance.now() - t0 });
    });
  } else if (msg.type === 'run') {
    withModels(msg.id, [msg.capture], ([model], t0) => {
      const result = computeStats(model, msg.request, (m, options) => sides.table(msg.capture, model, m, options));
      post({ type: 'result', id: msg.id, result, ms: performance.now() - t0 }, resultTransferables(result));
    });
  }
};
