/**
 * The two palettes in pwa/styles.css, measured as WCAG measures contrast: text at least
 * 4.5:1 on what it stands on, status marks, icons and the edges of fields at least 3:1. And
 * every colour of the components comes from the palette, so both themes reach everything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Theme } from '../../../../pwa/ui/theme.js';
import { THEME_COLOR } from '../../../../pwa/ui/theme-choice.js';

const PWA = join(import.meta.dirname, '..', '..', '..', '..', 'pwa');
const STYLES = readFileSync(join(PWA, 'styles.css'), 'utf8');

type Rgb = [number, number, number];

/** The custom properties a rule block of styles.css sets. */
function block(selector: string): Record<string, string> {
  const start = STYLES.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in styles.css`);
  const body = STYLES.slice(start, STYLES.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/(--pm-[a-z0-9-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2]?.trim()]));
}

const DARK = block(':root');
const PALETTES: Record<Theme, Record<string, string>> = { dark: DARK, light: { ...DARK, ...block(':root[data-theme="light"]') } };

function parse(value: string): { rgb: Rgb; alpha: number } {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return { rgb: [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as Rgb, alpha: 1 };
  }
  const rgb = /^rgb\((\d+) (\d+) (\d+)(?: \/ ([\d.]+))?\)$/.exec(value);
  if (rgb) return { rgb: [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])], alpha: rgb[4] === undefined ? 1 : Number(rgb[4]) };
  throw new Error(`not a colour: ${value}`);
}

/** `color-mix(in srgb, a p%, b)`, or `a` at p% over `b`: the same in sRGB. */
function mix(a: Rgb, b: Rgb, p: number): Rgb {
  return a.map((v, i) => v * p + (b[i] as number) * (1 - p)) as Rgb;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A colour of the palette; `name@p` is that colour at p% over `over` (a tint, `color-mix(… p%, transparent)`). */
function colour(theme: Theme, name: string, over?: Rgb): Rgb {
  const [base, percent] = name.split('@') as [string, string | undefined];
  const value = PALETTES[theme][`--pm-${base}`];
  if (!value) throw new Error(`--pm-${base} is not in the ${theme} palette`);
  const { rgb, alpha } = parse(value);
  const a = percent === undefined ? alpha : Number(percent) / 100;
  if (a === 1) return rgb;
  if (!over) throw new Error(`${name} is see-through: say what it lies on`);
  return mix(rgb, over, a);
}

/** [foreground, background, background's own background] as the components draw them. */
type Pair = [fg: string, bg: string, under?: string];

const SURFACES = ['bg', 'surface', 'surface-2'];

/** Text: 4.5:1. */
const TEXT: Pair[] = [
  ...['text', 'muted', 'accent', 'attention', 'review', 'busy', 'danger', 'warn'].flatMap((fg) => SURFACES.map((bg): Pair => [fg, bg])),
  ['text', 'surface-3'],
  ['muted', 'surface-3'],
  ['accent-ink', 'accent'],
  ['danger', 'danger-bg'],
  ['text', 'danger-bg'],
  ['warn', 'warn-bg'],
  ['text', 'warn-bg'],
  // Chips, the bell and glyphs on their own colour's tint.
  ['attention', 'attention@13', 'surface'],
  ['attention', 'attention@13', 'bg'],
  ['review', 'review@12', 'surface'],
  ['accent', 'accent@14', 'surface'],
  ['warn', 'warn@14', 'surface'],
  // Rows that wait on the person: their text, and the path in muted.
  ['text', 'attention@8', 'surface'],
  ['muted', 'attention@8', 'surface'],
  ['text', 'review@7', 'surface'],
  ['muted', 'review@7', 'surface'],
  // A diff's lines, on the code box's background.
  ['diff-added', 'accent@10', 'bg'],
  ['diff-removed', 'danger@10', 'bg'],
  ['text', 'accent@12', 'surface'],
];

/** Status marks, icons and fields' edges: 3:1. */
const GRAPHICS: Pair[] = [
  ...['field-border', 'idle', 'attention', 'review', 'busy', 'muted', 'accent'].flatMap((fg) => SURFACES.map((bg): Pair => [fg, bg])),
];

function named(pair: Pair): { name: string; pair: Pair } {
  const [fg, bg, under] = pair;
  return { name: `${fg} on ${bg}${under ? ` over ${under}` : ''}`, pair };
}

describe.each(['dark', 'light'] as const)('the %s palette', (theme) => {
  const measure = ([fg, bg, under]: Pair) => {
    const back = colour(theme, bg, under ? colour(theme, under) : undefined);
    return contrast(colour(theme, fg, back), back);
  };

  it.each(TEXT.map(named))('text: $name is at least 4.5:1', ({ pair }) => {
    expect(measure(pair)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(GRAPHICS.map(named))('marks and edges: $name is at least 3:1', ({ pair }) => {
    expect(measure(pair)).toBeGreaterThanOrEqual(3);
  });

  it('sets the browser’s bars to the page’s background', () => {
    expect(THEME_COLOR[theme]).toBe(PALETTES[theme]['--pm-bg']);
  });

  it('tells the browser which scheme it is', () => {
    const selector = theme === 'dark' ? ':root' : ':root[data-theme="light"]';
    const start = STYLES.indexOf(`${selector} {`);
    expect(STYLES.slice(start, STYLES.indexOf('}', start))).toContain(`color-scheme: ${theme};`);
  });
});

it('gives the light theme a value for every colour of the dark one', () => {
  const light = block(':root[data-theme="light"]');
  const colours = Object.entries(DARK).filter(([name, value]) => /^(#|rgb\()/.test(value) && !name.startsWith('--pm-qr-'));
  expect(colours.length).toBeGreaterThan(20);
  for (const [name] of colours) expect(light, name).toHaveProperty(name);
});

/** Folders whose colours their owners move to the palette themselves. */
const NOT_CHECKED = ['terminal', 'timeline'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return NOT_CHECKED.includes(e.name) && dir === PWA ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

it('takes every colour of the components from the palette', () => {
  const literals: string[] = [];
  for (const file of sources(PWA)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\(/i.test(line) && !/THEME_COLOR|^\s*(\/\/|\*)/.test(line)) {
          literals.push(`${relative(PWA, file)}:${i + 1}: ${line.trim()}`);
        }
      });
  }
  expect(literals).toEqual([]);
});
