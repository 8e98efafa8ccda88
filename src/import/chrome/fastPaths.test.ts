/**
 * The fast readers (fastEvent.ts, nested values, counterArgs.ts) against the general ones
 * (eventFields.ts, JSON.parse) on whole files: the PyTorch H100 fixture and generated traces in
 * each layout the writers use. Every column of the two models must be equal, and the model sound.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromeJsonPieces, type ChromeJsonOptions } from '../../../testkit/gen/chromeJson.ts';
import { decodeChromeBytes } from '../../../testkit/load/chromeReaders.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import type { Model } from '../../model/types.ts';

const FIXTURE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';
const decode = (bytes: Uint8Array, fastPath: boolean): Promise<Model> => decodeChromeBytes(bytes, fastPath);

async function expectSameModels(bytes: Uint8Array): Promise<Model> {
  const fast = await decode(bytes, true);
  const general = await decode(bytes, false);
  expect(modelViolations(fast)).toEqual([]);
  // Column by column first (a readable failure), then everything else.
  for (const key of Object.keys(fast.ranges) as (keyof Model['ranges'])[]) expect(fast.ranges[key], `ranges.${key}`).toEqual(general.ranges[key]);
  expect(fast).toEqual(general);
  return fast;
}

function generated(options: ChromeJsonOptions): Uint8Array {
  return new TextEncoder().encode([...chromeJsonPieces(options)].join(''));
}

describe('Chrome JSON fast readers', () => {
  it('give the model of the general readers on the PyTorch H100 fixture', async () => {
    const model = await expectSameModels(new Uint8Array(readFileSync(FIXTURE)));
    expect(model.ranges.startNs.length).toBeGreaterThan(1000);
  }, 120_000);

  it('give the model of the general readers on generated traces, flat and nested, one line and one event per line', async () => {
    for (const options of [
      { events: 4_000, seed: 3 },
      { events: 4_000, seed: 4, nestedArgs: true },
      { events: 4_000, seed: 5, nestedArgs: true, oneLine: true },
      { events: 2_000, seed: 6, threads: 3 },
    ] satisfies ChromeJsonOptions[]) {
      const model = await expectSameModels(generated(options));
      expect(model.counters.value.length, JSON.stringify(options)).toBeGreaterThan(0);
      expect(model.issues, JSON.stringify(options)).toEqual([]);
    }
  }, 120_000);
});
