/**
 * Captures larger than 2 GB load through the slicing path (`fileSource` + `loadModel`, 4 MiB reads,
 * the model built as the slices arrive): no buffer or string ever holds the file. The files are
 * generated in a few seconds each: a small capture (testkit/gen/) spread over 2.1 GB of what a
 * reader skips: chunks of an unknown kind in a native capture, whitespace between the events of a
 * Chrome JSON trace. Every event on both sides of the 2 GiB mark must arrive, and a problem beyond
 * it must be reported at its exact byte offset. Not timed: throughput is the benchmarks' job.
 */
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFile, type WriterOptions } from '../../testkit/gen/main.ts';
import { buildGeneratedModel } from '../../testkit/gen/model.ts';
import type { Model } from '../model/types.ts';
import { fileSource } from './nodeSource.ts';
import { loadModel } from './pipeline.ts';

const dir = mkdtempSync(join(tmpdir(), 'nvtxview-2gb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TWO_GIB = 2 ** 31;
const options: WriterOptions = { events: 50_000, seed: 11, threads: 4, padding: TWO_GIB + 100 * 2 ** 20 };
const expected = buildGeneratedModel(options);

function counts(model: Model) {
  return { ranges: model.ranges.startNs.length, marks: model.marks.timeNs.length };
}

async function load(path: string): Promise<Model> {
  const source = await fileSource(path);
  try {
    return await loadModel(source);
  } finally {
    await source.close();
  }
}

describe('files larger than 2 GB', () => {
  it('native capture: every event, and a cut-short last chunk reported at its offset past 2 GiB', async () => {
    const path = join(dir, 'big.nvtxc');
    await generateFile(path, 'nvtxc', options);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(TWO_GIB);
    // A chunk header announcing 1000 body bytes of which only 8 follow: the file ends inside it.
    const head = Buffer.alloc(12);
    head.writeUInt32LE(1000, 0);
    head.writeUInt16LE(3, 4);
    appendFileSync(path, Buffer.concat([head, Buffer.alloc(8)]));
    const model = await load(path);
    rmSync(path);
    expect(counts(model)).toEqual(counts(expected));
    const cut = model.issues.find((i) => i.severity === 'error');
    expect(cut?.offset).toBe(size);
    expect(cut?.message).toContain(`everything before byte ${size} is kept`);
  }, 600_000);

  it('Chrome JSON: every event, across 2.1 GB of whitespace', async () => {
    const path = join(dir, 'big.json');
    await generateFile(path, 'chrome-json', options);
    expect(statSync(path).size).toBeGreaterThan(TWO_GIB);
    const model = await load(path);
    rmSync(path);
    expect(model.issues).toEqual([]);
    expect(counts(model)).toEqual(counts(expected));
  }, 600_000);
});
