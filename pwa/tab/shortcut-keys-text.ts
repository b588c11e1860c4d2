import { onMac, TERMINAL_SHORTCUTS } from '../terminal/terminal-shortcuts.js';

const MAC = onMac();

/** A shortcut's keys on this platform, for a button's tooltip. */
export function keysOf(action: (typeof TERMINAL_SHORTCUTS)[number]['action']): string {
  const shortcut = TERMINAL_SHORTCUTS.find((s) => s.action === action);
  return shortcut ? (MAC ? shortcut.macKeys : shortcut.keys) : '';
}
