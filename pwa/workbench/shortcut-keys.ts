/**
 * Which key presses are the app's shortcuts (app-shortcuts.ts maps each to its action):
 * Ctrl+Shift with a bracket, H, E, / or a digit 1 to 9, by physical key. Apart and small, so
 * the first screen can catch one pressed before the shortcuts' own code has loaded.
 */
import type { KeyLike } from '../terminal/terminal-shortcuts.js';

const SHORTCUT_CODE = /^(?:Bracket(?:Left|Right)|Key[HE]|Slash|Digit[1-9])$/;

export function isAppShortcutKey(e: KeyLike): boolean {
  return e.ctrlKey && e.shiftKey && !e.altKey && !e.metaKey && SHORTCUT_CODE.test(e.code);
}
