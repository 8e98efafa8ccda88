import { describe, expect, it } from 'vitest';
import { modelsDrawn, whenModelDrawn } from './modelsDrawn.ts';

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('modelsDrawn', () => {
  it('tells every waiter of a drawn model, once, and no waiter of another', async () => {
    const a = {};
    const b = {};
    const first = whenModelDrawn(a);
    const second = whenModelDrawn(a);
    const other = whenModelDrawn(b);
    expect(await settled(first)).toBe(false);
    modelsDrawn([a]);
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(other)).toBe(false);
    // A later drawing of the same model is not a first drawing any waiter still waits for.
    const late = whenModelDrawn(a);
    expect(await settled(late)).toBe(false);
    modelsDrawn([b, a]);
    expect(await settled(other)).toBe(true);
    expect(await settled(late)).toBe(true);
  });
});
