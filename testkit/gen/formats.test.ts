/**
 * Every generator format decodes, through the real pipeline, to the capture the event stream
 * describes: the ranges and marks of a model fed straight from the generator (testkit/gen/model.ts),
 * by name, with no load issue. The native writer's padding is skipped with one warning.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/import/nodeSource.ts';
import { loadModel } from '../../src/import/pipeline.ts';
import type { Model } from '../../src/model/types.ts';
import { EXTENSIONS, FORMATS, generateFile, type WriterOptions } from './main.ts';
import { buildGeneratedModel } from './model.ts';

const dir = mkdtempSync(join(tmpdir(), 'nvtxview-gen-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function load(format: string, options: WriterOptions): Promise<{ model: Model; bytes: number }> {
  const path = join(dir, `capture-${format}-${options.padding ?? 0}.${EXTENSIONS[format]}`);
  await generateFile(path, format, options);
  const source = await fileSource(path);
  try {
    return { model: await loadModel(source), bytes: statSync(path).size };
  } finally {
    await source.close();
  }
}

/** Count of each name among the ranges (or marks) of a model. */
function nameCounts(model: Model, kind: 'ranges' | 'marks'): Record<string, number> {
  const styles = kind === 'ranges' ? model.ranges.style : model.marks.style;
  const out: Record<string, number> = {};
  for (const s of styles) {
    const name = model.strings[model.styles.name[s]];
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

const options: WriterOptions = { events: 3000, seed: 5, threads: 4 };
const expected = buildGeneratedModel(options);

describe('generated captures', () => {
  for (const format of Object.keys(FORMATS)) {
    it(`${format}: same ranges and marks as the event stream, no load issue`, async () => {
      const { model } = await load(format, options);
      expect(model.capture.format).toBe(format);
      expect(model.issues).toEqual([]);
      expect(model.threads.map((t) => t.name).sort()).toEqual(expected.threads.map((t) => t.name).sort());
      expect(nameCounts(model, 'ranges')).toEqual(nameCounts(expected, 'ranges'));
      expect(nameCounts(model, 'marks')).toEqual(nameCounts(expected, 'marks'));
    });
  }

  it('nvtxc padding: the file grows to the requested size, the padding is skipped with one warning', async () => {
    const { model, bytes } = await load('nvtxc', { ...options, padding: 3_000_000, paddingChunkBytes: 100_000 });
    expect(bytes).toBeGreaterThanOrEqual(3_000_000);
    expect(model.issues).toHaveLength(1);
    expect(model.issues[0].message).toMatch(/skipped \d+ chunks of unknown kind 126/);
    expect(nameCounts(model, 'ranges')).toEqual(nameCounts(expected, 'ranges'));
    expect(nameCounts(model, 'marks')).toEqual(nameCounts(expected, 'marks'));
  });
});
