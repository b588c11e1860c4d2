/**
 * Reads what Codex shows at the bottom of its screen, in the terms Claude's screen reader uses
 * (agent/approvals/screen-reader.ts), so one dialog poll serves both: its composer (the
 * prompt), a numbered dialog it waits on, or neither. Written against Codex 0.169.0; the
 * captures are in tests/fixtures/codex-0.169.0/.
 *
 * A Codex dialog is a run of consecutively numbered options, one of them behind Codex's `›`
 * cursor, with a footer below that names Enter and Esc ("Press enter to confirm or esc to
 * cancel", "enter continue · esc back"), and no composer under it: its command approval
 * ("Would you like to run the following command?"), the folder trust prompt. A digit answers
 * it at once. A numbered list in the conversation has no such footer, and the composer (`› `
 * and its text) is drawn below it.
 *
 * Pure and total: any string in, a reading out, never a throw. What is neither is `unknown`
 * with no lines, and is never offered as a card: a screen of Codex's that this reader has not
 * met is not guessed at.
 */
import type { DialogOption } from '../../protocol/approvals.js';
import type { ScreenReading } from '../approvals/screen-reader.js';

/** Codex's dialogs and composer fit in far fewer rows; the scrollback above is never read. */
const SCAN_LINES = 60;
/** Bounds the work on a capture with absurdly long lines. */
const SCAN_CHARS = 64 * 1024;
/** Lines above the options that may hold the dialog's heading and text. */
const MAX_TEXT_LINES = 20;

/** `› 1. Yes, proceed (y)` or `  2. label`: Codex's cursor, then the number. */
const OPTION_LINE = /^ *(› +)?(\d{1,2})\. +(\S.*?) *$/;
/** The footer of a dialog: a hint that names Enter and Esc. */
const FOOTER_LINE = /\benter\b.*\besc\b|\besc\b.*\benter\b/i;
/** The composer: `›`, a space, and what is typed or its placeholder (never an option's number). */
const COMPOSER_LINE = /^ *› (?! *\d{1,2}\. )/;

function bottom(screen: string): string[] {
  const text = screen.length > SCAN_CHARS ? screen.slice(-SCAN_CHARS) : screen;
  const lines = text.split('\n').map((l) => l.replace(/\u00a0/g, ' ').trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.slice(-SCAN_LINES);
}

/** Lines an option's label may wrap onto, indented past its number. */
const MAX_WRAPPED_LINES = 3;
/** A wrapped line of a label starts at the label's column, past `  N. `. */
const WRAPPED_INDENT = 4;

function isWrapped(line: string): boolean {
  return line.trim() !== '' && !OPTION_LINE.test(line) && line.length - line.trimStart().length >= WRAPPED_INDENT;
}

/** The lines right below `at` that continue its label: where the next thing starts, and their text. */
function wrappedBelow(lines: readonly string[], at: number): { next: number; text: string[] } {
  const text: string[] = [];
  let next = at + 1;
  while (next < lines.length && text.length < MAX_WRAPPED_LINES && isWrapped(lines[next] as string)) text.push((lines[next++] as string).trim());
  return { next, text };
}

/**
 * The last run of options numbered 1, 2, … in a row, and the line after it; null when there
 * is none. A label too long for the pane wraps onto lines indented past its number.
 */
function lastOptions(lines: readonly string[]): { start: number; after: number; options: DialogOption[]; selected: string | null } | null {
  for (let end = lines.length - 1; end >= 0; end--) {
    const last = OPTION_LINE.exec(lines[end] as string);
    if (!last) continue;
    // Upward from the last option: past the lines its predecessor's label wrapped onto, the
    // option numbered one less.
    const found = [{ at: end, match: last }];
    for (let top = end; Number(found[0]?.match[2]) > 1; ) {
      let above = top - 1;
      while (above >= 0 && top - above <= MAX_WRAPPED_LINES && isWrapped(lines[above] as string)) above--;
      const option = above >= 0 ? OPTION_LINE.exec(lines[above] as string) : null;
      if (!option || Number(option[2]) !== Number(found[0]?.match[2]) - 1) break;
      found.unshift({ at: above, match: option });
      top = above;
    }
    if (Number(found[0]?.match[2]) !== 1) continue;
    let selected: string | null = null;
    const options = found.map(({ at, match }) => {
      if (match[1]) selected = match[2] as string;
      return { key: match[2] as string, label: [match[3] as string, ...wrappedBelow(lines, at).text].join(' ') };
    });
    return { start: found[0]?.at ?? end, after: wrappedBelow(lines, end).next, options, selected };
  }
  return null;
}

/** The heading and text above the options: up to the nearest run of two blank lines. */
function headingAbove(lines: readonly string[], start: number): { title: string; text: string | null } {
  const block: string[] = [];
  let blanks = 0;
  for (let i = start - 1; i >= 0 && start - i <= MAX_TEXT_LINES; i--) {
    const line = (lines[i] as string).trim();
    if (line === '') {
      if (++blanks >= 2 && block.length > 0) break;
      continue;
    }
    blanks = 0;
    block.unshift(line);
  }
  // The question is the dialog's title when it asks one ("Would you like to run the following
  // command?"); else its first line is ("Folder access").
  const question = block.findIndex((line) => line.endsWith('?'));
  const at = Math.max(question, 0);
  const title = block[at] ?? '';
  const rest = block.filter((_, i) => i !== at);
  return { title, text: rest.length > 0 ? rest.join('\n') : null };
}

/** Reads the bottom of a Codex screen captured with `tmux capture-pane -p`. */
export function readCodexScreen(screen: string): ScreenReading {
  const lines = bottom(screen);
  const found = lastOptions(lines);
  if (found) {
    const below = lines.slice(found.after).filter((l) => l.trim() !== '');
    if (below.length > 0 && below.length <= 2 && below.some((l) => FOOTER_LINE.test(l)) && !below.some((l) => COMPOSER_LINE.test(l))) {
      const { title, text } = headingAbove(lines, found.start);
      return { kind: 'dialog', dialog: { style: 'numbered', title, text, options: found.options, selected: found.selected } };
    }
  }
  if (lines.some((l) => COMPOSER_LINE.test(l) || /^ *›$/.test(l))) return { kind: 'prompt', mode: null };
  return { kind: 'unknown', lines: [] };
}
