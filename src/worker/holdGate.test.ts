import { describe, expect, it } from 'vitest';
import { HoldGate } from './holdGate.ts';

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('HoldGate', () => {
  it('passes a checkpoint at once when not held, and waits while held until released', async () => {
    const gate = new HoldGate(60_000, nextTask);
    await gate.checkpoint();
    gate.hold();
    let passed = false;
    const waiting = gate.checkpoint().then(() => (passed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(passed).toBe(false);
    expect(gate.holding).toBe(true);
    gate.release();
    await waiting;
    expect(passed).toBe(true);
    expect(gate.holding).toBe(false);
  });

  it('lets go by itself after maxMs (a page that never says resume does not stop the load)', async () => {
    const gate = new HoldGate(30, nextTask);
    gate.hold();
    const t0 = performance.now();
    await gate.checkpoint();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    expect(gate.holding).toBe(false);
  });

  it('says when a checkpoint has stopped on a hold, once per hold', async () => {
    let held = 0;
    const gate = new HoldGate(60_000, nextTask, () => held++);
    await gate.checkpoint();
    expect(held).toBe(0);
    gate.hold();
    const waiting = gate.checkpoint();
    await new Promise((r) => setTimeout(r, 10));
    expect(held).toBe(1);
    gate.release();
    await waiting;
    // Released before the next checkpoint: nothing stopped.
    gate.hold();
    gate.release();
    await gate.checkpoint();
    expect(held).toBe(1);
  });
});
