/**
 * Comparing a capture loaded two ways (one thread against the two-thread loads: the tape,
 * src/import/tapePipeline.ts, and the Chrome split, src/import/chromeSplit.ts): what each way
 * gave, compared model for model, failure for failure.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Model } from '../../src/model/types.ts';
import { SHARED_FIXTURES } from '../fixtures.ts';
import { FORMATS, type WriterOptions } from '../gen/main.ts';
import { MemorySink } from '../gen/sink.ts';

/** What a load gave: its model, or the message it failed with. */
export type LoadOutcome = { model: Model } | { error: string };

/**
 * The outcome of `load` (a thrown error becomes its message). A load may answer something other
 * than a model (`Other`: the tape's or the split's "not this format"), which is passed through.
 */
export async function outcomeOf<Other extends object = never>(load: () => Promise<Model | Other>): Promise<LoadOutcome | Exclude<Other, Model>> {
  try {
    const r = await load();
    return 'ranges' in r ? { model: r as Model } : (r as Exclude<Other, Model>);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Expects `b` to be `a`: the same failure, or a model equal to `a`'s, issues compared first. */
export function expectSameOutcome(name: string, a: LoadOutcome, b: LoadOutcome): void {
  if ('error' in a) {
    expect(b, name).toEqual(a);
    return;
  }
  expect('model' in b, `${name}: ${'error' in b ? b.error : ''}`).toBe(true);
  const mb = (b as { model: Model }).model;
  // Issues first: a difference there reads better than one deep in the tables.
  expect(mb.issues, name).toEqual(a.model.issues);
  expect(mb, name).toEqual(a.model);
}

/** A generated capture of `format` (testkit/gen), as bytes. */
export async function generatedCapture(format: string, options: WriterOptions): Promise<Uint8Array> {
  const sink = new MemorySink();
  await FORMATS[format](sink, options);
  return sink.toBytes();
}

/** Every shared fixture file whose name `keep` accepts, as absolute paths in a stable order. */
export function sharedFixtureFiles(keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (keep(name)) out.push(path);
    }
  };
  walk(SHARED_FIXTURES);
  return out;
}
