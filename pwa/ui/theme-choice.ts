import { showTheme, type Theme } from './theme.js';

/**
 * Which theme the person chose on this device: the system's (followed as it changes), or
 * one of the two whatever the system says, kept in localStorage.
 *
 * pwa/public/theme-boot.js shows it before the first paint: a plain script loaded from the
 * page's head (the page's policy allows no inline script), with the same key, values and
 * colours as here (tests/unit/pwa/ui/theme-choice.test.ts holds the two together). It also sets
 * what is read only as the page loads: `<meta name="color-scheme">` (the canvas before the
 * stylesheet; the stylesheet's `color-scheme` rules after) and iOS's status bar style. This
 * module takes over once the app runs.
 */
export type ThemeChoice = 'system' | Theme;

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export const THEME_STORAGE_KEY = 'pm-theme';

/** The browser's own bars in each theme (`<meta name="theme-color">`): the page's background. */
export const THEME_COLOR: Readonly<Record<Theme, string>> = { dark: '#0e1116', light: '#f5f7f9' };

const SYSTEM_LIGHT = '(prefers-color-scheme: light)';

/** A saved value as a choice: anything but `light` or `dark` (nothing saved, an old value) follows the system. */
export function parseThemeChoice(saved: string | null | undefined): ThemeChoice {
  return saved === 'light' || saved === 'dark' ? saved : 'system';
}

export function resolveTheme(choice: ThemeChoice, systemLight: boolean): Theme {
  if (choice !== 'system') return choice;
  return systemLight ? 'light' : 'dark';
}

/** A choice storage refused to keep (a blocked site): it holds until the page is left. */
let unsaved: ThemeChoice | null = null;

/** The choice in force on this device. */
export function themeChoice(): ThemeChoice {
  if (unsaved) return unsaved;
  try {
    return parseThemeChoice(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

/** Shows the theme the saved choice and the system's preference make, with the browser's bars to match. */
export function applyThemeChoice(): Theme {
  const theme = resolveTheme(themeChoice(), matchMedia(SYSTEM_LIGHT).matches);
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta) meta.content = THEME_COLOR[theme];
  showTheme(theme);
  return theme;
}

/** Keeps the choice for this device (nothing kept for `system`) and shows it at once. */
export function saveThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
    unsaved = null;
  } catch {
    unsaved = choice;
  }
  applyThemeChoice();
}

/**
 * Follows the system's preference as it changes, and a choice made in another window of the
 * app; returns what stops following.
 */
export function followThemeChoice(): () => void {
  const media = matchMedia(SYSTEM_LIGHT);
  const onChange = () => applyThemeChoice();
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) applyThemeChoice();
  };
  media.addEventListener('change', onChange);
  window.addEventListener('storage', onStorage);
  applyThemeChoice();
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener('storage', onStorage);
  };
}
