/** Counter samples in `nvtxview events`: samples without a value, delta counters and their running totals. */
import { describe, expect, it } from 'vitest';
import { counterTestModel as model } from '../../testkit/models/counterModel.ts';
import { eventJson, eventRecords } from './events.ts';

describe('counter samples in nvtxview events', () => {
  const records = [...eventRecords('c.test', model())];

  it('writes a sample without a value as value null with the reason, never NaN', () => {
    const level = records.filter((r) => r.name === 'level');
    expect(level.map((r) => [r.startNs, r.value, r.noValue])).toEqual([
      [0, 3, undefined],
      [10, null, 'unavailable'],
      [20, 4, undefined],
    ]);
    const json = JSON.parse(eventJson(level[1])) as Record<string, unknown>;
    expect(json).toMatchObject({ kind: 'counter', value: null, noValue: 'unavailable', counter: 'level' });
    expect(eventJson(level[1])).not.toMatch(/NaN/);
  });

  it('gives delta samples their value type and running total, and leaves out the derived row', () => {
    const sent = records.filter((r) => r.kind === 'counter' && r.name.startsWith('sent'));
    expect(sent.map((r) => [r.name, r.value, r.valueType, r.runningTotal, r.noValue])).toEqual([
      ['sent', 2, 'delta', 2, undefined],
      ['sent', null, 'delta', 2, 'unavailable'],
      ['sent', 5, 'delta', 7, undefined],
    ]);
    expect(records.filter((r) => r.kind === 'counter')).toHaveLength(6);
  });
});
