/**
 * The dialog parser under hostile screens: whatever a pane shows (a program printing escape
 * sequences, numbered lists, tabs, controls, CJK, a captured dialog cut or garbled), it
 * answers null or a dialog that keeps the shape its doc comment promises, without a throw.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dialogFingerprint, parseDialog, type ScreenDialog } from '../../agent/approvals/dialog-parser.js';
import { hostileChar, hostileString, RUNS } from './hostile.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');
const SCREENS = [
  'pane-0-idle.txt',
  'pane-1-permission-dialog.txt',
  'pane-2-after-approve.txt',
  'pane-3-after-deny.txt',
  'pane-4-busy.txt',
  'pane-5-after-interrupt.txt',
  'ask-user-question/pane-ask-user-question.txt',
  'ask-user-question/pane-exit-plan-mode.txt',
].map((name) => readFileSync(join(FIXTURES, name), 'utf8'));

/** What a label or a title may never hold once read: C0 (tab and newline included), DEL, C1. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** What the doc comment of `parseDialog` and `ScreenDialog` promise of any answer. */
function checkDialog(dialog: ScreenDialog | null): void {
  if (dialog === null) return;
  expect(dialog.options.length).toBeGreaterThanOrEqual(2);
  dialog.options.forEach((option, i) => {
    expect(option.key).toMatch(/^\d{1,2}$/);
    // Consecutively numbered, in screen order.
    if (i > 0) expect(Number(option.key)).toBe(Number((dialog.options[i - 1] as { key: string }).key) + 1);
    expect(option.label).toMatch(/^\S/);
    expect(option.label).toBe(option.label.trimEnd());
    expect(option.label).not.toMatch(CONTROL);
  });
  if (dialog.selected !== null) expect(dialog.options.map((o) => o.key)).toContain(dialog.selected);
  expect(typeof dialog.title).toBe('string');
  expect(dialog.title).not.toMatch(CONTROL);
  expect(JSON.parse(dialogFingerprint(dialog))).toEqual([dialog.title, dialog.options.map((o) => [o.key, o.label])]);
}

/** Trailing blank lines and spaces are not part of a screen: they change nothing. */
function checkScreen(screen: string): void {
  const dialog = parseDialog(screen);
  checkDialog(dialog);
  expect(parseDialog(`${screen}\n \t\r\n\n`)).toEqual(dialog);
}

const label = fc.oneof(
  fc.constantFrom('Yes', 'No', 'Yes, and always allow access to /opt from this project', 'Red', '界', '😀 go'),
  hostileString,
);

/** Lines a screen is made of, the ones the parser looks for among them. */
const line = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.integer({ min: 0, max: 120 }), fc.constantFrom(' ', '  ', '\u00a0'), label)
    .map(([indent, cursor, n, gap, text]) => `${' '.repeat(indent)}${cursor ? '❯ ' : ''}${n}.${gap}${text}`),
  fc.constantFrom(
    '─'.repeat(40),
    '╌'.repeat(40),
    ' ━━━ ',
    ' Bash command',
    ' ☐ Colour',
    ' Do you want to proceed?',
    ' Esc to cancel · Tab to amend',
    'Enter to select · ↑/↓ to navigate · Esc to cancel',
    '❯\u00a0',
    '! ls',
    '> ',
    '',
    '   ',
    '\u001b[31m 1. red\u001b[0m',
    '\u001b]0;title\u0007',
    '\t2.\tTabbed',
    '     indented description',
  ),
  hostileString,
  fc.string({ unit: hostileChar, maxLength: 30 }),
);

const newline = fc.constantFrom('\n', '\r\n', '\r');
const screen = fc.tuple(fc.array(line, { maxLength: 80 }), newline).map(([lines, nl]) => lines.join(nl));

type Edit =
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'splice'; at: number; column: number; text: string }
  | { kind: 'cut'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map((at) => ({ kind: 'delete' as const, at })),
  fc.nat().map((at) => ({ kind: 'duplicate' as const, at })),
  fc.tuple(fc.nat(), line).map(([at, text]) => ({ kind: 'insert' as const, at, text })),
  fc.tuple(fc.nat(), fc.nat(), fc.oneof(fc.string({ unit: hostileChar, maxLength: 4 }), fc.constantFrom('\u001b[1m', '\u001b[', '❯ ', '3. '))).map(([at, column, text]) => ({
    kind: 'splice' as const,
    at,
    column,
    text,
  })),
  fc.nat().map((at) => ({ kind: 'cut' as const, at })),
);

function applyEdit(text: string, e: Edit): string {
  if (e.kind === 'cut') return text.slice(0, e.at % (text.length + 1));
  const lines = text.split('\n');
  const at = e.at % (lines.length + 1);
  switch (e.kind) {
    case 'delete':
      lines.splice(at, 1);
      break;
    case 'duplicate':
      if (at < lines.length) lines.splice(at, 0, lines[at] as string);
      break;
    case 'insert':
      lines.splice(at, 0, e.text);
      break;
    case 'splice': {
      const target = lines[at] ?? '';
      const column = e.column % (target.length + 1);
      lines[at] = `${target.slice(0, column)}${e.text}${target.slice(column)}`;
      break;
    }
  }
  return lines.join('\n');
}

const mutatedCapture = fc
  .tuple(fc.constantFrom(...SCREENS), fc.array(edit, { minLength: 1, maxLength: 4 }))
  .map(([capture, edits]) => edits.reduce(applyEdit, capture));

/** The last line before `end` that `test` holds for. */
function lastIndex(lines: string[], end: number, test: (line: string) => boolean): number {
  for (let i = end - 1; i >= 0; i--) if (test(lines[i] as string)) return i;
  return -1;
}

describe('dialog parser, by property', () => {
  it('answers arbitrary screens with null or a well-formed dialog', () => {
    fc.assert(fc.property(fc.oneof(screen, fc.string({ unit: 'binary', maxLength: 400 })), checkScreen), { numRuns: RUNS });
  });

  it('answers captured screens cut, garbled and rearranged with null or a well-formed dialog', () => {
    fc.assert(fc.property(mutatedCapture, checkScreen), { numRuns: RUNS });
  });

  it('reads a captured dialog the same under any scrollback above it', () => {
    const dialogs = SCREENS.map((capture) => [capture, parseDialog(capture)] as const).filter(([, d]) => d !== null);
    expect(dialogs.length).toBeGreaterThanOrEqual(2);
    // Anything above the dialog's top border, ended by a line break, is conversation: no
    // option there counts, whatever it holds.
    const scrollback = fc.array(line, { maxLength: 80 }).map((lines) => `${lines.join('\n')}\n${'─'.repeat(40)}\n`);
    fc.assert(
      fc.property(fc.constantFrom(...dialogs), scrollback, ([capture, dialog], above) => {
        const lines = capture.split('\n');
        const firstOption = lastIndex(lines, lines.length, (l) => /^ *(❯ +)?1\. /.test(l));
        const border = lastIndex(lines, firstOption, (l) => /^ *─{3,} *$/.test(l));
        const screen = `${above}${lines.slice(border).join('\n')}`;
        const again = parseDialog(screen);
        expect(again?.options).toEqual(dialog?.options);
        expect(again?.selected).toEqual(dialog?.selected);
      }),
      { numRuns: RUNS },
    );
  });

  // Only the bottom of a capture is read: megabytes of it, with or without line breaks, end
  // well inside the test's timeout.
  it('answers captures of megabytes, with or without line breaks', () => {
    for (const huge of ['x'.repeat(4_000_000), '1. a\n'.repeat(800_000), `${'\u001b['.repeat(1_000_000)}\n  1. Yes\n❯ 2. No`]) {
      checkDialog(parseDialog(huge));
    }
  });
});
