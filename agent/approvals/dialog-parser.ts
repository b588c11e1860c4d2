/**
 * Reads a Claude Code dialog with numbered options (a tool permission, a question, "Exit plan
 * mode?") off a screen captured with `tmux capture-pane -p`. Pure and total: any string in,
 * a dialog or null out, never a throw. Written against Claude Code 2.1.332; the captures it
 * is tested with are in tests/fixtures/claude-code-2.1.332/.
 *
 * A screen is read the way a person reads it: a dialog is a run of consecutively numbered
 * options at the bottom of the screen, one of them carrying Claude's `❯` cursor, with at most
 * a footer hint below. Numbered lists in the conversation never count, because while Claude
 * shows a dialog it hides its input box, and the input box (whose `❯` prompt is followed by a
 * no-break space, not a space) is always below the conversation otherwise.
 *
 * What it leaves out on purpose:
 * - A label wrapped over several screen lines (a pane narrower than the option) is read from
 *   its first line only: the lines below an option are indented like its description lines,
 *   and telling the two apart would be a guess. Keys stay right, which is what answering needs.
 * - Only the bottom `SCAN_LINES` lines are looked at, so a long scrollback costs nothing.
 */
import type { DialogOption } from '../../protocol/approvals.js';

export interface ScreenDialog {
  /**
   * What the dialog asks, as one line: its heading, then `: ` and the question right above the
   * options when the heading is not a question itself ("Bash command: Do you want to proceed?",
   * "Colour: Which colour should the button be?", "Exit plan mode?"). Only the question when
   * the heading is off screen; empty when neither can be read.
   */
  title: string;
  /** In screen order; `key` is the digit typed to choose the option. */
  options: DialogOption[];
  /** The key of the option the `❯` cursor is on, or null when no option shows the cursor. */
  selected: string | null;
}

/** Claude Code's dialogs fit in far fewer rows; a capture's scrollback above is never read. */
const SCAN_LINES = 60;
/** Bounds the work on a capture with absurdly long lines (or none). */
const SCAN_CHARS = 64 * 1024;
/** Below the options a dialog shows a hint ("Esc to cancel · Tab to amend"), maybe wrapped. */
const MAX_FOOTER_LINES = 2;
/** Description lines of the last option that may sit below it, before giving up. */
const MAX_TRAILING_DESCRIPTION_LINES = 4;
/** The prompt paragraph right above the options, when it wraps. */
const MAX_QUESTION_LINES = 3;

/** Claude's selection cursor (figures' `pointer`). */
const CURSOR = '❯';

/**
 * `  2. label` or ` ❯ 1. label`: the cursor and the number are separated by plain spaces,
 * unlike the input box prompt, which puts a no-break space after its `❯`.
 */
const OPTION_LINE = /^( *)(❯ +)?(\d{1,2})\. +(\S.*)$/;
/** A horizontal rule: the dialog's top border, the dashed frame around a command, a divider. */
export const RULE_LINE = /^ *[─━═╌┄┈]{3,} *$/;
/** The solid rule Claude draws on top of a dialog; the line below it is the heading. */
export const BORDER_LINE = /^ *─{3,} *$/;
/** An input prompt: `❯` (or bash mode's `!`) followed by a no-break space, a space or nothing. */
export const PROMPT_LINE = /^ *[❯›>!](?:[ \u00a0]|$)/;
/** Footer hints only dialogs show; they stand in for the cursor when none is seen. */
const DIALOG_HINT = /\b(?:Esc to cancel|Enter to select|to navigate)\b/;
/** Checkbox and arrow glyphs before a question's header ("☐ Colour"). */
export const LEADING_SYMBOLS = /^[\p{So}\p{Sm}\s]+/u;

/**
 * `capture-pane -p` prints no escape sequences, but a capture made with `-e` would: a CSI
 * sequence (colours) is dropped whole so none of it lands in a label, and every other C0 and
 * C1 control is dropped alone. A tab becomes a space so that words stay apart.
 */
const CSI_SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]/g;
const CONTROL_CHARS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

interface OptionLine {
  key: string;
  label: string;
  cursor: boolean;
  /** Column of the number's first digit. */
  digitColumn: number;
  /** Column of the `.` after the number: a two-digit number may be aligned on it instead. */
  dotColumn: number;
}

/** The dialog with numbered options at the bottom of `screen`, or null when there is none. */
export function parseDialog(screen: string): ScreenDialog | null {
  const lines = bottomLines(screen);

  // Up from the bottom to the last option: only blank lines, rules, the footer hint and the
  // last option's own description may lie below it. An input prompt there means Claude's
  // input box is up, so no dialog is.
  const trailing: string[] = [];
  let last = -1;
  let lastOption: OptionLine | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    lastOption = parseOptionLine(line);
    if (lastOption) {
      last = i;
      break;
    }
    if (isBlank(line) || RULE_LINE.test(line)) continue;
    if (PROMPT_LINE.test(line)) return null;
    trailing.push(line);
    if (trailing.length > MAX_FOOTER_LINES + MAX_TRAILING_DESCRIPTION_LINES) return null;
  }
  if (!lastOption) return null;
  const column = lastOption.digitColumn;
  const footer = trailing.filter((line) => indentOf(line) <= column);
  if (footer.length > MAX_FOOTER_LINES) return null;

  // Up from the last option, while lines are options numbered one less each time (and aligned
  // with it), their descriptions (indented past the number), blank lines or dividers.
  const options: OptionLine[] = [lastOption];
  let top = last;
  for (let i = last - 1; i >= 0; i--) {
    const line = lines[i] as string;
    const option = parseOptionLine(line);
    if (option) {
      const below = options[0] as OptionLine;
      const aligned = option.digitColumn === below.digitColumn || option.dotColumn === below.dotColumn;
      if (!aligned || Number(option.key) !== Number(below.key) - 1) break;
      options.unshift(option);
      top = i;
      continue;
    }
    if (isBlank(line) || RULE_LINE.test(line) || indentOf(line) > column) continue;
    break;
  }
  if (options.length < 2) return null;

  const withCursor = options.filter((o) => o.cursor);
  if (withCursor.length > 1) return null;
  const selected = withCursor[0]?.key ?? null;
  if (selected === null && !footer.some((line) => DIALOG_HINT.test(line))) return null;

  return {
    title: titleAbove(lines, top),
    options: options.map(({ key, label }) => ({ key, label })),
    selected,
  };
}

/**
 * Tells whether two readings are of the same dialog, for "is the dialog still up": title and
 * options, not the cursor, which moves while the person looks at it.
 */
export function dialogFingerprint(dialog: ScreenDialog): string {
  return JSON.stringify([dialog.title, dialog.options.map((o) => [o.key, o.label])]);
}

/**
 * The last `SCAN_LINES` lines of the screen, after its trailing blank lines, with control
 * characters and trailing spaces removed. Works back from the end, so the cost does not grow
 * with the length of the capture.
 */
export function bottomLines(screen: string): string[] {
  let end = screen.length;
  while (end > 0 && isTrailingSpace(screen.charCodeAt(end - 1))) end--;
  const floor = Math.max(0, end - SCAN_CHARS);
  // Each round finds where one more line starts: after the newline above it, or at `floor`.
  let start = end;
  let searchFrom = end - 1;
  for (let n = 0; n < SCAN_LINES; n++) {
    const newline = searchFrom >= floor ? screen.lastIndexOf('\n', searchFrom) : -1;
    if (newline < floor) {
      start = floor;
      break;
    }
    start = newline + 1;
    searchFrom = newline - 1;
  }
  const lines = screen.slice(start, end).split('\n').map(cleanLine);
  while (lines.length > 0 && isBlank(lines[lines.length - 1] as string)) lines.pop();
  return lines;
}

function isTrailingSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function cleanLine(line: string): string {
  return line.replace(CSI_SEQUENCE, '').replaceAll('\t', ' ').replace(CONTROL_CHARS, '').trimEnd();
}

function parseOptionLine(line: string): OptionLine | null {
  const m = OPTION_LINE.exec(line);
  if (!m) return null;
  const [, indent = '', cursor = '', key = '', label = ''] = m;
  const digitColumn = indent.length + cursor.length;
  return { key, label, cursor: cursor.startsWith(CURSOR), digitColumn, dotColumn: digitColumn + key.length };
}

/**
 * The heading is the first line below the dialog's top border; the question is the paragraph
 * right above the options (a few lines at most, never the heading itself).
 */
function titleAbove(lines: string[], top: number): string {
  let border = -1;
  for (let i = top - 1; i >= 0; i--) {
    if (BORDER_LINE.test(lines[i] as string)) {
      border = i;
      break;
    }
  }
  let headingAt = -1;
  if (border >= 0) {
    for (let i = border + 1; i < top; i++) {
      if (!isBlank(lines[i] as string)) {
        headingAt = i;
        break;
      }
    }
  }
  const heading = headingAt >= 0 ? (lines[headingAt] as string).replace(LEADING_SYMBOLS, '').trim() : '';

  let i = top - 1;
  while (i > headingAt && isBlank(lines[i] as string)) i--;
  const question: string[] = [];
  while (i > headingAt && question.length < MAX_QUESTION_LINES) {
    const line = lines[i] as string;
    if (isBlank(line) || RULE_LINE.test(line)) break;
    question.unshift(line.trim());
    i--;
  }
  const asked = question.join(' ');

  if (!heading) return asked;
  if (!asked || asked === heading || heading.endsWith('?')) return heading;
  return `${heading}: ${asked}`;
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

export function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}
