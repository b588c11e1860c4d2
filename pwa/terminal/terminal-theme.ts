import type { ISearchOptions } from '@xterm/addon-search';
import type { ITheme } from '@xterm/xterm';
import type { Theme } from '../ui/theme.js';

export type SearchDecorations = NonNullable<ISearchOptions['decorations']>;

/**
 * The terminal's colours in each app theme. The background is the page's (`--pm-bg`), so the
 * space around the cells matches; the sixteen ANSI colours read at 4.5:1 or better on it,
 * except the one meant to vanish into it (black on dark, white on light), and on light the
 * two whites, which programs print as faint text, at 3:1
 * (tests/unit/pwa/terminal/terminal-theme.test.ts checks it).
 */
const DARK: ITheme = {
  background: '#0e1116',
  foreground: '#e6edf3',
  cursor: '#5ed3a6',
  cursorAccent: '#0e1116',
  selectionBackground: '#33506a',
  selectionInactiveBackground: '#2a3a4a',
  scrollbarSliderBackground: 'rgba(141, 153, 168, 0.25)',
  scrollbarSliderHoverBackground: 'rgba(141, 153, 168, 0.4)',
  scrollbarSliderActiveBackground: 'rgba(141, 153, 168, 0.55)',
  black: '#1d242e',
  red: '#f2777a',
  green: '#5ed3a6',
  yellow: '#e8c266',
  blue: '#6cb6ff',
  magenta: '#d59cf6',
  cyan: '#56d4dd',
  white: '#c9d1d9',
  brightBlack: '#7d8590',
  brightRed: '#ff9492',
  brightGreen: '#7ee2b8',
  brightYellow: '#f5d787',
  brightBlue: '#91cbff',
  brightMagenta: '#e2b6ff',
  brightCyan: '#85e5ec',
  brightWhite: '#f0f6fc',
};

const LIGHT: ITheme = {
  background: '#f5f7f9',
  foreground: '#1b2129',
  cursor: '#0b7350',
  cursorAccent: '#f5f7f9',
  selectionBackground: '#b9d6f5',
  selectionInactiveBackground: '#d6e2ee',
  scrollbarSliderBackground: 'rgba(87, 97, 109, 0.25)',
  scrollbarSliderHoverBackground: 'rgba(87, 97, 109, 0.4)',
  scrollbarSliderActiveBackground: 'rgba(87, 97, 109, 0.55)',
  black: '#1b2129',
  red: '#c0262f',
  green: '#116b45',
  yellow: '#7a5200',
  blue: '#0a62c9',
  magenta: '#8a3fc0',
  cyan: '#0d6e78',
  white: '#6e7781',
  brightBlack: '#57616d',
  brightRed: '#a4151f',
  brightGreen: '#0b5c39',
  brightYellow: '#8a5a00',
  brightBlue: '#0550ae',
  brightMagenta: '#7245d1',
  brightCyan: '#0b5f68',
  brightWhite: '#848d97',
};

export const TERMINAL_THEMES: Readonly<Record<Theme, ITheme>> = { dark: DARK, light: LIGHT };

export function terminalTheme(theme: Theme): ITheme {
  return TERMINAL_THEMES[theme];
}

/** How find marks its matches: every match tinted, the current one stronger and outlined. */
const FIND_DECORATIONS: Readonly<Record<Theme, SearchDecorations>> = {
  dark: {
    matchBackground: '#5a4810',
    matchBorder: '#8f7420',
    matchOverviewRuler: '#e8c266',
    activeMatchBackground: '#8a5d00',
    activeMatchBorder: '#ffd75e',
    activeMatchColorOverviewRuler: '#ffd75e',
  },
  light: {
    matchBackground: '#fff0b3',
    matchBorder: '#d9b43a',
    matchOverviewRuler: '#b58a00',
    activeMatchBackground: '#ffc94d',
    activeMatchBorder: '#8a5a00',
    activeMatchColorOverviewRuler: '#8a5a00',
  },
};

export function findDecorations(theme: Theme): SearchDecorations {
  return FIND_DECORATIONS[theme];
}
