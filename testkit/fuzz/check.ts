/**
 * What one fuzz case must survive: `loadModel` (the page's and the CLI's pipeline), the model
 * invariants, and the CLI statistics (stats table and CSV, counter statistics, `events --json`). Runs inside the
 * harness's worker thread; the time bound is the harness's.
 */
import { fileCounterStats, renderCounterCsv, renderCounterTable } from '../../src/cli/counters.ts';
import { eventJson, eventRecords } from '../../src/cli/events.ts';
import { fileStats, renderStatsCsv, renderStatsTable } from '../../src/cli/stats.ts';
import { LoadFailed, loadModel, memorySource } from '../../src/import/pipeline.ts';
import { modelViolations } from '../models/invariants.ts';

/**
 * 'loaded': a sound model (maybe with load issues); 'refused': a clear load error; 'exception':
 * anything else thrown; 'invalid-model': a model that breaks its rules; 'hang': over the time bound
 * (set by the harness, never here).
 */
export type Outcome = 'loaded' | 'refused' | 'exception' | 'invalid-model' | 'hang';

export interface CaseResult {
  outcome: Outcome;
  /** The load error, the exception with its stack top, or the first broken rules. */
  detail?: string;
  /** Wall time of load + checks, ms. */
  ms: number;
  ranges?: number;
  issues?: number;
}

export async function checkCase(name: string, bytes: Uint8Array): Promise<CaseResult> {
  const t0 = performance.now();
  const took = () => Math.round((performance.now() - t0) * 10) / 10;
  let stage = 'loadModel';
  try {
    const model = await loadModel(memorySource(name, bytes));
    stage = 'invariants';
    const broken = modelViolations(model, 5);
    if (broken.length > 0) return { outcome: 'invalid-model', detail: broken.join('; '), ms: took(), ranges: model.ranges.startNs.length };
    stage = 'stats';
    const stats = fileStats(name, model, { groupBy: 'name', mode: 'clip' });
    renderStatsTable(name, stats, 'name');
    renderStatsCsv(stats.records);
    const byThread = fileStats(name, model, { groupBy: 'thread', mode: 'overlap', fromNs: 0, toNs: model.durationNs / 2 });
    renderStatsTable(name, byThread, 'thread');
    stage = 'counters';
    const counters = fileCounterStats(name, model, {});
    renderCounterTable(name, counters);
    renderCounterCsv(counters.records);
    stage = 'events';
    for (const record of eventRecords(name, model)) eventJson(record);
    return { outcome: 'loaded', ms: took(), ranges: model.ranges.startNs.length, issues: model.issues.length };
  } catch (e) {
    const err = e as Error;
    // A load error: the pipeline's, or a decoder's plain Error whose message names the file (what
    // the page and the CLI show as is). A TypeError, RangeError... is a bug whatever it says.
    if (e instanceof LoadFailed || (err.constructor === Error && stage === 'loadModel' && err.message.startsWith(`${name}: `))) {
      return { outcome: 'refused', detail: err.message, ms: took() };
    }
    const where = (err.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' < ');
    return { outcome: 'exception', detail: `${stage}: ${err.name}: ${err.message} (${where})`, ms: took() };
  }
}
