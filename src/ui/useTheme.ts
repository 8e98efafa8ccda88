/** The theme in effect (the user's choice, or the system's when the choice is 'system'). */
import { useEffect, useState } from 'react';
import { useViewer } from '../state/context.tsx';
import type { ThemeChoice } from '../state/viewerStore.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function effectiveTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

/** The effective theme, re-rendering when the choice or the system preference changes. */
export function useEffectiveTheme(): 'light' | 'dark' {
  const choice = useViewer((s) => s.theme);
  const [systemDark, setSystemDark] = useState(() => window.matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const update = () => setSystemDark(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return effectiveTheme(choice, systemDark);
}

/** Keeps <html data-theme> on the effective theme (the CSS custom properties hang off it). */
export function useThemeAttribute(): void {
  const theme = useEffectiveTheme();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}
