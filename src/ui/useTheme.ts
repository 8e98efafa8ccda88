/** Applies the theme choice to <html data-theme>, following the system when the choice is 'system'. */
import { useEffect } from 'react';
import { useViewer } from '../state/context.tsx';
import type { ThemeChoice } from '../state/viewerStore.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function effectiveTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

export function useThemeAttribute(): void {
  const choice = useViewer((s) => s.theme);
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const apply = () => {
      document.documentElement.dataset.theme = effectiveTheme(choice, media.matches);
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [choice]);
}
