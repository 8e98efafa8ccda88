import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flowLinks, rangeAtPoint } from '../../model/flows.ts';
import { rangeName } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';

const load = (text: string) => loadModel(memorySource('flows.json', new TextEncoder().encode(text)));
const named = (m: Model, name: string) => [...Array(m.ranges.startNs.length).keys()].find((i) => rangeName(m, i) === name)!;

describe('Chrome flow events', () => {
  it('become arrows between the ranges at their points: start → step → end, across threads', async () => {
    const m = await load(`[
      {"ph":"X","name":"producer","pid":1,"tid":1,"ts":0,"dur":10},
      {"ph":"X","name":"inner","pid":1,"tid":1,"ts":2,"dur":3},
      {"ph":"X","name":"relay","pid":1,"tid":2,"ts":12,"dur":5},
      {"ph":"X","name":"consumer","pid":1,"tid":3,"ts":20,"dur":5},
      {"ph":"s","cat":"q","id":7,"name":"job","pid":1,"tid":1,"ts":3},
      {"ph":"t","cat":"q","id":7,"name":"job","pid":1,"tid":2,"ts":13},
      {"ph":"f","cat":"q","id":7,"name":"job","pid":1,"tid":3,"ts":18},
      {"ph":"f","cat":"q","id":99,"name":"lost","pid":1,"tid":3,"ts":21}
    ]`);
    expect(m.flows!.fromNs.length).toBe(2);
    const [inner, relay, consumer] = ['inner', 'relay', 'consumer'].map((n) => named(m, n));
    // The start binds to the deepest enclosing range; the end without "bp":"e" to the next range.
    expect(flowLinks(m, inner)).toEqual([[inner, relay]]);
    expect(flowLinks(m, relay)).toEqual([
      [inner, relay],
      [relay, consumer],
    ]);
    expect(flowLinks(m, consumer)).toEqual([[relay, consumer]]);
    expect(flowLinks(m, named(m, 'producer'))).toEqual([]);
    expect(m.issues.map((i) => i.message).join('\n')).toContain('1 flow step/end events with no flow start');
  });

  it('v2: slices with bind_id and flow_out / flow_in are joined', async () => {
    const m = await load(`[
      {"ph":"X","name":"post","pid":1,"tid":1,"ts":0,"dur":10,"bind_id":"0x5","flow_out":true},
      {"ph":"X","name":"hop","pid":1,"tid":2,"ts":20,"dur":10,"bind_id":"0x5","flow_in":true,"flow_out":true},
      {"ph":"X","name":"run","pid":1,"tid":3,"ts":40,"dur":10,"bind_id":"0x5","flow_in":true},
      {"ph":"X","name":"other","pid":1,"tid":3,"ts":60,"dur":10,"flow_in":false}
    ]`);
    const [post, hop, run] = ['post', 'hop', 'run'].map((n) => named(m, n));
    expect(flowLinks(m, hop)).toEqual([
      [post, hop],
      [hop, run],
    ]);
    expect(flowLinks(m, named(m, 'other'))).toEqual([]);
    expect(m.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('finds no range where a thread has none', async () => {
    const m = await load(`[{"ph":"X","name":"a","pid":1,"tid":1,"ts":5,"dur":1},{"ph":"s","id":1,"pid":1,"tid":1,"ts":0},{"ph":"f","id":1,"pid":1,"tid":2,"ts":3}]`);
    expect(rangeAtPoint(m, m.threads.findIndex((t) => t.tid === 2), 3)).toBe(-1);
    expect(flowLinks(m, named(m, 'a'))).toEqual([]);
  });

  it('match the fwdbwd flows of the PyTorch fixture, counted from the JSON', async () => {
    const text = readFileSync('../shared/fixtures/pytorch/cnn-h100-torch2.11.json', 'utf8');
    const m = await load(text);
    const events = (JSON.parse(text) as { traceEvents: { ph: string; cat?: string; id?: number }[] }).traceEvents;
    const starts = new Set(events.filter((e) => e.ph === 's' && e.cat === 'fwdbwd').map((e) => e.id));
    const pairs = events.filter((e) => e.ph === 'f' && e.cat === 'fwdbwd' && starts.has(e.id)).length;
    expect(m.flows!.fromNs.length).toBe(pairs);
    // Each binds to a range at both ends (fwdbwd joins a forward op to its backward op).
    let bound = 0;
    for (let k = 0; k < m.flows!.fromNs.length; k++) {
      if (rangeAtPoint(m, m.flows!.fromThread[k], m.flows!.fromNs[k]) >= 0 && rangeAtPoint(m, m.flows!.toThread[k], m.flows!.toNs[k]) >= 0) bound++;
    }
    expect(bound).toBe(pairs);
  });
});
