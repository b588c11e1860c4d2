/**
 * Text that came from elsewhere (a path, a name, tmux, the network) shown to a person.
 *
 * Some characters do something other than show themselves: a terminal acts on C0 and C1
 * controls (ESC starts a sequence that can retitle the window or clear the screen; U+009B
 * is CSI on its own), U+2028/U+2029 break lines, and the bidirectional formatting
 * characters reorder the text around them, so what a person reads is not what is there.
 * Zero-width joiners and the like are left alone: emoji sequences need them, and they
 * neither act on a terminal nor reorder text.
 */

const UNSAFE_CHAR = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same, but tab and newline: text written on several lines on purpose. */
const UNSAFE_CHAR_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_CHARS = new RegExp(UNSAFE_CHAR.source, 'g');
/** What `JSON.stringify` leaves raw: it escapes C0 itself, and emits its own newlines. */
const UNSAFE_AFTER_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function hex(char: string, digits: number): string {
  return (char.codePointAt(0) as number).toString(16).padStart(digits, '0');
}

/**
 * The text with every unsafe character written out as an escape a person can read:
 * `\x1b` for C0 controls and DEL, `\u202e` for C1 controls, separators and bidi
 * formatting characters. Everything else, CJK and emoji included, is unchanged.
 */
export function visibleText(text: string): string {
  return text.replace(UNSAFE_CHARS, (c) => (c <= '\u007f' ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * Like `visibleText`, but the line breaks stay: for messages written on several lines on
 * purpose (a stack trace, the list of files to chmod), whose lines may quote anything.
 */
export function visibleLines(text: string): string {
  return text.split('\n').map(visibleText).join('\n');
}

/**
 * JSON for a terminal. `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls,
 * separators and bidi characters raw; those can only occur inside JSON strings, where the
 * `\uXXXX` escape means the very same character, so a script parsing the output still
 * reads the exact value.
 */
export function visibleJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_AFTER_JSON, (c) => `\\u${hex(c, 4)}`);
}

/** What is wrong with a name that holds an unsafe character, or null when it holds none. */
export function unsafeTextProblem(text: string): string | null {
  return problemOf(UNSAFE_CHAR.exec(text)?.[0]);
}

/**
 * The same rule for text a person writes on several lines (a deny message, an answer to
 * Claude): tab and newline are text there, every other unsafe character is refused.
 */
export function unsafeLinesProblem(text: string): string | null {
  return problemOf(UNSAFE_CHAR_IN_LINES.exec(text)?.[0]);
}

function problemOf(found: string | undefined): string | null {
  if (found === undefined) return null;
  const code = `U+${hex(found, 4).toUpperCase()}`;
  if (found <= '\u009f') return `control characters (found ${code})`;
  if (found === '\u2028' || found === '\u2029') return `line or paragraph separators (found ${code})`;
  return `bidirectional formatting characters (found ${code})`;
}
