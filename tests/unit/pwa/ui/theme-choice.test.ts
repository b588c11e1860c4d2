import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseThemeChoice, resolveTheme, THEME_CHOICES, THEME_COLOR, THEME_STORAGE_KEY, type ThemeChoice } from '../../../../pwa/ui/theme-choice.js';

const BOOT_SCRIPT = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'pwa', 'public', 'theme-boot.js'), 'utf8');

describe('the saved theme choice', () => {
  it('reads light and dark as themselves', () => {
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice('dark')).toBe('dark');
  });

  it('follows the system for nothing saved, an explicit system, or anything else', () => {
    for (const saved of [null, undefined, '', 'system', 'Light', ' dark', 'auto', '"light"', 'true']) {
      expect(parseThemeChoice(saved)).toBe('system');
    }
  });

  it('offers System, Light and Dark, in that order', () => {
    expect(THEME_CHOICES).toEqual(['system', 'light', 'dark']);
  });
});

describe('the theme a choice shows', () => {
  it('is the system’s for System, and the chosen one whatever the system says otherwise', () => {
    expect(resolveTheme('system', true)).toBe('light');
    expect(resolveTheme('system', false)).toBe('dark');
    for (const systemLight of [true, false]) {
      expect(resolveTheme('light', systemLight)).toBe('light');
      expect(resolveTheme('dark', systemLight)).toBe('dark');
    }
  });
});

/** Runs pwa/public/theme-boot.js against a page's head as it stands before the first paint. */
function boot(saved: string | null | Error, systemLight: boolean) {
  const metas: Record<string, { content: string }> = {
    'theme-color': { content: '#0e1116' },
    'color-scheme': { content: 'dark' },
    'apple-mobile-web-app-status-bar-style': { content: 'black-translucent' },
  };
  const root = { dataset: {} as Record<string, string> };
  const queries: string[] = [];
  runInNewContext(BOOT_SCRIPT, {
    localStorage: {
      getItem(key: string) {
        if (saved instanceof Error) throw saved;
        return key === THEME_STORAGE_KEY ? saved : null;
      },
    },
    matchMedia(query: string) {
      queries.push(query);
      return { matches: query === '(prefers-color-scheme: light)' && systemLight };
    },
    document: {
      documentElement: root,
      querySelector(selector: string) {
        const name = /^meta\[name="([^"]+)"\]$/.exec(selector)?.[1];
        return name ? (metas[name] ?? null) : null;
      },
    },
  });
  return { theme: root.dataset.theme, metas, queries };
}

describe('the script that shows the theme before the first paint', () => {
  const saves: (string | null)[] = [null, 'light', 'dark', 'system', 'bogus'];
  for (const saved of saves) {
    for (const systemLight of [true, false]) {
      it(`agrees with the app for ${JSON.stringify(saved)} saved on a ${systemLight ? 'light' : 'dark'} system`, () => {
        const theme = resolveTheme(parseThemeChoice(saved), systemLight);
        const shown = boot(saved, systemLight);
        expect(shown.theme).toBe(theme);
        expect(shown.metas['theme-color']?.content).toBe(THEME_COLOR[theme]);
        expect(shown.metas['color-scheme']?.content).toBe(theme);
        expect(shown.metas['apple-mobile-web-app-status-bar-style']?.content).toBe(theme === 'light' ? 'default' : 'black-translucent');
      });
    }
  }

  it('follows the system when storage is refused', () => {
    expect(boot(new Error('SecurityError'), true).theme).toBe('light');
    expect(boot(new Error('SecurityError'), false).theme).toBe('dark');
  });

  it('does not ask the system when a theme was chosen', () => {
    const chosen: ThemeChoice[] = ['light', 'dark'];
    for (const saved of chosen) expect(boot(saved, true).queries).toEqual([]);
  });
});
