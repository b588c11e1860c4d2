import { describe, expect, it } from 'vitest';
import type { WorkspaceView } from '../../../../protocol/api.js';
import type { OutsideSessionView } from '../../../../protocol/outside.js';
import { APP_SHORTCUTS, matchAppShortcut } from '../../../../pwa/workbench/app-shortcuts.js';
import { describePane, paneCandidates, stepTab, tabOrder } from '../../../../pwa/workbench/tab-order.js';
import { type KeyLike, matchShortcut } from '../../../../pwa/terminal/terminal-shortcuts.js';

function key(code: string, mods: Partial<Pick<KeyLike, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>> = {}): KeyLike {
  return { code, key: '', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods };
}
const ctrlShift = { ctrlKey: true, shiftKey: true };

describe('the app shortcuts', () => {
  it('take Ctrl+Shift with ], [, 1 to 9, H, E and /', () => {
    expect(matchAppShortcut(key('BracketRight', ctrlShift))).toEqual({ action: 'next-tab' });
    expect(matchAppShortcut(key('BracketLeft', ctrlShift))).toEqual({ action: 'previous-tab' });
    expect(matchAppShortcut(key('Digit1', ctrlShift))).toEqual({ action: 'tab', n: 1 });
    expect(matchAppShortcut(key('Digit9', ctrlShift))).toEqual({ action: 'tab', n: 9 });
    expect(matchAppShortcut(key('KeyH', ctrlShift))).toEqual({ action: 'inbox' });
    expect(matchAppShortcut(key('KeyE', ctrlShift))).toEqual({ action: 'sidebar' });
    expect(matchAppShortcut(key('Slash', ctrlShift))).toEqual({ action: 'help' });
  });

  it('leave every key a shell needs, and the terminal its own', () => {
    // Plain Ctrl: Ctrl+] is telnet's escape, Ctrl+[ is Escape, Ctrl+E end of line, Ctrl+H backspace.
    for (const code of ['BracketRight', 'BracketLeft', 'Digit1', 'KeyH', 'KeyE', 'Slash']) {
      expect(matchAppShortcut(key(code, { ctrlKey: true })), code).toBeNull();
      expect(matchAppShortcut(key(code, { ...ctrlShift, altKey: true })), code).toBeNull();
      expect(matchAppShortcut(key(code, { ...ctrlShift, metaKey: true })), code).toBeNull();
      expect(matchAppShortcut(key(code, { shiftKey: true })), code).toBeNull();
    }
    // Ctrl+Shift+0 is the terminal's text size; no key is both.
    expect(matchAppShortcut(key('Digit0', ctrlShift))).toBeNull();
    for (const code of ['KeyF', 'Equal', 'Minus', 'Digit0', 'KeyC', 'KeyV']) {
      expect(matchShortcut(key(code, ctrlShift), false), code).not.toBeNull();
      expect(matchAppShortcut(key(code, ctrlShift)), code).toBeNull();
    }
    for (const code of ['BracketRight', 'BracketLeft', 'Digit1', 'KeyH', 'KeyE', 'Slash']) expect(matchShortcut(key(code, ctrlShift), false), code).toBeNull();
  });

  it('are all in the help sheet', () => {
    expect(new Set(APP_SHORTCUTS.map((s) => s.action))).toEqual(new Set(['next-tab', 'previous-tab', 'tab', 'inbox', 'sidebar', 'help']));
  });
});

const tab = (id: string, kind: 'shell' | 'claude' = 'shell', name: string | null = null) =>
  ({ id, kind, name, cwd: '/home/me/src/app', title: kind === 'shell' ? { command: 'bash', path: '/home/me/src/app' } : null }) as unknown as WorkspaceView['tabs'][number];
const workspaces = [
  { id: 'w1', tabs: [tab('a'), tab('b', 'claude')] },
  { id: 'w2', tabs: [tab('c', 'shell', 'server')] },
] as unknown as WorkspaceView[];
const outside = [{ key: 'outside-s1', cwd: '/home/me/other' }] as unknown as OutsideSessionView[];

describe('the order tabs are counted in', () => {
  it('is the list, top to bottom: workspaces in order, then the outside sessions', () => {
    expect(tabOrder(workspaces, outside)).toEqual(['a', 'b', 'c', 'outside-s1']);
  });

  it('wraps around at both ends, and starts from an end when nothing is open', () => {
    const order = ['a', 'b', 'c'];
    expect(stepTab(order, 'a', 1)).toBe('b');
    expect(stepTab(order, 'c', 1)).toBe('a');
    expect(stepTab(order, 'a', -1)).toBe('c');
    expect(stepTab(order, null, 1)).toBe('a');
    expect(stepTab(order, 'gone', -1)).toBe('c');
    expect(stepTab([], 'a', 1)).toBeNull();
  });

  it('offers beside the panes the tabs not up yet, named as the list names them', () => {
    const offered = paneCandidates(workspaces, outside, new Set(['a']));
    expect(offered.map((c) => c.tabId)).toEqual(['b', 'c', 'outside-s1']);
    expect(offered.map((c) => c.name)).toEqual(['Claude', 'server', 'other']);
    expect(offered[2]?.detail).toMatch(/^Outside pocketmux · /);
    expect(describePane(workspaces, outside, 'a')?.name).toBe('bash');
    expect(describePane(workspaces, outside, 'nope')).toBeNull();
  });
});
