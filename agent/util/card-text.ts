/**
 * The card text rule: text that came from Claude or anything else outside, made fit for a
 * card or a notification a person reads. Bounded, and with every character a terminal or the
 * bidirectional algorithm acts on written out, so what is shown is what is there.
 */
import { visibleText } from '../../protocol/safe-text.js';
import { clipText } from '../../protocol/timeline.js';

// What a terminal or the bidi algorithm acts on (see protocol/safe-text.ts), but tab and, in
// text meant to span lines, newline: those show as themselves on a card.
const UNSAFE_MULTILINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` made fit for a card: at most `max` code units, ending in `…` when cut, with unsafe
 * characters written as `\x1b` or `\u202e`. Only the first `max` units are ever read, so a
 * multi-megabyte string costs no more than a short one. `line` also escapes newlines, for
 * text that must stay on one line (a path, a label). CRLF becomes LF in multi-line text so
 * a Windows file does not show `\x0d` at every line end.
 */
export function cardText(text: string, max: number, line = false): string {
  const over = text.length > max;
  let head = over ? clipText(text, Math.max(0, max - 1)).text : text;
  if (!line) head = head.replace(/\r\n/g, '\n');
  const unsafe = line ? UNSAFE_LINE : UNSAFE_MULTILINE;
  const escaped = head.replace(unsafe, visibleText);
  if (!over && escaped.length <= max) return escaped;
  let cut = Math.max(0, max - 1);
  // Never leave half an escape at the end: back off to its backslash. A literal backslash
  // mistaken for one costs a few characters of a text that is being cut anyway.
  const slash = escaped.lastIndexOf('\\', cut - 1);
  if (slash !== -1 && cut - slash < 6) {
    const kind = escaped[slash + 1];
    const length = kind === 'x' ? 4 : kind === 'u' ? 6 : 0;
    if (slash + length > cut) cut = slash;
  }
  return `${clipText(escaped, cut).text}…`;
}
