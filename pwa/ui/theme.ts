/**
 * The app's colour theme as the page shows it now: `light` or `dark`, on
 * `<html data-theme>`. What decides it (the system's preference, or the person's choice on this
 * device) sets it there and then announces the change; anything drawn outside CSS (the xterm
 * terminal) reads it here and follows the announcement.
 */
export type Theme = 'light' | 'dark';

export const THEME_EVENT = 'pm-theme-change';

export function currentTheme(): Theme {
  return document.documentElement.dataset.theme === 'light' ? 'light' : 'dark';
}

/** Calls `listener` with each new theme; returns what stops listening. */
export function onThemeChange(listener: (theme: Theme) => void): () => void {
  const handler = () => listener(currentTheme());
  window.addEventListener(THEME_EVENT, handler);
  return () => window.removeEventListener(THEME_EVENT, handler);
}

/** Shows `theme` and tells whoever listens. */
export function showTheme(theme: Theme): void {
  if (document.documentElement.dataset.theme === theme) return;
  document.documentElement.dataset.theme = theme;
  window.dispatchEvent(new Event(THEME_EVENT));
}
