import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialogFingerprint, parseDialog, type ScreenDialog } from '../../../../agent/approvals/dialog-parser.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const PERMISSION = fixture('pane-1-permission-dialog.txt');
const QUESTION = fixture('ask-user-question/pane-ask-user-question.txt');
const EXIT_PLAN = fixture('ask-user-question/pane-exit-plan-mode.txt');
const IDLE = fixture('pane-0-idle.txt');
const BUSY = fixture('pane-4-busy.txt');

const PERMISSION_DIALOG: ScreenDialog = {
  title: 'Bash command: Do you want to proceed?',
  options: [
    { key: '1', label: 'Yes' },
    { key: '2', label: 'Yes, and always allow access to /opt/hooks from this project' },
    { key: '3', label: 'Yes, and switch to auto mode · auto mode handles these prompts for you' },
    { key: '4', label: 'No' },
  ],
  selected: '1',
};

/** Puts conversation lines above the input box of a captured screen with no dialog. */
function aboveInputBox(screen: string, conversation: string[]): string {
  const lines = screen.split('\n');
  // The last rows are the input box and what sits under it: rule, prompt, rule, status lines.
  const boxAt = lines.findIndex((line) => line.startsWith('❯\u00a0')) - 1;
  return [...lines.slice(0, 6), ...conversation, '', ...lines.slice(boxAt)].join('\n');
}

function moveCursor(screen: string, from: string, to: string): string {
  return screen.replace(` ❯ ${from}.`, `   ${from}.`).replace(`   ${to}.`, ` ❯ ${to}.`);
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('dialogs captured from Claude Code 2.1.332', () => {
  it('reads the permission dialog: heading and question, four options, cursor on the first', () => {
    expect(parseDialog(PERMISSION)).toEqual(PERMISSION_DIALOG);
  });

  it('reads the question dialog, leaving out the options’ description lines', () => {
    expect(parseDialog(QUESTION)).toEqual({
      title: 'Colour: Which colour should the button be?',
      options: [
        { key: '1', label: 'Red' },
        { key: '2', label: 'Blue' },
        { key: '3', label: 'Type something.' },
        { key: '4', label: 'Chat about this' },
      ],
      selected: '1',
    });
  });

  it('reads "Exit plan mode?", whose heading is the question', () => {
    expect(parseDialog(EXIT_PLAN)).toEqual({
      title: 'Exit plan mode?',
      options: [
        { key: '1', label: 'Yes, and switch to default (ask each time) for this session' },
        { key: '2', label: 'No' },
      ],
      selected: '1',
    });
  });

  it.each([
    'pane-0-idle.txt',
    'pane-2-after-approve.txt',
    'pane-3-after-deny.txt',
    'pane-4-busy.txt',
    'pane-5-after-interrupt.txt',
  ])('finds no dialog on %s', (name) => {
    expect(parseDialog(fixture(name))).toBeNull();
  });

  it('follows the cursor', () => {
    expect(parseDialog(moveCursor(PERMISSION, '1', '3'))?.selected).toBe('3');
    expect(parseDialog(moveCursor(PERMISSION, '1', '4'))?.selected).toBe('4');
    const chat = QUESTION.replace('❯ 1. Red', '  1. Red').replace('  4. Chat', '❯ 4. Chat');
    expect(parseDialog(chat)?.selected).toBe('4');
  });
});

describe('numbered lists that are not dialogs', () => {
  const list = ['❯ list the colours', '', '● Here they are:', '  1. Red', '  2. Blue', '  3. Green'];

  it('ignores a numbered list in the conversation above the idle or busy input box', () => {
    expect(parseDialog(aboveInputBox(IDLE, list))).toBeNull();
    expect(parseDialog(aboveInputBox(BUSY, list))).toBeNull();
  });

  it('ignores a numbered prompt the person sent, shown with its ❯', () => {
    expect(parseDialog(aboveInputBox(IDLE, ['❯ 1. fix the bug', '  2. add a test']))).toBeNull();
    expect(parseDialog(aboveInputBox(IDLE, ['❯ 1. fix the bug', '  2. add a test', '', '● Done.']))).toBeNull();
    // No status line, nothing from Claude yet: only the input box tells it from a dialog.
    const rule = '─'.repeat(80);
    const bare = ['❯ 1. fix the bug', '  2. add a test', '', rule, '❯\u00a0', rule, '  ? for shortcuts'];
    expect(parseDialog(bare.join('\n'))).toBeNull();
  });

  it('ignores numbered text being typed into the input box', () => {
    const typing = aboveInputBox(IDLE, list).replace('❯\u00a0', '❯\u00a04. Purple');
    expect(parseDialog(typing)).toBeNull();
  });

  it('ignores numbered lines without a cursor or a dialog hint', () => {
    expect(parseDialog('Steps:\n  1. Red\n  2. Blue\n')).toBeNull();
  });

  it('wants options numbered one after another, one cursor, and at least two of them', () => {
    expect(parseDialog(' Pick one\n ❯ 1. Red\n   3. Blue\n')).toBeNull();
    expect(parseDialog(' Pick one\n ❯ 1. Red\n ❯ 2. Blue\n')).toBeNull();
    expect(parseDialog(' Pick one\n ❯ 1. Red\n\n Esc to cancel\n')).toBeNull();
  });

  it('wants nothing but a short footer below the options', () => {
    const extra = PERMISSION.trimEnd().concat('\n some text\n more text\n');
    expect(parseDialog(extra)).toBeNull();
  });
});

describe('screens the parser must survive', () => {
  it('reads a dialog without a cursor when its footer shows it is one; selected is null', () => {
    const noCursor = PERMISSION.replace(' ❯ 1. Yes', '   1. Yes');
    expect(parseDialog(noCursor)).toEqual({ ...PERMISSION_DIALOG, selected: null });
  });

  it('keeps an option’s description out of the options when it is the last option', () => {
    const screen = ['─'.repeat(30), ' Which colour?', ' ❯ 1. Red', '      A red button', '   2. Blue', '      A blue button', '', ' Enter to select'];
    expect(parseDialog(screen.join('\n'))?.options).toEqual([
      { key: '1', label: 'Red' },
      { key: '2', label: 'Blue' },
    ]);
  });

  it('keeps wide characters in labels and titles as they are', () => {
    const screen = [
      '─'.repeat(30),
      ' 権限の確認',
      ' 実行しますか？',
      ' ❯ 1. はい、実行する',
      '   2. 🚀 ロケット 🇯🇵 全角ＡＢＣ   ',
      '   3. No',
      '',
      ' Esc to cancel',
    ].join('\n');
    expect(parseDialog(screen)).toEqual({
      title: '権限の確認: 実行しますか？',
      options: [
        { key: '1', label: 'はい、実行する' },
        { key: '2', label: '🚀 ロケット 🇯🇵 全角ＡＢＣ' },
        { key: '3', label: 'No' },
      ],
      selected: '1',
    });
  });

  it('reads a dialog wrapped by a narrow pane as best it can: right keys, labels cut to their first line', () => {
    const narrow = [
      '────────────────',
      ' Bash command',
      ' Tip: auto mode',
      ' handles these',
      ' prompts for you',
      ' Write a file',
      '╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌',
      ' echo hello-fro',
      ' m-mock > /opt/',
      ' hooks/out.txt',
      '╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌',
      ' Do you want to',
      ' proceed?',
      ' ❯ 1. Yes',
      '   2. Yes, and',
      '      always',
      '      allow access',
      '   3. Yes, and',
      '      switch to',
      '      auto mode',
      '   4. No',
      '',
      ' Esc to cancel ·',
      ' Tab to amend',
    ].join('\n');
    const dialog = parseDialog(narrow);
    expect(dialog?.title).toBe('Bash command: Do you want to proceed?');
    expect(dialog?.selected).toBe('1');
    expect(dialog?.options.map((o) => o.key)).toEqual(['1', '2', '3', '4']);
    for (const [i, option] of (dialog?.options ?? []).entries()) {
      expect(PERMISSION_DIALOG.options[i]?.label.startsWith(option.label)).toBe(true);
    }
  });

  it('reads Windows line endings like Unix ones', () => {
    for (const screen of [PERMISSION, QUESTION, EXIT_PLAN, IDLE]) {
      expect(parseDialog(screen.replaceAll('\n', '\r\n'))).toEqual(parseDialog(screen));
    }
  });

  it('ignores trailing spaces and blank lines', () => {
    const padded = `${PERMISSION.split('\n')
      .map((line) => line.padEnd(200))
      .join('\n')}${'\n'.repeat(40)}   \n\n`;
    expect(parseDialog(padded)).toEqual(PERMISSION_DIALOG);
  });

  it('finds nothing on an empty or blank screen', () => {
    expect(parseDialog('')).toBeNull();
    expect(parseDialog('\n\n   \n\t\n')).toBeNull();
    expect(parseDialog('\r\n\r\n')).toBeNull();
  });

  it('leaves control characters out of what it returns', () => {
    const dirty = PERMISSION.replace(' ❯ 1. Yes', '\u001b[1m ❯ 1. Ye\u0007s\u001b[0m')
      .replace('   4. No', '   4. N\u009bo\u0000')
      .replace(' Bash command', ' Bash\u0008 command\u007f');
    const dialog = parseDialog(dirty);
    expect(dialog).toEqual(PERMISSION_DIALOG);
    expect(CONTROL.test(JSON.stringify(dialog))).toBe(false);
  });

  it('looks only at the bottom of the screen: a heading far above is not read', () => {
    const lines = PERMISSION.split('\n');
    const command = lines.findIndex((line) => line.includes('echo hello-from-mock >') && !line.includes('⎿'));
    const tall = [...lines.slice(0, command), ...Array.from({ length: 100 }, (_, i) => ` line ${i}`), ...lines.slice(command)];
    expect(parseDialog(tall.join('\n'))).toEqual({ ...PERMISSION_DIALOG, title: 'Do you want to proceed?' });
  });

  it('reads a 1 MB capture from its bottom lines, whatever lies above', () => {
    const filler = '  12. a numbered line of earlier conversation, long enough to matter\n';
    const scrollback = filler.repeat(Math.ceil((1024 * 1024) / filler.length));
    const oneLine = 'x'.repeat(1024 * 1024);
    const cases: [string, ScreenDialog | null][] = [
      [scrollback + PERMISSION, PERMISSION_DIALOG],
      [scrollback + IDLE, null],
      [oneLine, null],
      [`${PERMISSION}${' \n'.repeat(512 * 1024)}`, PERMISSION_DIALOG],
    ];
    for (const [screen, expected] of cases) {
      expect(screen.length).toBeGreaterThanOrEqual(1024 * 1024);
      expect(parseDialog(screen)).toEqual(expected);
    }
  });
});

describe('dialogFingerprint', () => {
  it('stays the same while the cursor moves', () => {
    const before = parseDialog(PERMISSION);
    const after = parseDialog(moveCursor(PERMISSION, '1', '2'));
    expect(before && after && dialogFingerprint(before) === dialogFingerprint(after)).toBe(true);
  });

  it('differs for another dialog', () => {
    const permission = parseDialog(PERMISSION) as ScreenDialog;
    const otherTitle = { ...permission, title: 'Edit file: Do you want to proceed?' };
    const otherLabel = { ...permission, options: permission.options.map((o) => (o.key === '2' ? { ...o, label: 'Yes, always' } : o)) };
    const question = parseDialog(QUESTION) as ScreenDialog;
    const prints = new Set([permission, otherTitle, otherLabel, question].map(dialogFingerprint));
    expect(prints.size).toBe(4);
  });
});
