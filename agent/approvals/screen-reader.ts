/**
 * Reads what Claude Code shows at the bottom of its screen: its input box (the prompt), a
 * dialog it waits on, or something else that is neither. Claude keeps adding screens that wait
 * for a key (offers at startup, the folder trust prompt, pickers, notices), and no hook fires
 * for most of them: the screen is the only way to know that Claude waits, and on what.
 *
 * Three kinds of dialog are read, as Claude Code 2.1.332 draws them (the captures are in
 * tests/fixtures/claude-code-2.1.332/dialogs/):
 * - `numbered`: options typed by their digit (a tool permission, a question, "Exit plan mode?");
 *   read by `parseDialog`.
 * - `select`: a list with the `❯` cursor and no numbers ("Make auto mode your default
 *   permission mode?", the folder trust prompt): chosen by moving the cursor and Enter.
 * - `keys`: a notice whose footer names its keys ("Enter to stay in auto mode · shift+Tab to
 *   leave … · Esc to cancel"): each key named there is an option.
 * A screen with neither the input box nor a readable dialog below Claude's top rule is
 * `unknown`: it may be a dialog this reader has not met (a picker with a search box, say), and
 * is offered with its lines and the keys a person would try.
 *
 * Pure and total: any string in, a reading out, never a throw. The input box is what tells a
 * dialog from the conversation: Claude hides it while a dialog is up, and always draws it
 * otherwise, under a rule, with `❯` and a no-break space.
 */
import type { DIALOG_OPTION_KEYS, DialogOption } from '../../protocol/approvals.js';
import type { ClaudeMode } from '../../protocol/claude-mode.js';
import { BORDER_LINE, bottomLines, indentOf, isBlank, LEADING_SYMBOLS, PROMPT_LINE, parseDialog, RULE_LINE } from './dialog-parser.js';

export type DialogStyle = 'numbered' | 'select' | 'keys';

export interface ReadDialog {
  style: DialogStyle;
  /** Its heading (or, for a numbered one, heading and question as `parseDialog` reads them). */
  title: string;
  /** The paragraphs between the heading and the options, joined; null when there are none. */
  text: string | null;
  /**
   * In screen order. `key` names the answer: the digit of a numbered option, the 1-based
   * place of a select option, or a key name of `DIALOG_KEYS` for a key the footer names.
   */
  options: DialogOption[];
  /** The option the cursor is on, or null. */
  selected: string | null;
}

export type ScreenReading =
  /** Claude's input box is up; `mode` is what its footer says, when it says one. */
  | { kind: 'prompt'; mode: ClaudeMode | null }
  | { kind: 'dialog'; dialog: ReadDialog }
  /** No input box and no dialog read: the lines from Claude's last top rule down. */
  | { kind: 'unknown'; lines: string[] };

/** Keys a dialog option may name, as the footer hints spell them, and what a person taps. */
export type DialogKey = (typeof DIALOG_OPTION_KEYS)[number];

/** What an unread screen is offered: the keys a person would try on a dialog they cannot see. */
export const UNKNOWN_SCREEN_KEYS: readonly DialogOption[] = [
  { key: 'Enter', label: 'Enter' },
  { key: 'Esc', label: 'Esc' },
  { key: 'Up', label: '↑' },
  { key: 'Down', label: '↓' },
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => ({ key: digit, label: digit })),
];

/** An unread screen is shown this many lines at most, from its top rule down. */
export const UNKNOWN_SCREEN_LINES = 24;
/** A dialog's text is joined from this many lines at most. */
const MAX_TEXT_LINES = 20;
/** Footer hints may wrap (the resume picker's take two lines). */
const MAX_HINT_LINES = 3;
/** Select lists are short; a longer run is something else (a listing, a file). */
const MAX_SELECT_OPTIONS = 12;
/**
 * A box drawn above the list is a search field: a picker (the resume picker), whose rows carry
 * lines of detail at the labels' column, and whose Enter acts on a row the card could not name.
 * It is left unread, offered with its lines and keys.
 */
const BOX_LINE = /[╭╮╰╯│]/;

/** `  ❯ label`: the cursor, then plain spaces (the input box puts a no-break space after its `❯`). */
const CURSOR_OPTION = /^( *)❯ +(\S.*)$/;
/** A footer segment that names a key: "Enter to confirm", "shift+Tab to leave …", "Esc to cancel". */
const KEY_HINT = /^(enter|esc|tab|shift\+tab)\s+to\s+(\S.*)$/i;
/** Footer hints of lists and pickers, which name no key to answer with. */
const LIST_HINT = /\b(?:to (?:choose|navigate|select|confirm|cancel|close)|Esc to|Enter to)\b/i;

/** Reads the bottom of a screen captured with `tmux capture-pane -p`. */
export function readScreen(screen: string): ScreenReading {
  const lines = bottomLines(screen);
  const box = inputBoxAt(lines);
  if (box >= 0) return { kind: 'prompt', mode: modeBelow(lines, box) };
  const numbered = parseDialog(screen);
  if (numbered) return { kind: 'dialog', dialog: { style: 'numbered', title: numbered.title, text: null, options: numbered.options, selected: numbered.selected } };
  const border = lastBorder(lines);
  if (border < 0) return { kind: 'unknown', lines: [] };
  const below = lines.slice(border + 1);
  const dialog = readSelect(below) ?? readKeys(below);
  if (dialog) return { kind: 'dialog', dialog };
  return { kind: 'unknown', lines: trimBlank(below).slice(0, UNKNOWN_SCREEN_LINES).map((line) => line.trimEnd()) };
}

/** Tells whether two readings show the same thing, for "is it still up": not where the cursor is. */
export function readingFingerprint(reading: ScreenReading): string {
  switch (reading.kind) {
    case 'prompt':
      return `prompt ${reading.mode}`;
    case 'dialog':
      return JSON.stringify([reading.dialog.style, reading.dialog.title, reading.dialog.options.map((o) => [o.key, o.label])]);
    case 'unknown':
      return JSON.stringify(reading.lines);
  }
}

/** Claude's input box: a prompt line right below a rule, in the bottom lines of the screen; -1 when none. */
export function inputBoxAt(lines: string[]): number {
  for (let i = lines.length - 1; i > 0; i--) {
    if (PROMPT_LINE.test(lines[i] as string) && RULE_LINE.test(lines[i - 1] as string)) return i;
  }
  return -1;
}

/** The footer under the input box names the mode: `⏸ manual mode on`, `⏵⏵ auto mode on`, … */
const MODE_FOOTERS: readonly [RegExp, ClaudeMode][] = [
  [/⏸ manual mode on\b/, 'manual'],
  [/⏵⏵ accept edits on\b/, 'accept-edits'],
  [/⏸ plan mode on\b/, 'plan'],
  [/⏵⏵ auto mode on\b/, 'auto'],
  [/⏵⏵ bypass permissions on\b/, 'bypass'],
];

function modeBelow(lines: string[], box: number): ClaudeMode | null {
  for (const line of lines.slice(box + 1)) {
    for (const [footer, mode] of MODE_FOOTERS) if (footer.test(line)) return mode;
  }
  return null;
}

function lastBorder(lines: string[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (BORDER_LINE.test(lines[i] as string)) return i;
  return -1;
}

function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start] as string)) start++;
  while (end > start && isBlank(lines[end - 1] as string)) end--;
  return lines.slice(start, end);
}

/** Paragraphs: runs of non-blank lines, each trimmed. */
function paragraphs(lines: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (isBlank(line)) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(line.trim());
  }
  if (current.length > 0) out.push(current);
  return out;
}

function headingOf(line: string): string {
  return line.replace(LEADING_SYMBOLS, '').trim();
}

/** The paragraphs between the heading and what follows, as one text; null when there are none. */
function textOf(blocks: string[][]): string | null {
  const lines = blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block])).slice(0, MAX_TEXT_LINES);
  const text = lines.join('\n').replace(/([^\n])\n(?=[^\n])/g, '$1 ').trim();
  return text === '' ? null : text;
}

/** Key options from footer hints; the keys of moving a cursor are left to the list itself. */
function keyOptions(hints: string[]): DialogOption[] {
  const options: DialogOption[] = [];
  for (const segment of hints.join(' ').split(/\s+·\s+/)) {
    const m = KEY_HINT.exec(segment.trim());
    if (!m) continue;
    const key = canonicalKey(m[1] as string);
    const label = capitalise((m[2] as string).trim());
    if (!options.some((o) => o.key === key)) options.push({ key, label });
  }
  return options;
}

function canonicalKey(word: string): DialogKey {
  switch (word.toLowerCase()) {
    case 'enter':
      return 'Enter';
    case 'esc':
      return 'Esc';
    case 'tab':
      return 'Tab';
    default:
      return 'Shift+Tab';
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A list with Claude's `❯` cursor and no numbers, at the bottom below the heading: one option
 * carries the cursor, the others stand at the column of its label, one per line, with a blank
 * line above the first; below the last only blank lines and a footer hint.
 */
function readSelect(below: string[]): ReadDialog | null {
  const lines = trimBlank(below);
  // The footer: the last paragraph, when it is hints and not an option.
  let end = lines.length;
  const hints: string[] = [];
  const blocks = paragraphs(lines);
  const last = blocks[blocks.length - 1];
  if (last && last.length <= MAX_HINT_LINES && !last.some((line) => line.startsWith('❯')) && LIST_HINT.test(last.join(' '))) {
    hints.push(...last);
    end = lines.length - 1;
    while (end >= 0 && !isBlank(lines[end] as string)) end--;
    while (end > 0 && isBlank(lines[end - 1] as string)) end--;
  }
  // Up from the last option line to the blank line above the list.
  let cursorAt = -1;
  let labelColumn = -1;
  let start = end;
  for (let i = end - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (isBlank(line)) break;
    start = i;
    const m = CURSOR_OPTION.exec(line);
    if (m) {
      if (cursorAt >= 0) return null;
      cursorAt = i;
      labelColumn = (m[1] as string).length + line.slice((m[1] as string).length).indexOf((m[2] as string).charAt(0));
    }
  }
  if (cursorAt < 0 || start === 0 || end - start < 2 || end - start > MAX_SELECT_OPTIONS) return null;
  const options: DialogOption[] = [];
  let selected: string | null = null;
  for (let i = start; i < end; i++) {
    const line = lines[i] as string;
    const key = String(options.length + 1);
    const cursor = i === cursorAt ? CURSOR_OPTION.exec(line) : null;
    if (cursor) {
      selected = key;
      options.push({ key, label: (cursor[2] as string).trim() });
      continue;
    }
    if (indentOf(line) !== labelColumn) return null;
    options.push({ key, label: line.trim() });
  }
  if (lines.slice(0, start).some((line) => BOX_LINE.test(line))) return null;
  const heading = headingAndText(paragraphs(lines.slice(0, start)));
  if (!heading) return null;
  return { style: 'select', ...heading, options: [...options, ...keyOptions(hints).filter((o) => o.key !== 'Enter')], selected };
}

/** A notice whose last paragraph names the keys it takes, at least one of them Enter or Esc. */
function readKeys(below: string[]): ReadDialog | null {
  const blocks = paragraphs(trimBlank(below));
  const last = blocks[blocks.length - 1];
  if (!last || blocks.length < 2 || last.length > MAX_HINT_LINES) return null;
  const options = keyOptions(last);
  if (!options.some((o) => o.key === 'Enter' || o.key === 'Esc')) return null;
  if (blocks.slice(0, -1).some((block) => block.some((line) => BOX_LINE.test(line)))) return null;
  const heading = headingAndText(blocks.slice(0, -1));
  if (!heading) return null;
  return { style: 'keys', ...heading, options, selected: null };
}

/**
 * The heading is the first line under the rule; the rest is the text. A heading that ends with
 * a colon takes the line after it ("Accessing workspace:" and the folder's path).
 */
function headingAndText(blocks: string[][]): { title: string; text: string | null } | null {
  const lines = blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
  const first = lines[0];
  if (first === undefined) return null;
  let from = 1;
  while (from < lines.length && lines[from] === '') from++;
  const next = lines[from];
  const joined = first.endsWith(':') && next !== undefined;
  const title = joined ? `${headingOf(first)} ${next}` : headingOf(first);
  return { title, text: textOf(paragraphs(lines.slice(joined ? from + 1 : 1))) };
}
