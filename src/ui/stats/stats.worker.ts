/// <reference lib="webworker" />
/** Thin worker shell: keeps the models it is sent and answers statistics requests on them. */
import type { Model } from '../../model/types.ts';
import { compareCaptures, endedInstances } from '../../analysis/compare/index.ts';
import { computeStats, resultTransferables } from './compute.ts';
import { StringCollector } from '../../worker/stringSlices.ts';
import type { FromStatsWorker, ToStatsWorker } from './stats.protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const models = new Map<number, Model>();
const strings = new Map<number, StringCollector>();
const post = (msg: FromStatsWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

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
  } else if (msg.type === 'drop') {
    models.delete(msg.capture);
    strings.delete(msg.capture);
  } else if (msg.type === 'compare') {
    const base = models.get(msg.base);
    const candidate = models.get(msg.candidate);
    if (!base || !candidate) {
      post({ type: 'failed', id: msg.id, message: `statistics worker: capture ${base ? msg.candidate : msg.base} was never sent` });
      return;
    }
    try {
      const t0 = performance.now();
      const result = compareCaptures(base, candidate, msg.baseOptions, msg.candidateOptions);
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
    } catch (e) {
      post({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) });
    }
  } else if (msg.type === 'instances') {
    const model = models.get(msg.capture);
    if (!model) {
      post({ type: 'failed', id: msg.id, message: `statistics worker: capture ${msg.capture} was never sent` });
      return;
    }
    try {
      const t0 = performance.now();
      // Copied, not transferred: the arrays may be shared with the worker's own caches.
      const { durations, ranges } = endedInstances(model, msg.options, msg.key);
      post({ type: 'instances', id: msg.id, durations, ranges, ms: performance.now() - t0 });
    } catch (e) {
      post({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) });
    }
  } else if (msg.type === 'run') {
    const model = models.get(msg.capture);
    if (!model) {
      post({ type: 'failed', id: msg.id, message: `statistics worker: capture ${msg.capture} was never sent` });
      return;
    }
    try {
      const t0 = performance.now();
      const result = computeStats(model, msg.request);
      post({ type: 'result', id: msg.id, result, ms: performance.now() - t0 }, resultTransferables(result));
    } catch (e) {
      post({ type: 'failed', id: msg.id, message: e instanceof Error ? e.message : String(e) });
    }
  }
};
