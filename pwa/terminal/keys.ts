/** Keys the on-screen key bar offers, for keyboards that lack them. */
export type BarKey = 'esc' | 'tab' | 'up' | 'down' | 'right' | 'left';

const ARROW_FINAL: Record<'up' | 'down' | 'right' | 'left', string> = { up: 'A', down: 'B', right: 'C', left: 'D' };

/**
 * The bytes a real keyboard would send. Arrows follow the cursor-key mode the application
 * set (DECCKM): `ESC O A` in application mode, `ESC [ A` otherwise; with Ctrl, `ESC [ 1 ; 5 A`.
 */
export function barKeySequence(key: BarKey, opts: { ctrl: boolean; applicationCursor: boolean }): string {
  switch (key) {
    case 'esc':
      return '\x1b';
    case 'tab':
      return opts.ctrl ? '\x1b[9;5u' : '\t';
    default: {
      const final = ARROW_FINAL[key];
      if (opts.ctrl) return `\x1b[1;5${final}`;
      return opts.applicationCursor ? `\x1bO${final}` : `\x1b[${final}`;
    }
  }
}

/** What Ctrl plus the typed text sends: Ctrl-C is 0x03 and so on; other text is unchanged. */
export function withCtrl(data: string): string {
  if (data.length !== 1) return data;
  const c = data.toLowerCase();
  if (c >= 'a' && c <= 'z') return String.fromCharCode(c.charCodeAt(0) - 96);
  const special: Record<string, string> = { '@': '\x00', ' ': '\x00', '[': '\x1b', '\\': '\x1c', ']': '\x1d', '^': '\x1e', _: '\x1f', '?': '\x7f' };
  return special[data] ?? data;
}
