/**
 * The keys that move around the app: next and previous tab, tab 1 to 9, the inbox, the
 * sidebar and the help sheet. Like the terminal's own (terminal-shortcuts.ts) they never take
 * a key a shell needs: Ctrl+Shift+<key> everywhere (on macOS too, where ⌘ with these keys is
 * the browser's own: ⌘⇧[ and ⌘⇧] switch browser tabs, ⌘1 to ⌘9 pick one).
 */
import type { KeyLike } from '../terminal/terminal-shortcuts.js';
import { isAppShortcutKey } from './shortcut-keys.js';

export type AppAction = 'next-tab' | 'previous-tab' | 'tab' | 'inbox' | 'sidebar' | 'help';

export interface AppShortcut {
  action: AppAction;
  /** 1 to 9 for `tab`. */
  n?: number;
}

/** A row of the help sheet: the same Ctrl+Shift+<key> on every system, written the Mac's way there. */
function helpRow(action: AppAction, label: string, key: string) {
  return { action, label, keys: `Ctrl+Shift+${key}`, macKeys: `⌃⇧${key}` };
}

/** The table a help sheet lists, in its order. */
export const APP_SHORTCUTS: readonly { action: AppAction; label: string; keys: string; macKeys: string }[] = [
  helpRow('next-tab', 'Next tab', ']'),
  helpRow('previous-tab', 'Previous tab', '['),
  helpRow('tab', 'Tab 1 to 9, in the order of the list', '1 … 9'),
  helpRow('inbox', 'The inbox', 'H'),
  helpRow('sidebar', 'Move to the sidebar (the list, beside a split)', 'E'),
  helpRow('help', 'These shortcuts', '?'),
];

/** By the physical key (`code`), so a layout or Shift changing the character does not matter. */
const CODES: Record<string, AppShortcut> = {
  BracketRight: { action: 'next-tab' },
  BracketLeft: { action: 'previous-tab' },
  KeyH: { action: 'inbox' },
  KeyE: { action: 'sidebar' },
  Slash: { action: 'help' },
};

/** The app action a key press asks for, or null for one that belongs to the page or the terminal. */
export function matchAppShortcut(e: KeyLike): AppShortcut | null {
  if (!isAppShortcutKey(e)) return null;
  const digit = /^Digit([1-9])$/.exec(e.code);
  if (digit) return { action: 'tab', n: Number(digit[1]) };
  return CODES[e.code] ?? null;
}

/** What the shortcuts act on: the app's lists and screens, asked for when a key is pressed. */
export interface ShortcutTarget {
  /** False while the device is not paired (or the agent not reached): the keys are left alone. */
  active(): boolean;
  onShortcut(shortcut: AppShortcut): void;
}

/**
 * Listens before anything on the page (the terminal's textarea included), so a matched key
 * never reaches the shell; every other key passes untouched.
 */
export function listenForAppShortcuts(target: ShortcutTarget): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.isComposing || !target.active()) return;
    const shortcut = matchAppShortcut(e);
    if (!shortcut) return;
    e.preventDefault();
    e.stopPropagation();
    target.onShortcut(shortcut);
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}
