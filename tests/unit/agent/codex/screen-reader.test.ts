import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readScreen } from '../../../../agent/approvals/screen-reader.js';
import { readCodexScreen } from '../../../../agent/codex/screen-reader.js';

const CAPTURED = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-0.169.0');
const pane = (name: string) => readFileSync(join(CAPTURED, `pane-${name}.txt`), 'utf8');

describe("Codex's screen", () => {
  it('reads its command approval: the question, the reason and the command, the options by digit, the cursor', () => {
    expect(readCodexScreen(pane('permission-dialog'))).toEqual({
      kind: 'dialog',
      dialog: {
        style: 'numbered',
        title: 'Would you like to run the following command?',
        text: 'Environment: local\nReason: Write the marker file\n$ echo marker > marker.txt',
        options: [
          { key: '1', label: 'Yes, proceed (y)' },
          { key: '2', label: "Yes, and don't ask again for commands that start with `echo marker > marker.txt` (p)" },
          { key: '3', label: 'No, and tell Codex what to do differently (esc)' },
        ],
        selected: '1',
      },
    });
  });

  it('reads an option whose label wraps in a narrow pane as one option', () => {
    const narrow = [
      '  Would you like to run the following command?',
      '',
      '  $ echo third >',
      '  /home/user/project/third.txt',
      '',
      '',
      '› 1. Yes, proceed (y)',
      '  2. Yes, and don\'t ask again for commands that start with `echo third > /home/',
      '     user/project/third.txt` (p)',
      '  3. No, and tell Codex what to do differently (esc)',
      '',
      '  Press enter to confirm or esc to cancel',
    ].join('\n');
    const reading = readCodexScreen(narrow);
    expect(reading.kind === 'dialog' && reading.dialog.options).toEqual([
      { key: '1', label: 'Yes, proceed (y)' },
      { key: '2', label: "Yes, and don't ask again for commands that start with `echo third > /home/ user/project/third.txt` (p)" },
      { key: '3', label: 'No, and tell Codex what to do differently (esc)' },
    ]);
    expect(reading.kind === 'dialog' && reading.dialog.text).toBe('$ echo third >\n/home/user/project/third.txt');
  });

  it('reads the folder trust prompt, whose heading asks nothing', () => {
    const reading = readCodexScreen(pane('trust-folder'));
    expect(reading.kind === 'dialog' && reading.dialog).toMatchObject({
      title: 'Folder access',
      options: [
        { key: '1', label: 'Trust and continue' },
        { key: '2', label: 'Back to Agent Command Center' },
      ],
      selected: '1',
    });
    expect(reading.kind === 'dialog' && reading.dialog.text).toMatch(/^\/home\/user\/proj\nTrust this folder\?/);
  });

  it('sees the composer, at rest, while a hook is held, and after each answer; never a dialog there', () => {
    for (const name of ['idle', 'during-held-hook', 'after-approve', 'after-deny', 'after-escape']) {
      expect(readCodexScreen(pane(name)), name).toEqual({ kind: 'prompt', mode: null });
    }
  });

  it('takes a numbered list in the conversation, with the composer under it, for no dialog; and reads nothing it has not met', () => {
    const list = ['• Here is the plan:', '', '  1. Read the file', '  2. Fix the bug', '  3. Run the tests', '', '', '› Ask Codex to do anything', '', '  gpt-5.1-codex default · /home/user/proj'].join('\n');
    expect(readCodexScreen(list)).toEqual({ kind: 'prompt', mode: null });
    // No footer naming Enter and Esc: not a dialog, and not offered.
    expect(readCodexScreen('  1. one\n  2. two\n')).toEqual({ kind: 'unknown', lines: [] });
    for (const input of ['', '\n\n\n', 'x'.repeat(200_000), '› 1. a\n  3. b\nenter esc', '\u0000\u001b[2J']) {
      expect(() => readCodexScreen(input)).not.toThrow();
    }
  });

  it("is not read as Claude's: Claude's reader finds no dialog on Codex's screens", () => {
    for (const name of ['permission-dialog', 'trust-folder', 'idle']) expect(readScreen(pane(name)).kind, name).not.toBe('dialog');
  });
});
