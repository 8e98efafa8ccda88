import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import { argbToRgb, contrastRatio, namePalette, nameHash, rgbToCss, stylePaint, textColorOn } from './styleColors.ts';

describe('colors', () => {
  it('reads NVTX ARGB, with 0 meaning none and a zero alpha taken as opaque', () => {
    expect(argbToRgb(0)).toBeNull();
    expect(rgbToCss(argbToRgb(0xff3366cc)!)).toBe('#3366cc');
    expect(rgbToCss(argbToRgb(0x00ff0000)!)).toBe('#ff0000');
  });

  it('picks the label color with the higher contrast, at least 4.5:1 on every palette color', () => {
    expect(textColorOn({ r: 255, g: 255, b: 0 })).toBe('#101214');
    expect(textColorOn({ r: 0, g: 0, b: 128 })).toBe('#ffffff');
    for (const dark of [false, true]) {
      for (const c of namePalette(dark)) {
        const text = textColorOn(c) === '#ffffff' ? { r: 255, g: 255, b: 255 } : { r: 16, g: 18, b: 20 };
        expect(contrastRatio(c, text)).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('gives a name the same palette color in any model, and uses the capture color when set', () => {
    const make = (names: string[]) => {
      const b = new ModelBuilder({ fileName: 'c.nvtxt', format: 'test', byteSize: 0 });
      const t = b.thread(1, 1);
      names.forEach((name, i) => b.range(t, i * 10, i * 10 + 5, { name, color: name === 'red' ? 0xffff0000 : 0 }));
      return b.finish();
    };
    const a = make(['alpha', 'beta', 'red']);
    const b = make(['beta', 'gamma', 'alpha']);
    const fillOf = (m: ReturnType<typeof make>, name: string) => {
      const s = [...m.styles.name].findIndex((id) => m.strings[id] === name);
      return stylePaint(m, false).fill[s];
    };
    expect(fillOf(a, 'alpha')).toBe(fillOf(b, 'alpha'));
    expect(fillOf(a, 'beta')).toBe(fillOf(b, 'beta'));
    expect(fillOf(a, 'red')).toBe('#ff0000');
    expect(nameHash('alpha')).toBe(nameHash('alpha'));
    expect(nameHash('alpha')).not.toBe(nameHash('alphb'));
  });
});
