/**
 * The canvas palette, read from the app's CSS custom properties (ui contract) so that canvas and
 * HTML agree; defaults apply where a property is missing.
 */

export interface Theme {
  dark: boolean;
  bg: string;
  fg: string;
  fgMuted: string;
  panelBg: string;
  border: string;
  grid: string;
  accent: string;
  /** Translucent fill of the selected span. */
  selection: string;
  hover: string;
  fontUi: string;
  fontMono: string;
  /** Merged sub-pixel blocks whose ranges have different colors. */
  mixed: string;
  /** Background of group (process, thread) header rows on the canvas. */
  groupBg: string;
  /** Font of labels inside ranges. */
  labelFont: string;
  /** Font of ruler ticks. */
  rulerFont: string;
}

/** Custom properties the app defines (see notes/ui-contract.md). */
export const THEME_PROPERTIES = [
  '--bg',
  '--fg',
  '--fg-muted',
  '--panel-bg',
  '--border',
  '--grid',
  '--accent',
  '--selection',
  '--hover',
  '--font-ui',
  '--font-mono',
] as const;

const LIGHT: Record<(typeof THEME_PROPERTIES)[number], string> = {
  '--bg': '#ffffff',
  '--fg': '#1d2125',
  '--fg-muted': '#5f6b76',
  '--panel-bg': '#f4f6f8',
  '--border': '#d5dbe1',
  '--grid': '#e9edf1',
  '--accent': '#0b6bcb',
  '--selection': 'rgba(11, 107, 203, 0.16)',
  '--hover': 'rgba(0, 0, 0, 0.06)',
  '--font-ui': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  '--font-mono': 'ui-monospace, "SF Mono", Menlo, Consolas, monospace',
};

const DARK: typeof LIGHT = {
  '--bg': '#16191d',
  '--fg': '#e3e7eb',
  '--fg-muted': '#98a3ad',
  '--panel-bg': '#1e2227',
  '--border': '#343a41',
  '--grid': '#262b31',
  '--accent': '#5aa9ff',
  '--selection': 'rgba(90, 169, 255, 0.2)',
  '--hover': 'rgba(255, 255, 255, 0.08)',
  '--font-ui': LIGHT['--font-ui'],
  '--font-mono': LIGHT['--font-mono'],
};

/** A theme from property values (missing ones take the default of the light or dark theme). */
export function themeFrom(values: Partial<Record<string, string>>, dark: boolean): Theme {
  const base = dark ? DARK : LIGHT;
  const v = (name: keyof typeof LIGHT) => values[name]?.trim() || base[name];
  const fontUi = v('--font-ui');
  const fontMono = v('--font-mono');
  return {
    dark,
    bg: v('--bg'),
    fg: v('--fg'),
    fgMuted: v('--fg-muted'),
    panelBg: v('--panel-bg'),
    border: v('--border'),
    grid: v('--grid'),
    accent: v('--accent'),
    selection: v('--selection'),
    hover: v('--hover'),
    fontUi,
    fontMono,
    mixed: dark ? '#6b7480' : '#8d97a1',
    groupBg: v('--panel-bg'),
    labelFont: `11px ${fontUi}`,
    rulerFont: `10.5px ${fontUi}`,
  };
}

/** The theme in effect for `el`: `data-theme` on <html>, else the system preference. */
export function readTheme(el: Element): Theme {
  const style = getComputedStyle(el);
  const values: Record<string, string> = {};
  for (const name of THEME_PROPERTIES) values[name] = style.getPropertyValue(name);
  const attr = document.documentElement.dataset.theme;
  const dark = attr === 'dark' || (attr !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  return themeFrom(values, dark);
}
