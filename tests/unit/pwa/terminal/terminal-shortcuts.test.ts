import { describe, expect, it } from 'vitest';
import { isMacPlatform, type KeyLike, matchShortcut, TERMINAL_SHORTCUTS } from '../../../../pwa/terminal/terminal-shortcuts.js';

function key(code: string, key: string, mods: Partial<Pick<KeyLike, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>> = {}): KeyLike {
  return { code, key, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods };
}

const ctrlShift = { ctrlKey: true, shiftKey: true };

describe('the terminal shortcuts off macOS', () => {
  it('takes Ctrl+Shift with F, =, -, 0, C and V', () => {
    expect(matchShortcut(key('KeyF', 'F', ctrlShift), false)).toBe('find');
    expect(matchShortcut(key('Equal', '+', ctrlShift), false)).toBe('font-bigger');
    expect(matchShortcut(key('NumpadAdd', '+', ctrlShift), false)).toBe('font-bigger');
    expect(matchShortcut(key('Minus', '_', ctrlShift), false)).toBe('font-smaller');
    expect(matchShortcut(key('Digit0', ')', ctrlShift), false)).toBe('font-reset');
    expect(matchShortcut(key('KeyC', 'C', ctrlShift), false)).toBe('copy');
    expect(matchShortcut(key('KeyV', 'V', ctrlShift), false)).toBe('paste');
  });

  it('leaves every plain Ctrl key to the shell (Ctrl-F moves, Ctrl-- undoes, Ctrl-C interrupts)', () => {
    for (const [code, k] of [
      ['KeyF', 'f'],
      ['Equal', '='],
      ['Minus', '-'],
      ['Digit0', '0'],
      ['KeyC', 'c'],
      ['KeyV', 'v'],
    ] as const) {
      expect(matchShortcut(key(code, k, { ctrlKey: true }), false)).toBeNull();
      expect(matchShortcut(key(code, k), false)).toBeNull();
      expect(matchShortcut(key(code, k, { shiftKey: true }), false)).toBeNull();
    }
  });

  it('leaves Alt and Meta combinations, and keys it does not know, alone', () => {
    expect(matchShortcut(key('KeyF', 'F', { ...ctrlShift, altKey: true }), false)).toBeNull();
    expect(matchShortcut(key('KeyF', 'F', { ...ctrlShift, metaKey: true }), false)).toBeNull();
    expect(matchShortcut(key('KeyF', 'f', { metaKey: true }), false)).toBeNull();
    expect(matchShortcut(key('KeyA', 'A', ctrlShift), false)).toBeNull();
    expect(matchShortcut(key('KeyT', 'T', ctrlShift), false)).toBeNull();
  });

  it('reads the physical key, whatever the layout makes of it', () => {
    // A Russian layout: the F key types а.
    expect(matchShortcut(key('KeyF', 'А', ctrlShift), false)).toBe('find');
    // An event without a code falls back to the character.
    expect(matchShortcut(key('', 'F', ctrlShift), false)).toBe('find');
    expect(matchShortcut(key('', '+', ctrlShift), false)).toBe('font-bigger');
  });
});

describe('the terminal shortcuts on macOS', () => {
  const cmd = { metaKey: true };

  it('takes Cmd with F, =, -, 0, C and V', () => {
    expect(matchShortcut(key('KeyF', 'f', cmd), true)).toBe('find');
    expect(matchShortcut(key('Equal', '=', cmd), true)).toBe('font-bigger');
    expect(matchShortcut(key('Equal', '+', { ...cmd, shiftKey: true }), true)).toBe('font-bigger');
    expect(matchShortcut(key('Minus', '-', cmd), true)).toBe('font-smaller');
    expect(matchShortcut(key('Digit0', '0', cmd), true)).toBe('font-reset');
    expect(matchShortcut(key('KeyC', 'c', cmd), true)).toBe('copy');
    expect(matchShortcut(key('KeyV', 'v', cmd), true)).toBe('paste');
  });

  it('leaves Ctrl to the shell there too, and Cmd+Shift+F/C/V to the system', () => {
    expect(matchShortcut(key('KeyF', 'f', { ctrlKey: true }), true)).toBeNull();
    expect(matchShortcut(key('KeyF', 'F', ctrlShift), true)).toBeNull();
    expect(matchShortcut(key('KeyF', 'f', { ...cmd, ctrlKey: true }), true)).toBeNull();
    expect(matchShortcut(key('KeyF', 'f', { ...cmd, altKey: true }), true)).toBeNull();
    expect(matchShortcut(key('KeyF', 'F', { ...cmd, shiftKey: true }), true)).toBeNull();
    expect(matchShortcut(key('KeyC', 'C', { ...cmd, shiftKey: true }), true)).toBeNull();
  });

  it('knows a Mac by its platform name', () => {
    for (const p of ['MacIntel', 'macOS', 'iPhone', 'iPad']) expect(isMacPlatform(p), p).toBe(true);
    for (const p of ['Linux x86_64', 'Win32', 'Windows', 'Android', 'Chrome OS', '']) expect(isMacPlatform(p), p).toBe(false);
  });
});

describe('the table of shortcuts', () => {
  it('lists each action once, with its keys on both platforms, all Ctrl+Shift or Cmd', () => {
    const actions = TERMINAL_SHORTCUTS.map((s) => s.action);
    expect(new Set(actions).size).toBe(actions.length);
    expect(actions.sort()).toEqual(['copy', 'find', 'font-bigger', 'font-reset', 'font-smaller', 'paste']);
    for (const s of TERMINAL_SHORTCUTS) {
      expect(s.keys).toMatch(/^Ctrl\+Shift\+.$/);
      expect(s.macKeys).toMatch(/^⌘.$/);
      expect(s.label).not.toBe('');
    }
  });

  it('matches what it lists', () => {
    const codes: Record<string, string> = { F: 'KeyF', '=': 'Equal', '-': 'Minus', '0': 'Digit0', C: 'KeyC', V: 'KeyV' };
    for (const s of TERMINAL_SHORTCUTS) {
      const last = s.keys.slice(-1);
      expect(matchShortcut(key(codes[last] ?? '', last, ctrlShift), false)).toBe(s.action);
      expect(matchShortcut(key(codes[last] ?? '', last.toLowerCase(), { metaKey: true }), true)).toBe(s.action);
    }
  });
});
