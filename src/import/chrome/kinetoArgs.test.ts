import { describe, expect, it } from 'vitest';
import { readKinetoArgs, type KinetoArgs } from './kinetoArgs.ts';

const read = (text: string) => {
  const buf = new TextEncoder().encode(text);
  return { ...readKinetoArgs(buf, 0, buf.length, { correlation: undefined, device: undefined, stream: undefined }) };
};

describe('Kineto args from bytes', () => {
  it('reads correlation, device and stream among other values, nested ones skipped', () => {
    expect(read('{"External id": 517, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 359, "grid": [1, 1, 1], "x": {"stream": 99}}')).toEqual<KinetoArgs>({
      correlation: 359,
      device: 0,
      stream: 7,
    });
  });

  it('leaves out what is not a whole non-negative number, and survives bad input', () => {
    expect(read('{"correlation": "12", "device": 1.5, "stream": -3}')).toEqual({ correlation: undefined, device: undefined, stream: undefined });
    expect(read('{"stream": 7, "correlation": ')).toMatchObject({ stream: 7, correlation: undefined });
    expect(read('[1, 2]')).toEqual({ correlation: undefined, device: undefined, stream: undefined });
    expect(read('{"corr\\u0065lation": 5}').correlation).toBeUndefined();
  });
});
