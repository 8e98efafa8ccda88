/// <reference lib="webworker" />
/** Thin worker shell: keeps the models it is sent and answers statistics requests on them. */
import type { Model } from '../../model/types.ts';
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
