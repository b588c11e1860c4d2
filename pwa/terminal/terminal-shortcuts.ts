/**
 * The keys the browser terminal takes for itself. A shell needs every plain Ctrl+<key> (Ctrl-F
 * moves the cursor, Ctrl-- is undo), so only Ctrl+Shift+<key> is taken, and on macOS Cmd+<key>,
 * which no terminal program receives. The table is what a help sheet lists.
 */
export type TerminalAction = 'find' | 'font-bigger' | 'font-smaller' | 'font-reset' | 'copy' | 'paste';

export interface TerminalShortcut {
  action: TerminalAction;
  /** What it does, as a help sheet says it. */
  label: string;
  /** The keys on Linux, Windows and ChromeOS. */
  keys: string;
  /** The keys on macOS (and iPadOS with a keyboard). */
  macKeys: string;
}

export const TERMINAL_SHORTCUTS: readonly TerminalShortcut[] = [
  { action: 'find', label: 'Find in the terminal', keys: 'Ctrl+Shift+F', macKeys: '⌘F' },
  { action: 'font-bigger', label: 'Bigger text', keys: 'Ctrl+Shift+=', macKeys: '⌘=' },
  { action: 'font-smaller', label: 'Smaller text', keys: 'Ctrl+Shift+-', macKeys: '⌘-' },
  { action: 'font-reset', label: 'Default text size', keys: 'Ctrl+Shift+0', macKeys: '⌘0' },
  { action: 'copy', label: 'Copy the selection (selecting copies too)', keys: 'Ctrl+Shift+C', macKeys: '⌘C' },
  { action: 'paste', label: 'Paste', keys: 'Ctrl+Shift+V', macKeys: '⌘V' },
];

/** The parts of a KeyboardEvent the matching reads. */
export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/**
 * The physical key first (`code`: the same key whatever the layout, and whatever Shift makes
 * of it), the character as a fallback for events that carry no code.
 */
const KEYS: { action: TerminalAction; codes: string[]; keys: string[] }[] = [
  { action: 'find', codes: ['KeyF'], keys: ['f', 'F'] },
  { action: 'font-bigger', codes: ['Equal', 'NumpadAdd'], keys: ['=', '+'] },
  { action: 'font-smaller', codes: ['Minus', 'NumpadSubtract'], keys: ['-', '_'] },
  { action: 'font-reset', codes: ['Digit0', 'Numpad0'], keys: ['0', ')'] },
  { action: 'copy', codes: ['KeyC'], keys: ['c', 'C'] },
  { action: 'paste', codes: ['KeyV'], keys: ['v', 'V'] },
];

/** Whether this browser runs on macOS or iOS, where Cmd is the shortcut modifier. */
export function isMacPlatform(platform: string): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform);
}

/** The same, for the browser the page runs in. */
export function onMac(): boolean {
  const data = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return isMacPlatform(data?.platform || navigator.platform);
}

/**
 * The terminal action a key press asks for, or null for a key that belongs to the program in
 * the terminal. Off macOS: Ctrl+Shift+<key> (no Alt, no Meta). On macOS: Cmd+<key> (no Ctrl,
 * no Alt; Shift only where it is part of the character, as in Cmd+Shift+= for Cmd++).
 */
export function matchShortcut(e: KeyLike, mac: boolean): TerminalAction | null {
  if (e.altKey) return null;
  if (mac ? !e.metaKey || e.ctrlKey : !e.ctrlKey || !e.shiftKey || e.metaKey) return null;
  const entry = KEYS.find((k) => (e.code ? k.codes.includes(e.code) : k.keys.includes(e.key)));
  if (!entry) return null;
  // ⌘⇧F, ⌘⇧C, ⌘⇧V are other commands on a Mac (and ⌘⇧C is the DevTools picker); only the
  // size keys take Shift there.
  if (mac && e.shiftKey && !entry.action.startsWith('font-')) return null;
  return entry.action;
}
