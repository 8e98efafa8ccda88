import { describe, expect, it } from 'vitest';
import { colorByName, namedColors } from './namedColors.ts';

describe('NVTXT named colors', () => {
  it('has the 141 .NET web colors, Transparent included', () => {
    expect(Object.keys(namedColors)).toHaveLength(141);
    expect(namedColors.Transparent).toBe(0x00ffffff);
    for (const [name, argb] of Object.entries(namedColors)) {
      if (name !== 'Transparent') expect(argb >>> 24, name).toBe(0xff);
    }
  });

  it('looks names up ignoring case', () => {
    expect(colorByName('LightGoldenrodYellow')).toBe(0xfffafad2);
    expect(colorByName('lightgoldenrodyellow')).toBe(0xfffafad2);
    expect(colorByName('REBECCAPURPLE')).toBeUndefined();
    expect(colorByName('Grey')).toBeUndefined();
    // .NET (like CSS) differs from X11 on these.
    expect(colorByName('Gray')).toBe(0xff808080);
    expect(colorByName('Green')).toBe(0xff008000);
  });
});
