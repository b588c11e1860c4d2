/**
 * The terminal's two palettes, measured as WCAG measures contrast against the terminal's
 * background: the foreground and the ANSI colours programs print in.
 */
import { describe, expect, it } from 'vitest';
import { findDecorations, TERMINAL_THEMES, terminalTheme } from '../../../../pwa/terminal/terminal-theme.js';

type Rgb = [number, number, number];

function rgb(hex: string): Rgb {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => Number.parseInt(m[1]?.slice(i, i + 2) ?? '', 16)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const f = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(rgb(a)), luminance(rgb(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const ANSI = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'brightBlack', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan'] as const;

describe.each(['dark', 'light'] as const)('the %s terminal palette', (theme) => {
  const t = terminalTheme(theme);
  const bg = t.background as string;

  it('is the one the app shows in that theme', () => {
    expect(t).toBe(TERMINAL_THEMES[theme]);
    // The page's own background (--pm-bg), so the space around the cells matches.
    expect(bg).toBe(theme === 'dark' ? '#0e1116' : '#f5f7f9');
  });

  it('reads its text at 7:1 or better, and its cursor at 3:1', () => {
    expect(contrast(t.foreground as string, bg)).toBeGreaterThanOrEqual(7);
    expect(contrast(t.cursor as string, bg)).toBeGreaterThanOrEqual(3);
  });

  it.each(ANSI)('reads %s at 4.5:1 or better', (name) => {
    expect(contrast(t[name] as string, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps the colour meant to vanish into the background, and the others legible', () => {
    if (theme === 'dark') {
      expect(contrast(t.white as string, bg)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(t.brightWhite as string, bg)).toBeGreaterThanOrEqual(4.5);
    } else {
      expect(contrast(t.black as string, bg)).toBeGreaterThanOrEqual(4.5);
      // White is printed as faint text on a light terminal: still readable.
      expect(contrast(t.white as string, bg)).toBeGreaterThanOrEqual(3);
      expect(contrast(t.brightWhite as string, bg)).toBeGreaterThanOrEqual(3);
    }
  });

  it('keeps text readable on a selection and on find matches', () => {
    const fg = t.foreground as string;
    expect(contrast(fg, t.selectionBackground as string)).toBeGreaterThanOrEqual(4.5);
    const find = findDecorations(theme);
    expect(contrast(fg, find.matchBackground as string)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(fg, find.activeMatchBackground as string)).toBeGreaterThanOrEqual(4.5);
    // The current match stands out from the others.
    expect(find.activeMatchBackground).not.toBe(find.matchBackground);
    expect(contrast(find.activeMatchBorder as string, bg)).toBeGreaterThanOrEqual(3);
  });
});
