import { useEffect } from 'react';
import { settingsStore, useSettings, type ThemeChoice } from '../../lib/settings-store';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };

/** Applies the theme to <html data-theme> (system follows prefers-color-scheme) and cycles it. */
export function ThemeToggle() {
  const theme = useSettings((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-label={`Theme: ${theme}. Switch to ${NEXT[theme]}`}
      onClick={() => settingsStore.getState().update({ theme: NEXT[theme] })}
    >
      Theme: {theme}
    </button>
  );
}
