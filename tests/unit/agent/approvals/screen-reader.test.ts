import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readingFingerprint, readScreen, type ScreenReading, UNKNOWN_SCREEN_KEYS, UNKNOWN_SCREEN_LINES } from '../../../../agent/approvals/screen-reader.js';
import { DIALOG_OPTION_KEYS } from '../../../../protocol/approvals.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const dialogs = (name: string) => fixture(join('dialogs', name));

const OFFER = dialogs('pane-startup-auto-mode-offer.txt');
const OFFER_DOWN = dialogs('pane-startup-auto-mode-offer-down.txt');
const TRUST = dialogs('pane-folder-trust.txt');
const BYPASS = dialogs('pane-bypass-start.txt');
const CANNOT_CHECK = dialogs('pane-auto-mode-cannot-check.txt');
const RESUME = dialogs('pane-resume-picker.txt');

function dialogOf(reading: ScreenReading) {
  if (reading.kind !== 'dialog') throw new Error(`read as ${reading.kind}`);
  return reading.dialog;
}

describe('screens captured from Claude Code 2.1.332', () => {
  it('reads the startup offer of auto mode as a select list: heading, text, two options, the cursor', () => {
    expect(dialogOf(readScreen(OFFER))).toEqual({
      style: 'select',
      title: 'Make auto mode your default permission mode?',
      text: 'Auto mode lets Claude handle permission prompts automatically. Claude checks each tool call for risky actions and prompt injection before executing, runs the ones it assesses as lower-risk, and blocks the rest.',
      options: [
        { key: '1', label: 'Yes, set auto mode as my default permission mode' },
        { key: '2', label: 'No, keep manual mode' },
      ],
      selected: '1',
    });
    // The cursor moved down: the same dialog, the cursor on the second option.
    expect(dialogOf(readScreen(OFFER_DOWN)).selected).toBe('2');
    expect(readingFingerprint(readScreen(OFFER_DOWN))).toBe(readingFingerprint(readScreen(OFFER)));
  });

  it('reads the folder trust prompt, with the folder in its title and its footer’s Esc as an option', () => {
    expect(dialogOf(readScreen(TRUST))).toMatchObject({
      style: 'select',
      title: 'Accessing workspace: ~/fresh',
      options: [
        { key: '1', label: 'No, exit' },
        { key: '2', label: 'Yes, I trust this folder' },
        { key: 'Esc', label: 'Cancel' },
      ],
      selected: '1',
    });
    expect(dialogOf(readScreen(TRUST)).text).toContain('Quick safety check: Is this a project you created or one you trust?');
  });

  it('reads the bypass permissions warning', () => {
    expect(dialogOf(readScreen(BYPASS))).toMatchObject({
      style: 'select',
      title: 'WARNING: Claude Code running in Bypass Permissions mode',
      options: [
        { key: '1', label: 'No, exit' },
        { key: '2', label: 'Yes, I accept' },
        { key: 'Esc', label: 'Cancel' },
      ],
    });
  });

  it('reads auto mode’s notice that it cannot check actions as the keys its footer names', () => {
    const dialog = dialogOf(readScreen(CANNOT_CHECK));
    expect(dialog).toMatchObject({
      style: 'keys',
      title: 'Auto mode can’t check actions in this session'.replace('’', "'"),
      options: [
        { key: 'Enter', label: 'Stay in auto mode' },
        { key: 'Shift+Tab', label: 'Leave for accept edits mode and stop' },
        { key: 'Esc', label: 'Cancel' },
      ],
      selected: null,
    });
    expect(dialog.text).toContain('You can stay in auto mode and approve each action that needs the check yourself.');
    // Paragraphs stay apart; the lines of one are joined.
    expect(dialog.text?.split('\n\n').length).toBeGreaterThan(2);
  });

  it('leaves the resume picker unread (a search box and rows with details), with its lines from the rule down', () => {
    const reading = readScreen(RESUME);
    expect(reading.kind).toBe('unknown');
    if (reading.kind !== 'unknown') return;
    expect(reading.lines[0]).toBe('  Resume session');
    expect(reading.lines).toContain('  ❯ hello there');
    expect(reading.lines.length).toBeLessThanOrEqual(UNKNOWN_SCREEN_LINES);
  });

  it('reads the numbered dialogs as before: the permission dialog with its four options', () => {
    const dialog = dialogOf(readScreen(fixture('pane-1-permission-dialog.txt')));
    expect(dialog.style).toBe('numbered');
    expect(dialog.title).toBe('Bash command: Do you want to proceed?');
    expect(dialog.options.map((o) => o.key)).toEqual(['1', '2', '3', '4']);
    expect(dialogOf(readScreen(fixture('ask-user-question/pane-exit-plan-mode.txt'))).style).toBe('numbered');
  });

  it('reads the input box, idle and busy and after the offer was answered, with the mode its footer names', () => {
    const expected: [string, string][] = [
      ['pane-0-idle.txt', 'manual'],
      ['pane-4-busy.txt', 'manual'],
      ['pane-2-after-approve.txt', 'manual'],
      ['dialogs/pane-startup-after-keep-manual.txt', 'manual'],
      ['dialogs/pane-mode-manual.txt', 'manual'],
      ['dialogs/pane-mode-accept-edits.txt', 'accept-edits'],
      ['dialogs/pane-mode-plan.txt', 'plan'],
      ['dialogs/pane-mode-auto.txt', 'auto'],
      ['dialogs/pane-mode-bypass.txt', 'bypass'],
    ];
    for (const [name, mode] of expected) expect(readScreen(fixture(name)), name).toEqual({ kind: 'prompt', mode });
    // A footer that names no mode (a future one, or none drawn yet) reads as no mode.
    const unnamed = fixture('dialogs/pane-mode-auto.txt').replace('⏵⏵ auto mode on', '⏵⏵ some new mode on');
    expect(readScreen(unnamed)).toEqual({ kind: 'prompt', mode: null });
  });
});

describe('screens the reader must survive', () => {
  const RULE = '─'.repeat(40);

  it('wants a blank line above a select list, one cursor, options at its labels’ column, and a heading', () => {
    const list = (...rows: string[]) => [RULE, '  Pick one', '', ...rows, ''].join('\n');
    expect(readScreen(list('  ❯ Red', '    Blue')).kind).toBe('dialog');
    // Two cursors, or none: not a list read as such.
    expect(readScreen(list('  ❯ Red', '  ❯ Blue')).kind).toBe('unknown');
    expect(readScreen(list('    Red', '    Blue')).kind).toBe('unknown');
    // A row out of line with the labels.
    expect(readScreen(list('  ❯ Red', '      Blue')).kind).toBe('unknown');
    // One option is no choice.
    expect(readScreen(list('  ❯ Red')).kind).toBe('unknown');
    // No heading above the list (a cursor right under a rule is read as the input box).
    expect(readScreen([RULE, '', '  ❯ Red', '    Blue'].join('\n')).kind).toBe('unknown');
    expect(readScreen([RULE, '  ❯ Red', '    Blue'].join('\n')).kind).not.toBe('dialog');
  });

  it('takes only Enter, Esc, Tab and Shift+Tab from a footer, each once, and wants Enter or Esc among them', () => {
    const notice = (footer: string) => [RULE, '  A notice', '', '  Some words.', '', `  ${footer}`].join('\n');
    expect(dialogOf(readScreen(notice('Enter to go on · Ctrl+R to rename · Enter to go · Tab to amend'))).options).toEqual([
      { key: 'Enter', label: 'Go on' },
      { key: 'Tab', label: 'Amend' },
    ]);
    expect(readScreen(notice('Ctrl+R to rename · Space to preview')).kind).toBe('unknown');
    expect(readScreen(notice('Tab to amend')).kind).toBe('unknown');
  });

  it('finds nothing to offer on an empty screen, a screen with no rule, or a shell prompt', () => {
    expect(readScreen('')).toEqual({ kind: 'unknown', lines: [] });
    expect(readScreen('\n\n   \n')).toEqual({ kind: 'unknown', lines: [] });
    expect(readScreen('$ ls\nfile-a  file-b\n$ ')).toEqual({ kind: 'unknown', lines: [] });
  });

  it('keeps control characters out of everything it returns', () => {
    const hostile = [RULE, '  Head\u001b[31ming\u0007', '', '  ❯ Y\u009bes', '    N\u0000o', '', '  Enter to \u001b]0;x\u0007go · Esc to stop'].join('\n');
    const text = JSON.stringify(readScreen(hostile));
    expect(text).not.toMatch(/\\u00(?:0[0-9a-f]|1[0-9a-f]|7f|8[0-9a-f]|9[0-9a-f])/);
    expect(dialogOf(readScreen(hostile)).options.map((o) => o.label)).toEqual(['Yes', 'No', 'Stop']);
  });

  it('names only keys a decision may carry (DIALOG_OPTION_KEYS) or digits', () => {
    const keys = [...UNKNOWN_SCREEN_KEYS, ...dialogOf(readScreen(CANNOT_CHECK)).options, ...dialogOf(readScreen(TRUST)).options].map((o) => o.key);
    for (const key of keys) expect(/^[0-9]{1,2}$/.test(key) || (DIALOG_OPTION_KEYS as readonly string[]).includes(key), key).toBe(true);
  });

  it('reads a 1 MB capture from its bottom lines', () => {
    const big = `${'x'.repeat(1_000_000)}\n${OFFER}`;
    expect(dialogOf(readScreen(big)).title).toBe('Make auto mode your default permission mode?');
  });
});
